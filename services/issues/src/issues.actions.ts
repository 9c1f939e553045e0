import { randomUUID } from "node:crypto";
import { AccessLevel, changeValues, implement, callerOf, forbidden, notFound, notModified, recordNotFound, requireAdmin, requireCaller, badRequestMessage, type Ctx, announce } from "@collab/core";
import type { Db, ServiceKit } from "@collab/db";
import { and, eq, getTableColumns, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { issueLabels, issues, type EpicRow, type IssueRow } from "./db/schema";
import { linkColumns, readableIssueConditions, type IssueScope, type IssueWithLinks } from "./finders/issues.finder";
import { Issues, type CloneIssueParams, type CreateIssueParams, type MoveIssueParams, type UpdateIssueParams } from "@collab/issues-contract";
import { issueEvent, issueHookSnapshot, issuePayload, todoFacts } from "./domain/events";
import { presentIssueHookAttrs } from "./api/issue.hook-attrs";
import { issuesStatistics, listIssues } from "./issue-lists";
import { createIssue, deleteIssue, isSubscribed, isTransitionOnly, setSubscription, transitionIssue, updateIssue, type IssueInput } from "./domain/issues";
import { issuesProject, loadIssue } from "./domain/load";
import { cloneIssue, moveIssue } from "./domain/move";
import { canAdminIssue, canCreateIssue, canDestroyIssue, canSetTimestamps, canUpdateIssue } from "./domain/permissions";
import { NO_KNOWN_REFS, presentIssues, type KnownRefs } from "./domain/presentation";
import {
  accessLevels,
  assertWritable,
  labelMap,
  milestoneByTitle,
  milestoneMap,
  readableProjects,
  resolveLabels,
  resolveWorkItemInput,
  resolvedWorkItemInput,
  workItemInputRequest,
  type ResolvedWorkItemInput,
  type WorkItemInputRefs,
  visibleProjectOrNull as targetProject,
  userMap,
  type ProjectAccess,
} from "@collab/work-items";
import { reorderIssue } from "./domain/reorder";
import { projectUnderGroup, setIssueEpic } from "./epics/epic-issues";
import { findIssueEpic } from "./epics/epic-issues.finder";
import { roleOnGroup } from "./epics/epic-groups";
import { canAdminEpic } from "./epics/epic-permissions";
import { epicOfWrite } from "./epics/issue-epic-input";


/** Fields below the tier are dropped on write, as GitLab ignores unlicensed params. */
function tierFilter<T extends { weight?: unknown; epic_id?: unknown; epic_iid?: unknown; iteration_id?: unknown; health_status?: unknown }>(kit: ServiceKit, p: T): T {
  const out = { ...p };
  if (kit.config.LICENSE_TIER === "free") {
    delete out.weight;
    delete out.epic_id;
    delete out.epic_iid;
    delete out.iteration_id;
  }
  if (kit.config.LICENSE_TIER !== "ultimate") delete out.health_status;
  return out;
}

type WriteParams = CreateIssueParams | UpdateIssueParams;

const namesIteration = (p: WriteParams) => p.iteration_id !== undefined && p.iteration_id !== null;
const namesEpic = (p: WriteParams) => (p.epic_id ?? p.epic_iid) !== undefined && (p.epic_id ?? p.epic_iid) !== null;

/** The assignees (positive ids, once each; one on the free tier), milestone and label names a write (tier-filtered) asks for. */
function inputRefsOf(kit: ServiceKit, p: WriteParams): WorkItemInputRefs {
  const assignees = p.assignee_ids ?? (p.assignee_id === undefined ? undefined : p.assignee_id === null ? [] : [p.assignee_id]);
  const userIds = assignees && [...new Set(assignees.filter((id) => id > 0))].slice(0, kit.config.LICENSE_TIER === "free" ? 1 : undefined);
  return { userIds, milestoneId: p.milestone_id, labels: p };
}

/**
 * Turns request params into an IssueInput: resolves label names (creating unknown ones), keeps
 * assignees who can see the project, resolves the milestone and epic, and drops what the caller
 * may not set — all before the write transaction. `known`: the labels and milestone looked up on
 * the way, which the answer needs not ask for again.
 */
async function buildInput(
  kit: ServiceKit,
  ctx: Ctx<unknown>,
  access: ProjectAccess,
  raw: WriteParams,
  admin: boolean,
  owner: boolean,
  current?: { labelIds: number[] },
  checked?: ResolvedWorkItemInput,
): Promise<{ input: IssueInput; known: KnownRefs }> {
  const p = tierFilter(kit, raw);
  const input: IssueInput = {};
  if ("title" in p && p.title !== undefined) input.title = p.title;
  if (p.description !== undefined) input.description = p.description;
  if ("state_event" in p && p.state_event !== undefined) input.stateEvent = p.state_event;
  if (owner) {
    if (p.created_at !== undefined) input.createdAt = p.created_at;
    if ("iid" in p && p.iid !== undefined) input.iid = p.iid;
    if ("updated_at" in p && p.updated_at !== undefined) input.updatedAt = p.updated_at;
  }
  const epic = await epicOfWrite(kit, ctx, access.project, p, admin);
  if (epic !== undefined) input.epic = epic;
  if (!admin) {
    // Authors below Planner may still file confidential issues of their own.
    if (!current && p.confidential !== undefined) input.confidential = p.confidential;
    return { input, known: NO_KNOWN_REFS };
  }
  if (p.confidential !== undefined) input.confidential = p.confidential;
  if (p.discussion_locked !== undefined) input.discussionLocked = p.discussion_locked;
  if (p.due_date !== undefined) input.dueDate = p.due_date;
  if (p.issue_type !== undefined) input.issueType = p.issue_type;
  if (p.weight !== undefined) input.weight = p.weight;
  if (p.health_status !== undefined) input.healthStatus = p.health_status;
  // No iterations exist here: naming one is 404 (GitLab's find of the record).
  if (namesIteration(p)) throw notFound("Iteration");
  if (p.iteration_id === null) input.iterationId = null;
  // A new issue of a confidential epic is confidential, whatever was asked (GitLab's filter_epic).
  if (!current && input.epic?.confidential) input.confidential = true;

  // Assignees, milestone and labels are the namespaces service's to check: one call for the three
  // (made already, with the project's, on create).
  const refs = inputRefsOf(kit, p);
  const resolved = checked ?? (await resolveWorkItemInput(ctx, access.project.id, refs, current?.labelIds));
  const assigneeIds = refs.userIds?.filter((id) => resolved.levels[id]?.can_read);
  const { milestoneId, labelIds } = resolved;
  if (assigneeIds !== undefined) input.assigneeIds = assigneeIds;
  if (milestoneId !== undefined) input.milestoneId = milestoneId;
  if (labelIds !== undefined) input.labelIds = labelIds;
  return { input, known: { labels: resolved.labels, milestones: resolved.milestone ? [resolved.milestone] : [] } };
}

export const issuesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "issues.listProject": implement(Issues.issues.listProject, (ctx) => listIssues(kit, ctx, "project"), { visibility: "published" }),

  "issues.listGroup": implement(Issues.issues.listGroup, (ctx) => listIssues(kit, ctx, "group"), { visibility: "published" }),

  "issues.listAll": implement(Issues.issues.listAll, (ctx) => listIssues(kit, ctx, "all"), { visibility: "published" }),

  "issues.statisticsProject": implement(Issues.issues.statisticsProject, (ctx) => issuesStatistics(kit, ctx, "project"), { visibility: "published" }),

  "issues.statisticsGroup": implement(Issues.issues.statisticsGroup, (ctx) => issuesStatistics(kit, ctx, "group"), { visibility: "published" }),

  "issues.statisticsAll": implement(Issues.issues.statisticsAll, (ctx) => issuesStatistics(kit, ctx, "all"), { visibility: "published" }),

  "issues.byIds": implement(Issues.issues.byIds, async (ctx) => {
    const ids = [...new Set(ctx.params.ids)];
    if (!ids.length) return [];
    const readable = await readableProjects(ctx);
    const scope: IssueScope = { caller: callerOf(ctx), projects: readable.all ? null : readable.projects, defaultScope: "all" };
    const rows = await kit.db.select().from(issues).where(and(inArray(issues.id, ids), ...readableIssueConditions(scope)));
    return presentIssues(kit, ctx, rows, { context: {} });
  }),

  /** Bus only (webhooks): the issues as hook data shows them, with their label and assignee ids, in one statement. */
  "issues.hookAttrs": implement(Issues.issues.hookAttrs, async (ctx) => {
    const ids = [...new Set(ctx.params.ids)];
    if (!ids.length) return [];
    const rows = await kit.db
      .select({ ...getTableColumns(issues), labelIds: linkColumns.labelIds, assigneeIds: linkColumns.assigneeIds })
      .from(issues)
      .where(inArray(issues.id, ids));
    return rows.map(presentIssueHookAttrs);
  }),

  "issues.get": implement(
    Issues.issues.get,
    async (ctx) => {
        const { access, issue, labelIds, assigneeIds, epicId, blockingIssuesCount } = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
        const subscribed = await isSubscribed(kit.db, issue.id, callerOf(ctx)?.id);
        // Its links were read with it: presented without reading them again.
        return (await presentIssues(kit, ctx, [{ ...issue, labelIds, assigneeIds, epicId, blockingIssuesCount }], { context: { projectId: access.project.id }, knownProjects: [access.project], subscribed }))[0];
    },
    { visibility: "published" },
  ),

  /** GET /issues/:id — by global id, administrators only. */
  "issues.getById": implement(
    Issues.issues.getById,
    async (ctx) => {
        requireAdmin(ctx);
        const [issue] = await kit.db.select().from(issues).where(eq(issues.id, ctx.params.id));
        // GitLab's Issue.find: ActiveRecord's "404 Not found".
        if (!issue) throw recordNotFound();
        return (await presentIssues(kit, ctx, [issue], { context: { projectId: issue.projectId } }))[0];
    },
    { visibility: "published" },
  ),

  "issues.create": implement(
    Issues.issues.create,
    async (ctx) => {
        const caller = requireCaller(ctx);
        // The project and the input's assignees, milestone and labels in one call — unless the
        // params name an epic or iteration, which Planners are refused before anything is checked.
        const filtered = tierFilter(kit, ctx.params);
        const refs = inputRefsOf(kit, filtered);
        const refusable = namesIteration(filtered) || namesEpic(filtered);
        const request = refusable ? undefined : workItemInputRequest(refs);
        const access = await issuesProject(ctx, ctx.params.id, request);
        if (!canCreateIssue(caller, access.role, access.project.visibility)) throw forbidden();
        assertWritable(access);
        const admin = access.role >= AccessLevel.PLANNER;
        // Checked with the project (or nothing to check); otherwise buildInput checks: after refusing
        // an epic or iteration, or when a namespaces replica that predates issue_input answered.
        const checked = access.issue_input || (!refusable && request === undefined) ? resolvedWorkItemInput(access.issue_input, refs) : undefined;
        const { input, known } = await buildInput(kit, ctx, access, ctx.params, admin, access.role >= AccessLevel.OWNER, undefined, checked);
        const actor = { id: caller.id, username: caller.username };
        const write = (db: Db) => createIssue(db, access.project.id, actor, { ...input, title: ctx.params.title }, randomUUID());
        const epic = input.epic ?? null;
        // One statement writes the issue, its links and its `opened` event (see issuePayloadSql); with
        // an epic, in one transaction with the issue's association, its note and its `updated` event.
        const issue = epic
          ? await kit.events.transact(
              async (tx) => {
                const row = await write(tx);
                await setIssueEpic(tx, row, epic, caller.id, access.project);
                return row;
              },
              (row) => [announce(Issues.events.issueUpdated, { ...issuePayload(row, caller.id), changes: ["epic"] })],
            )
          : await kit.events.announced(write(kit.db));
        // Its links are what was just written: no need to read them back.
        const created = { ...issue, labelIds: [...new Set(input.labelIds ?? [])], assigneeIds: input.assigneeIds ?? [] };
        const knownEpics = new Map(epic ? [[issue.id, epic]] : []);
        return (await presentIssues(kit, ctx, [created], { context: { projectId: access.project.id }, knownProjects: [access.project], knownRefs: known, subscribed: true, created: true, knownEpics }))[0];
    },
    { visibility: "published" },
  ),

  "issues.update": implement(
    Issues.issues.update,
    async (ctx) => {
        const caller = requireCaller(ctx);
        const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
        if (!canUpdateIssue(loaded.actor, loaded.issue)) throw forbidden();
        assertWritable(loaded.access);
        // updated_at (and created_at) from anyone but administrators and owners is dropped in buildInput.
        const labelIds = loaded.labelIds;
        const { input, known } = await buildInput(kit, ctx, loaded.access, ctx.params, canAdminIssue(loaded.actor), canSetTimestamps(loaded.actor), { labelIds });
        const present = (row: IssueRow | IssueWithLinks, subscribed: boolean) =>
          presentIssues(kit, ctx, [row], { context: { projectId: loaded.access.project.id }, knownProjects: [loaded.access.project], knownRefs: known, subscribed });
        if (isTransitionOnly(loaded.issue, input)) {
          const moved = await kit.events.announced(transitionIssue(kit.db, loaded.issue, input.stateEvent, caller.id, randomUUID()));
          // Its links are untouched: presented as loaded.
          if (moved) return (await present({ ...moved.issue, labelIds: loaded.labelIds, assigneeIds: loaded.assigneeIds, epicId: loaded.epicId, blockingIssuesCount: loaded.blockingIssuesCount }, moved.subscribed))[0];
          // Another request moved it meanwhile, to the state asked for (an issue has two): nothing is left to change.
          const current = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
          return (await present({ ...current.issue, labelIds: current.labelIds, assigneeIds: current.assigneeIds, epicId: current.epicId, blockingIssuesCount: current.blockingIssuesCount }, await isSubscribed(kit.db, current.issue.id, caller.id)))[0];
        }
        const usernames = new Map([...(await userMap(ctx, [...loaded.assigneeIds, ...(input.assigneeIds ?? [])])).values()].map((u) => [u.id, u.username]));
        const { issue, changes } = await kit.events.transact(
          (tx) => updateIssue(tx, loaded.issue, input, { actor: { id: caller.id, username: caller.username }, assigneeIds: loaded.assigneeIds, labelIds, usernames, project: loaded.access.project }),
          ({ issue: updated, changes }) => [
            ...(changes.includes("state") ? [issueEvent(updated.state === "closed" ? Issues.events.issueClosed : Issues.events.issueReopened, updated, caller.id)] : []),
            ...(changes.some((c) => c !== "state")
              ? [
                  announce(Issues.events.issueUpdated, {
                    ...issuePayload(updated, caller.id),
                    changes: changes.filter((c) => c !== "state"),
                    ...todoFacts(loaded, updated, changes, input.assigneeIds),
                    // What the edit changed, before and after, from the row it loaded and wrote (no statement added).
                    change_values: changeValues(
                      issueHookSnapshot(loaded.issue, loaded.labelIds, loaded.assigneeIds),
                      issueHookSnapshot(
                        updated,
                        changes.includes("labels") ? [...new Set(input.labelIds ?? [])] : loaded.labelIds,
                        changes.includes("assignees") ? [...new Set(input.assigneeIds ?? [])] : loaded.assigneeIds,
                      ),
                    ),
                  }),
                ]
              : []),
          ],
        );
        const subscribed = await isSubscribed(kit.db, issue.id, caller.id);
        // Links the write left alone are the ones loaded with the issue: presented without reading them again.
        const row =
          changes.includes("labels") || changes.includes("assignees")
            ? issue
            : { ...issue, labelIds: loaded.labelIds, assigneeIds: loaded.assigneeIds, epicId: changes.includes("epic") ? undefined : loaded.epicId, blockingIssuesCount: loaded.blockingIssuesCount };
        return (await present(row, subscribed))[0];
    },
    { visibility: "published" },
  ),

  "issues.delete": implement(
    Issues.issues.delete,
    async (ctx) => {
        const caller = requireCaller(ctx);
        const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid, () => notFound("Issue"));
        if (!canDestroyIssue(loaded.actor)) throw forbidden();
        assertWritable(loaded.access);
        await kit.events.transact(
          (tx) => deleteIssue(tx, loaded.issue),
          () => [issueEvent(Issues.events.issueDeleted, loaded.issue, caller.id)],
        );
        return null;
    },
    { visibility: "published" },
  ),

  "issues.reorder": implement(
    Issues.issues.reorder,
    async (ctx) => {
        requireCaller(ctx);
        const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid, () => notFound("Issue"));
        if (!canUpdateIssue(loaded.actor, loaded.issue)) throw forbidden();
        assertWritable(loaded.access);
        const issue = await reorderIssue(kit.db, loaded.issue, ctx.params.move_after_id, ctx.params.move_before_id);
        return (await presentIssues(kit, ctx, [issue], { context: { projectId: loaded.access.project.id }, knownProjects: [loaded.access.project] }))[0];
    },
    { visibility: "published" },
  ),

  "issues.move": implement(Issues.issues.move, (ctx) => copyAcross(kit, ctx, "move"), { visibility: "published" }),

  "issues.clone": implement(Issues.issues.clone, (ctx) => copyAcross(kit, ctx, "clone"), { visibility: "published" }),

  "issues.subscribe": implement(
    Issues.issues.subscribe,
    async (ctx) => {
        const caller = requireCaller(ctx);
        const { access, issue } = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
        if (!(await setSubscription(kit.db, issue, caller.id, ctx.params.subscribed))) throw notModified();
        return (await presentIssues(kit, ctx, [issue], { context: { projectId: access.project.id }, knownProjects: [access.project], subscribed: ctx.params.subscribed }))[0];
    },
    { visibility: "published" },
  ),
});

