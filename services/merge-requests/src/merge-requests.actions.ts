import { AccessLevel, callerOf, changeValues, forbidden, implement, notModified, page, requireCaller, unprocessable, type Ctx, announce } from "@collab/core";
import { accessLevels, assertWritable, groupOf, readableProjects, setSubscription, subscriptionOf, userMap, type ProjectAccess } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { and, eq, inArray, ne } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { mergeRequestAssignees, mergeRequestLabels, mergeRequestReviewers, mergeRequests, subscriptions, type MergeRequestRow } from "./db/schema";
import { findReviewers } from "./merge-requests/reviewers";
import { loadMergeRequest, mergeRequestsProject } from "./domain/load";
import { canAdminMergeRequest, canCreateMergeRequest, canDestroyMergeRequest, canUpdateMergeRequest } from "./domain/permissions";
import { gitStateColumns, gitStates, mergeAccessLevel, writeMergeRequestRefs } from "./merge-requests/branches";
import { gitStateOf, type MergeRequestDetail, type MergeRequestPresentation } from "./merge-requests/entity";
import type { MergeRequestGitState } from "@collab/repositories-contract";
import { findMergeRequests, mergeRequestLinks, readableMergeRequestConditions, type MergeRequestScope } from "./merge-requests/finder";
import { mergeRequestHookSnapshot, presentMergeRequestHookAttrs } from "./merge-requests/hook-attrs";
import { buildInput } from "./merge-requests/input";
import { resolveNames } from "./merge-requests/names";
import { listParamsForTier } from "./merge-requests/params";
import { presentMergeRequests } from "./merge-requests/presentation";
import { createMergeRequest, deleteMergeRequest, updateMergeRequest } from "./merge-requests/writes";
import { MergeRequests, type ListMergeRequestsParams } from "@collab/merge-requests-contract";
import { eventPayload, mergeRequestEvent, openedEvent, todoFacts } from "./merge-requests/events";
import { mergeAction } from "./merge-requests/merge";
import { codeActions } from "./merge-requests/code.actions";

async function linkIds(kit: ServiceKit, id: number) {
  const [labels, assignees, reviewers] = await Promise.all([
    kit.db.select({ id: mergeRequestLabels.labelId }).from(mergeRequestLabels).where(eq(mergeRequestLabels.mergeRequestId, id)),
    kit.db.select({ id: mergeRequestAssignees.userId }).from(mergeRequestAssignees).where(eq(mergeRequestAssignees.mergeRequestId, id)),
    kit.db.select({ id: mergeRequestReviewers.userId }).from(mergeRequestReviewers).where(eq(mergeRequestReviewers.mergeRequestId, id)),
  ]);
  return { labelIds: labels.map((r) => r.id), assigneeIds: assignees.map((r) => r.id), reviewerIds: reviewers.map((r) => r.id) };
}

/**
 * Whether the user follows the merge request (GitLab's Subscribable#subscribed?): their explicit
 * choice, else whether they take part in it (author, assignee, reviewer).
 */
async function subscribedTo(kit: ServiceKit, mr: MergeRequestRow, userId: number | undefined, assigneeIds: number[], reviewerIds: number[]): Promise<boolean> {
  if (userId === undefined) return false;
  const chosen = await subscriptionOf(kit.db, subscriptions, { type: "MergeRequest", id: mr.id }, userId);
  return chosen ?? (userId === mr.authorId || assigneeIds.includes(userId) || reviewerIds.includes(userId));
}

/** The access level a caller needs to merge into the target branch: Developer at least. */
async function canMerge(ctx: Ctx<unknown>, access: ProjectAccess, role: number, targetBranch: string): Promise<boolean> {
  if (!callerOf(ctx) || role < AccessLevel.DEVELOPER) return false;
  return role >= (await mergeAccessLevel(ctx, access.project.id, targetBranch));
}

