import { AccessLevel, ApiError, announce, callerOf, conflict, featureHidden, forbidden, implement, page, recordNotFound, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Issues, type EpicIssue, type EpicIssueLink, type EpicRefParams } from "@collab/issues-contract";
import { readableProjects, visibleProjectOrNull } from "@collab/work-items";
import { eq } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { issues, type EpicIssueRow, type IssueRow } from "../db/schema";
import { issuePayload } from "../domain/events";
import { presentIssues } from "../domain/presentation";
import { canReadIssue } from "../domain/permissions";
import { findIssueWithLinks, type IssueScope } from "../finders/issues.finder";
import { loadEpic, presentOne, requireEpicsTier, type Group } from "./epic-load";
import { checkEpicConfidentiality, epicMayHold, moveEpicIssue, removeEpicIssue, setIssueEpic } from "./epic-issues";
import { findEpicIssue, findEpicIssues, findIssueEpic } from "./epic-issues.finder";
import { issueBasic } from "../api/issue.entity";

/** GitLab's answer when the issue named is none this epic may hold (IssuableLinks' not found). */
const noMatchingIssue = () => new ApiError(404, { message: "No matching issue found. Make sure that you are adding a valid issue URL." }, "NOT_FOUND");
/** A move_before_id or move_after_id that is no association of this epic (EpicIssues::UpdateService). */
const noSuchNeighbour = () => new ApiError(404, { message: "Epic issue not found for given params" }, "NOT_FOUND");

/** The epic of the route for a signed-in caller who may read it (GitLab: authenticate!, then read_epic: 403). */
async function epicForCaller(kit: ServiceKit, ctx: Ctx<EpicRefParams>) {
  requireEpicsTier(kit);
  const caller = requireCaller(ctx);
  return { caller, ...(await loadEpic(kit, ctx, ctx.params.id, ctx.params.epic_iid)) };
}

/**
 * An issue whose epic the caller may set (GitLab's admin_issue_relation: Guests and up of its
 * project who may read it); 404 for an id no issue has, 403 for one they may not relate.
 */
async function issueForRelation(kit: ServiceKit, ctx: Ctx<unknown>, issueId: number) {
  const [row] = await kit.db.select({ projectId: issues.projectId, iid: issues.iid }).from(issues).where(eq(issues.id, issueId));
  if (!row) throw recordNotFound();
  const access = await visibleProjectOrNull(ctx, row.projectId);
  const found = access && !featureHidden(access.project.issues_access_level, access.role) ? await findIssueWithLinks(kit.db, row.projectId, row.iid) : undefined;
  if (!access || !found) throw forbidden();
  const caller = callerOf(ctx);
  const actor = { caller, role: access.role, assigned: caller !== null && found.assigneeIds.includes(caller.id) };
  if (access.role < AccessLevel.GUEST || !canReadIssue(actor, found.issue)) throw forbidden();
  return { issue: found.issue, project: access.project };
}

/** A page of the epic's issues the caller may read, in the epic's order (GitLab's EpicIssue entity). */
async function epicIssuesPage(kit: ServiceKit, ctx: Ctx<unknown>, group: Group, epicId: number, p: { page: number; per_page: number }) {
  const readable = await readableProjects(ctx, group.group.id);
  const scope: IssueScope = { caller: callerOf(ctx), projects: readable.all ? null : readable.projects, defaultScope: "all" };
  const { rows, total } = await findEpicIssues(kit.db, epicId, scope, p);
  const presented = await presentIssues(kit, ctx, rows, { context: { groupPath: group.group.full_path } });
  const items: EpicIssue[] = presented.map((issue, i) => ({ ...issue, epic_issue_id: rows[i].epicIssueId, relative_position: rows[i].epicIssuePosition }));
  return page(items, total, p);
}

/** An association as GitLab's EpicIssueLink: its id and place, the epic, the issue (IssueBasic). */
async function presentLink(kit: ServiceKit, ctx: Ctx<unknown>, loaded: Awaited<ReturnType<typeof loadEpic>>, link: EpicIssueRow, issue: IssueRow): Promise<EpicIssueLink> {
  const [epic, [presented]] = await Promise.all([
    presentOne(kit, ctx, loaded.group, loaded.epic),
    // IssueBasic shows no epic: none is looked up.
    presentIssues(kit, ctx, [issue], { context: { groupPath: loaded.group.group.full_path }, knownEpics: new Map() }),
  ]);
  return { id: link.id, relative_position: link.relativePosition, epic, issue: issueBasic(presented) };
}

/** The issue's `updated` event for a change of its epic. */
const epicChanged = (issue: IssueRow, actorId: number) => announce(Issues.events.issueUpdated, { ...issuePayload(issue, actorId), changes: ["epic"] });

export const epicIssuesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "epicIssues.list": implement(
    Issues.epicIssues.list,
    async (ctx) => {
      const { group, epic } = await epicForCaller(kit, ctx);
      return epicIssuesPage(kit, ctx, group, epic.id, ctx.params);
    },
    { visibility: "published" },
  ),

  "epicIssues.assign": implement(
    Issues.epicIssues.assign,
    async (ctx) => {
      const loaded = await epicForCaller(kit, ctx);
      const { issue, project } = await issueForRelation(kit, ctx, ctx.params.issue_id);
      if ((await findIssueEpic(kit.db, issue.id))?.link.epicId === loaded.epic.id) throw conflict("Issue(s) already assigned");
      // The epic holds issues (not test cases or tasks) of its group and the groups below it only.
      if (!epicMayHold(loaded.epic.groupId, issue, project)) throw noMatchingIssue();
      checkEpicConfidentiality(loaded.epic, issue);
      const { link } = await kit.events.transact(
        (tx) => setIssueEpic(tx, issue, loaded.epic, loaded.caller.id, project),
        (change) => (change.changed ? [epicChanged(issue, loaded.caller.id)] : []),
      );
      return presentLink(kit, ctx, loaded, link!, issue);
    },
    { visibility: "published" },
  ),

  "epicIssues.reorder": implement(
    Issues.epicIssues.reorder,
    async (ctx) => {
      const { group, epic } = await epicForCaller(kit, ctx);
      const link = await findEpicIssue(kit.db, epic.id, ctx.params.epic_issue_id);
      if (!link) throw recordNotFound();
      await issueForRelation(kit, ctx, link.issueId);
      const neighbour = async (id: number | undefined) => {
        if (id === undefined) return undefined;
        const found = await findEpicIssue(kit.db, epic.id, id);
        if (!found) throw noSuchNeighbour();
        return found;
      };
      const [before, after] = await Promise.all([neighbour(ctx.params.move_before_id), neighbour(ctx.params.move_after_id)]);
      await kit.db.transaction((tx) => moveEpicIssue(tx, link, before, after));
      return epicIssuesPage(kit, ctx, group, epic.id, ctx.params);
    },
    { visibility: "published" },
  ),

  "epicIssues.remove": implement(
    Issues.epicIssues.remove,
    async (ctx) => {
      const loaded = await epicForCaller(kit, ctx);
      const link = await findEpicIssue(kit.db, loaded.epic.id, ctx.params.epic_issue_id);
      if (!link) throw recordNotFound();
      const { issue, project } = await issueForRelation(kit, ctx, link.issueId);
      const answer = await presentLink(kit, ctx, loaded, link, issue);
      await kit.events.transact(
        (tx) => removeEpicIssue(tx, link, issue, loaded.epic, loaded.caller.id, project),
        () => [epicChanged(issue, loaded.caller.id)],
      );
      return answer;
    },
    { visibility: "published" },
  ),
});