/** Move and clone: same checks and name matching; move also closes the original. */
async function copyAcross(kit: ServiceKit, ctx: Ctx<CloneIssueParams | MoveIssueParams>, mode: "move" | "clone") {
  const caller = requireCaller(ctx);
  const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
  assertWritable(loaded.access);
  const target = await targetProject(ctx, ctx.params.to_project_id);
  const verb = mode === "move" ? "move" : "clone";
  // GitLab's can_move? / can_clone?: admin_issue on both sides (and a moved issue moves no more),
  // checked before the same-project rule.
  const allowed = canAdminIssue(loaded.actor) && target !== null && target.role >= AccessLevel.PLANNER && !(mode === "move" && loaded.issue.movedToId !== null);
  if (!allowed) throw badRequestMessage(`Cannot ${verb} issue due to insufficient permissions!`);
  if (target.project.id === loaded.access.project.id) throw badRequestMessage(`Cannot ${verb} issue to project it originates from!`);

  const [labelIds, assigneeLevels] = await Promise.all([
    kit.db.select({ id: issueLabels.labelId }).from(issueLabels).where(eq(issueLabels.issueId, loaded.issue.id)),
    accessLevels(ctx, target.project.id, loaded.assigneeIds),
  ]);
  const [labels, milestones] = await Promise.all([labelMap(ctx, labelIds.map((l) => l.id)), milestoneMap(ctx, [loaded.issue.milestoneId])]);
  const [targetLabels, targetMilestone] = await Promise.all([
    resolveLabels(ctx, target.project.id, [...labels.values()].map((l) => l.name), false),
    loaded.issue.milestoneId && milestones.get(loaded.issue.milestoneId)
      ? milestoneByTitle(ctx, target.project.id, String(milestones.get(loaded.issue.milestoneId)!.title))
      : Promise.resolve(null),
  ]);
  const plan = {
    targetProjectId: target.project.id,
    labelIds: targetLabels.map((l) => l.id),
    milestoneId: targetMilestone?.id ?? null,
    assigneeIds: loaded.assigneeIds.filter((id) => assigneeLevels[id]?.can_read),
    sourceRef: `${loaded.access.project.path_with_namespace}#${loaded.issue.iid}`,
    targetRefFor: (iid: number) => `${target.project.path_with_namespace}#${iid}`,
  };
  const actor = { id: caller.id, username: caller.username };
  const epic = await epicCarried(kit, ctx, loaded.issue.id, target.project);
  const copy = await kit.events.transact(
    (tx) =>
      mode === "move"
        ? moveIssue(tx, loaded.issue, actor, { ...plan, keepsEpic: epic !== null })
        : cloneIssue(tx, loaded.issue, actor, { ...plan, withNotes: (ctx.params as { with_notes?: boolean }).with_notes ?? false, epic: epic ? { epic, target: target.project } : undefined }),
    (created) => [
      ...(mode === "move" ? [announce(Issues.events.issueMoved, { ...issuePayload(loaded.issue, caller.id), moved_to_id: created.id, to_project_id: target.project.id })] : []),
      issueEvent(Issues.events.issueOpened, created, caller.id),
      ...(mode === "clone" && epic ? [announce(Issues.events.issueUpdated, { ...issuePayload(created, caller.id), changes: ["epic"] })] : []),
    ],
  );
  return (await presentIssues(kit, ctx, [copy], { context: { projectId: target.project.id }, knownProjects: [target.project], subscribed: true }))[0];
}

/**
 * The epic a moved or cloned issue takes along (GitLab's rewrite_epic_issue and add_epic): the
 * original's, when the caller may edit it (admin_epic on its group) and it may hold the target
 * project's issues; else null. Premium and up.
 */
async function epicCarried(kit: ServiceKit, ctx: Ctx<unknown>, issueId: number, target: ProjectAccess["project"]): Promise<EpicRow | null> {
  if (kit.config.LICENSE_TIER === "free") return null;
  const held = await findIssueEpic(kit.db, issueId);
  if (!held || !projectUnderGroup(target, held.epic.groupId)) return null;
  return canAdminEpic({ caller: callerOf(ctx), role: await roleOnGroup(ctx, held.epic.groupId) }) ? held.epic : null;
}