/** The detail fields of one merge request: who may merge, diff refs, first contribution. */
function detailOf(kit: ServiceKit, ctx: Ctx<unknown>, loaded: { access: ProjectAccess; role: number }, mr: MergeRequestRow, assigneeIds: number[] = []) {
  return async (p: MergeRequestPresentation): Promise<MergeRequestDetail> => {
    const caller = callerOf(ctx);
    const [can, authorLevel, [earlier]] = await Promise.all([
      canMerge(ctx, loaded.access, loaded.role, mr.targetBranch),
      accessLevels(ctx, mr.projectId, [mr.authorId]),
      kit.db
        .select({ id: mergeRequests.id })
        .from(mergeRequests)
        .where(and(eq(mergeRequests.projectId, mr.projectId), eq(mergeRequests.authorId, mr.authorId), eq(mergeRequests.state, "merged"), ne(mergeRequests.id, mr.id)))
        .limit(1),
    ]);
    const git = gitStateOf(mr, p.live);
    return {
      subscribed: await subscribedTo(kit, mr, caller?.id, assigneeIds, p.reviewerIds.get(mr.id) ?? []),
      changesCount: git.changesCount ?? "0",
      diffRefs: { base_sha: git.baseSha ?? null, head_sha: git.sha ?? null, start_sha: git.startSha ?? null },
      mergeError: mr.mergeError,
      firstContribution: (authorLevel[mr.authorId]?.access_level ?? 0) <= AccessLevel.GUEST && !earlier,
      canMerge: can,
    };
  };
}

/**
 * One merge request as GitLab's MergeRequest entity. An open one shows its git state read now
 * (one repository call, unless the caller just read it: `live`); others their stored state.
 */
async function presentOne(kit: ServiceKit, ctx: Ctx<unknown>, loaded: { access: ProjectAccess; role: number }, mr: MergeRequestRow, live?: MergeRequestGitState) {
  const [{ assigneeIds }, state] = await Promise.all([
    linkIds(kit, mr.id),
    live ?? (mr.state === "opened" ? gitStates(ctx, mr.projectId, [{ source_branch: mr.sourceBranch, target_branch: mr.targetBranch }]).then(([s]) => s) : undefined),
  ]);
  const [item] = await presentMergeRequests(kit, ctx, [mr], {
    context: { projectId: loaded.access.project.id },
    knownProjects: [loaded.access.project],
    live: state ? new Map([[mr.id, state]]) : undefined,
    detail: detailOf(kit, ctx, loaded, mr, assigneeIds),
  });
  return item;
}

type ListContract = typeof MergeRequests.mergeRequests.listAll | typeof MergeRequests.mergeRequests.listGroup | typeof MergeRequests.mergeRequests.listProject;

function listAction(
  kit: ServiceKit,
  contract: ListContract,
  scopeOf: (ctx: Ctx<ListMergeRequestsParams>, p: ListMergeRequestsParams) => Promise<{ scope: MergeRequestScope; context: MergeRequestPresentation["context"]; projectIds: number[] | null; known?: ProjectAccess["project"][] }>,
) {
  return implement(
    contract,
    async (ctx) => {
      const p = listParamsForTier(ctx.params, kit.config.LICENSE_TIER);
      const { scope, context, projectIds, known } = await scopeOf(ctx, p);
      const names = await resolveNames(kit, ctx, p, projectIds, scope);
      const { rows, total } = await findMergeRequests(kit.db, p, scope, names);
      const items = await presentMergeRequests(kit, ctx, rows, { context, withLabelsDetails: p.with_labels_details, simple: p.view === "simple", knownProjects: known });
      return page(items, total, p);
    },
    { visibility: "published" },
  );
}

/** The git state of a create's branches, refused as GitLab's BuildService when one is missing (422, on `base`). */
async function checkedGitState(ctx: Ctx<unknown>, projectId: number, source: string, target: string): Promise<MergeRequestGitState> {
  const [state] = await gitStates(ctx, projectId, [{ source_branch: source, target_branch: target }]);
  if (!state.source_sha) throw unprocessable([`Source branch "${source}" does not exist`]);
  if (!state.target_sha) throw unprocessable([`Target branch "${target}" does not exist`]);
  return state;
}

const warnRefs = (kit: ServiceKit) => (err: Error) => kit.logger.warn({ err: err.message }, "writing a merge request's refs failed");

export const mergeRequestsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "mergeRequests.listProject": listAction(kit, MergeRequests.mergeRequests.listProject, async (ctx, p) => {
    const { access } = await mergeRequestsProject(ctx, p.id!);
    const projects = [{ id: access.project.id, access_level: access.role, visibility: access.project.visibility, merge_requests_access_level: access.project.merge_requests_access_level }];
    return { scope: { caller: callerOf(ctx), projects, defaultScope: "all" }, context: { projectId: access.project.id }, projectIds: [access.project.id], known: [access.project] };
  }),

  "mergeRequests.listGroup": listAction(kit, MergeRequests.mergeRequests.listGroup, async (ctx, p) => {
    const group = await groupOf(ctx, p.id!);
    const readable = await readableProjects(ctx, group.group.id);
    const projects = p.non_archived ? readable.projects.filter((pr) => !pr.archived) : readable.projects;
    return { scope: { caller: callerOf(ctx), projects, defaultScope: "all" }, context: { groupPath: group.group.full_path }, projectIds: projects.map((pr) => pr.id) };
  }),

  "mergeRequests.listAll": listAction(kit, MergeRequests.mergeRequests.listAll, async (ctx, p) => {
    const caller = callerOf(ctx);
    // Anonymous callers only list with scope=all, as GitLab's authenticate_non_get! for other scopes.
    if (!caller && p.scope !== "all") requireCaller(ctx);
    const readable = await readableProjects(ctx);
    const projects = readable.all ? null : readable.projects;
    return { scope: { caller, projects, defaultScope: "created_by_me" }, context: {}, projectIds: projects ? projects.map((pr) => pr.id) : null };
  }),

  "mergeRequests.byIds": implement(MergeRequests.mergeRequests.byIds, async (ctx) => {
    const ids = [...new Set(ctx.params.ids)];
    if (!ids.length) return [];
    const readable = await readableProjects(ctx);
    const scope: MergeRequestScope = { caller: callerOf(ctx), projects: readable.all ? null : readable.projects, defaultScope: "all" };
    const rows = await kit.db.select().from(mergeRequests).where(and(inArray(mergeRequests.id, ids), ...readableMergeRequestConditions(scope)));
    return presentMergeRequests(kit, ctx, rows, { context: {} });
  }),

  /** Bus only (webhooks): the merge requests as hook data shows them, with their label, assignee and reviewer ids. */
  "mergeRequests.hookAttrs": implement(MergeRequests.mergeRequests.hookAttrs, async (ctx) => {
    const ids = [...new Set(ctx.params.ids)];
    if (!ids.length) return [];
    const [rows, links] = await Promise.all([kit.db.select().from(mergeRequests).where(inArray(mergeRequests.id, ids)), mergeRequestLinks(kit.db, ids)]);
    return rows.map((m) =>
      presentMergeRequestHookAttrs(m, { labelIds: links.labelIds.get(m.id) ?? [], assigneeIds: links.assigneeIds.get(m.id) ?? [], reviewerIds: links.reviewerIds.get(m.id) ?? [] }),
    );
  }),

  "mergeRequests.subscribe": implement(
    MergeRequests.mergeRequests.subscribe,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const loaded = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const mr = loaded.mergeRequest;
      const { assigneeIds, reviewerIds } = await linkIds(kit, mr.id);
      const current = await subscribedTo(kit, mr, caller.id, assigneeIds, reviewerIds);
      if (!(await setSubscription(kit.db, subscriptions, { type: "MergeRequest", id: mr.id }, caller.id, ctx.params.subscribed, current))) throw notModified();
      return presentOne(kit, ctx, { access: loaded.access, role: loaded.actor.role }, mr);
    },
    { visibility: "published" },
  ),

  "mergeRequests.reviewers": implement(
    MergeRequests.mergeRequests.reviewers,
    async (ctx) => {
      const { mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const rows = await findReviewers(kit.db, mergeRequest.id);
      const users = await userMap(ctx, rows.map((r) => r.userId));
      return rows.flatMap((r) => {
        const user = users.get(r.userId);
        return user ? [{ user, state: r.state, created_at: r.createdAt.toISOString() }] : [];
      });
    },
    { visibility: "published" },
  ),

  "mergeRequests.get": implement(
    MergeRequests.mergeRequests.get,
    async (ctx) => {
      const loaded = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      return presentOne(kit, ctx, { access: loaded.access, role: loaded.actor.role }, loaded.mergeRequest);
    },
    { visibility: "published" },
  ),

  "mergeRequests.create": implement(
    MergeRequests.mergeRequests.create,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { access, actor } = await mergeRequestsProject(ctx, ctx.params.id);
      if (!canCreateMergeRequest(actor)) throw forbidden();
      assertWritable(access);
      const p = ctx.params;
      if (p.target_project_id !== undefined && p.target_project_id !== access.project.id) throw unprocessable(["Source project is not a fork of the target project"]);
      if (p.source_branch === p.target_branch) throw unprocessable(["You can't use same project/branch for source and target"]);
      const state = await checkedGitState(ctx, access.project.id, p.source_branch, p.target_branch);
      const input = await buildInput(kit, ctx, access, p, canAdminMergeRequest(actor));
      if (input.squash === undefined && access.project.squash_option) input.squash = ["always", "default_on"].includes(access.project.squash_option);
      const mr = await kit.events.transact(
        (tx) => createMergeRequest(tx, access.project.id, caller, { sourceBranch: p.source_branch, targetBranch: p.target_branch, git: gitStateColumns(state), input }),
        (created) => [openedEvent(created, caller.id, input)],
      );
      await writeMergeRequestRefs(ctx, mr.projectId, [{ iid: mr.iid, state }], warnRefs(kit));
      return presentOne(kit, ctx, { access, role: actor.role }, mr, state);
    },
    { visibility: "published" },
  ),

  "mergeRequests.update": implement(
    MergeRequests.mergeRequests.update,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const loaded = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const mr = loaded.mergeRequest;
      if (!canUpdateMergeRequest(loaded.actor, mr)) throw forbidden();
      assertWritable(loaded.access);
      const links = await linkIds(kit, mr.id);
      const input = await buildInput(kit, ctx, loaded.access, ctx.params, canAdminMergeRequest(loaded.actor), links);
      let retarget: MergeRequestGitState | undefined;
      if (input.targetBranch !== undefined && input.targetBranch !== mr.targetBranch) {
        if (input.targetBranch === mr.sourceBranch) throw unprocessable(["You can't use same project/branch for source and target"]);
        [retarget] = await gitStates(ctx, mr.projectId, [{ source_branch: mr.sourceBranch, target_branch: input.targetBranch }]);
        if (!retarget.target_sha) throw unprocessable([`Target branch "${input.targetBranch}" does not exist`]);
      }
      const users = input.assigneeIds || input.reviewerIds ? await userMap(ctx, [...links.assigneeIds, ...links.reviewerIds, ...(input.assigneeIds ?? []), ...(input.reviewerIds ?? [])]) : new Map<number, { id: number; username: string }>();
      const { mergeRequest } = await kit.events.transact(
        (tx) =>
          updateMergeRequest(tx, mr, input, {
            actor: caller,
            git: retarget && gitStateColumns(retarget),
            ...links,
            usernames: new Map([...users.values()].map((u) => [u.id, u.username])),
          }),
        ({ mergeRequest: updated, changes }) => [
          ...(changes.includes("state") ? [mergeRequestEvent(updated.state === "closed" ? MergeRequests.events.mergeRequestClosed : MergeRequests.events.mergeRequestReopened, updated, caller.id)] : []),
          ...(changes.some((c) => c !== "state")
            ? [
                announce(MergeRequests.events.mergeRequestUpdated, {
                  ...eventPayload(updated, caller.id),
                  changes: changes.filter((c) => c !== "state"),
                  ...todoFacts(mr, updated, changes, links, input),
                  // What the edit changed, before and after, from the rows it loaded and wrote (no statement added).
                  change_values: changeValues(
                    mergeRequestHookSnapshot(mr, links),
                    mergeRequestHookSnapshot(updated, {
                      labelIds: changes.includes("labels") ? [...new Set(input.labelIds ?? [])] : links.labelIds,
                      assigneeIds: changes.includes("assignees") ? [...new Set(input.assigneeIds ?? [])] : links.assigneeIds,
                      reviewerIds: changes.includes("reviewers") ? [...new Set(input.reviewerIds ?? [])] : links.reviewerIds,
                    }),
                  ),
                }),
              ]
            : []),
        ],
      );
      if (retarget && mergeRequest.targetBranch === input.targetBranch) await writeMergeRequestRefs(ctx, mr.projectId, [{ iid: mr.iid, state: retarget }], warnRefs(kit));
      return presentOne(kit, ctx, { access: loaded.access, role: loaded.actor.role }, mergeRequest);
    },
    { visibility: "published" },
  ),

  "mergeRequests.delete": implement(
    MergeRequests.mergeRequests.delete,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const loaded = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      if (!canDestroyMergeRequest(loaded.actor)) throw forbidden();
      assertWritable(loaded.access);
      await kit.events.transact(
        (tx) => deleteMergeRequest(tx, loaded.mergeRequest),
        () => [mergeRequestEvent(MergeRequests.events.mergeRequestDeleted, loaded.mergeRequest, caller.id)],
      );
      return null;
    },
    { visibility: "published" },
  ),

  "mergeRequests.merge": mergeAction(kit, { canMerge, presentOne }),
  ...codeActions(kit, presentOne),
});

