import { AccessLevel, ApiError, actionsOf, announce, callerOf, conflict, errorBodyOf, featureHidden, forbidden, implement, paramError, recordNotFound, requireCaller, unprocessable, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Issues, type IssueLink, type RelatedIssue } from "@collab/issues-contract";
import { assertWritable, authorizeProject, type ProjectAccess } from "@collab/work-items";
import type { ActionSchema } from "moleculer";
import type { IssueLinkRow, IssueRow } from "../db/schema";
import { issueBasic } from "../api/issue.entity";
import { loadIssue, type LoadedIssue } from "../domain/load";
import { canReadIssue, type IssueActor } from "../domain/permissions";
import { presentIssues } from "../domain/presentation";
import { findIssueWithLinks } from "../finders/issues.finder";
import { linkIssues, unlinkIssues, type LinkRefs } from "./issue-links";
import { findLinkBetween, findLinkOf, findLinkedIssues, linkCounts } from "./issue-links.finder";

/** GitLab's IssuableLink::MAX_LINKS_COUNT: no issue holds more links. */
export const MAX_LINKS = 100;

type Project = ProjectAccess["project"];

/** GitLab's admin_issue_link: Guests and up of the issue's project who may read it. */
const canAdminIssueLink = (actor: IssueActor, issue: IssueRow) => actor.caller !== null && actor.role >= AccessLevel.GUEST && canReadIssue(actor, issue);

/** IssueLinks::CreateService's answer when the caller may read the target but not link it. */
const cannotLink = () => new ApiError(403, { message: "Couldn't link issues. You must have at least the Guest role in both projects." }, "FORBIDDEN");
/** IssuableLinks::DestroyService's answer when the caller may not unlink both sides. */
const noSuchLink = () => new ApiError(404, { message: "No Issue Link found" }, "NOT_FOUND");

/** The caller's access to a project, or null when they may not reach its issues. */
async function issuesAccessOrNull(ctx: Ctx<unknown>, projectId: number): Promise<ProjectAccess | null> {
  try {
    const access = await authorizeProject(ctx, projectId);
    return featureHidden(access.project.issues_access_level, access.role) ? null : access;
  } catch (err) {
    const status = errorBodyOf(err)?.status;
    if (status === 404 || status === 403) return null;
    throw err;
  }
}

/** The caller's standing on an issue of a project they reach, its assignees given. */
function actorOn(ctx: Ctx<unknown>, access: ProjectAccess, assigneeIds: number[]): IssueActor {
  const caller = callerOf(ctx);
  return { caller, role: access.role, assigned: caller !== null && assigneeIds.includes(caller.id) };
}

/** The other issue of a link as the caller may see it (null when hidden), with its standing. */
async function otherSide(kit: ServiceKit, ctx: Ctx<unknown>, loaded: LoadedIssue, other: IssueRow) {
  const access = other.projectId === loaded.access.project.id ? loaded.access : await issuesAccessOrNull(ctx, other.projectId);
  const found = access && (await findIssueWithLinks(kit.db, other.projectId, other.iid));
  if (!access || !found) return null;
  const actor = actorOn(ctx, access, found.assigneeIds);
  return canReadIssue(actor, found.issue) ? { access, actor, issue: found.issue } : null;
}

/** How an issue is named from another project's issue: `#iid` at home, `path#iid` elsewhere (to_reference). */
const refFrom = (issue: IssueRow, project: Project, from: Project) => (project.id === from.id ? `#${issue.iid}` : `${project.path_with_namespace}#${issue.iid}`);

const linkRefs = (source: IssueRow, sourceProject: Project, target: IssueRow, targetProject: Project): LinkRefs => ({
  target: refFrom(target, targetProject, sourceProject),
  source: refFrom(source, sourceProject, targetProject),
});

/** A link as GitLab's IssueLink entity: both sides as IssueBasic, as read from the route's project. */
async function presentLink(kit: ServiceKit, ctx: Ctx<unknown>, link: IssueLinkRow, source: IssueRow, target: IssueRow, projects: Project[]): Promise<IssueLink> {
  const context = { projectId: projects[0].id };
  // IssueBasic shows no epic: none is looked up.
  const [s, t] = await presentIssues(kit, ctx, [source, target], { context, knownProjects: projects, knownEpics: new Map() });
  return { source_issue: issueBasic(s), target_issue: issueBasic(t), link_type: link.linkType };
}

const linkPayload = (link: IssueLinkRow, actorId: number) => ({
  id: link.id,
  source_issue_id: link.sourceId,
  target_issue_id: link.targetId,
  link_type: link.linkType as "relates_to" | "blocks",
  actor_id: actorId,
});

const PUBLISHED = { visibility: "published" } as const;

/** GitLab's issue links API (lib/api/issue_links.rb): every route needs a signed-in caller. */
export const issueLinksActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("issues", [
    /** The linked issues the caller may read, oldest link first, each with the link as seen from this issue. */
    implement(Issues.issueLinks.list, async (ctx) => {
      requireCaller(ctx);
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const rows = await findLinkedIssues(kit.db, loaded.issue.id);
      // One access check per other project (held per request by the access cache), none per issue.
      const projectIds = [...new Set(rows.map((r) => r.projectId))].filter((id) => id !== loaded.access.project.id);
      const accesses = new Map<number, ProjectAccess | null>([[loaded.access.project.id, loaded.access]]);
      await Promise.all(projectIds.map(async (id) => accesses.set(id, await issuesAccessOrNull(ctx, id))));
      const readable = rows.filter((r) => {
        const access = accesses.get(r.projectId);
        return access ? canReadIssue(actorOn(ctx, access, r.assigneeIds), r) : false;
      });
      const projects = [...accesses.values()].filter((a): a is ProjectAccess => a !== null).map((a) => a.project);
      const presented = await presentIssues(kit, ctx, readable, { context: { projectId: loaded.access.project.id }, knownProjects: projects });
      return presented.map(
        (issue, i): RelatedIssue => ({
          ...issue,
          issue_link_id: readable[i].issueLinkId,
          link_type: readable[i].linkType,
          link_created_at: readable[i].linkCreatedAt.toISOString(),
          link_updated_at: readable[i].linkUpdatedAt.toISOString(),
        }),
      );
    }, PUBLISHED),

    /**
     * Links the route's issue to target_project_id's target_issue_iid, in GitLab's order of checks:
     * both issues found (404), the pair not linked yet (409), the target linkable (403), not itself (422).
     */
    implement(Issues.issueLinks.create, async (ctx) => {
      const caller = requireCaller(ctx);
      const { link_type: type } = ctx.params;
      // blocks and is_blocked_by are Premium (blocked_issues): the free tier's API does not declare them.
      if (kit.config.LICENSE_TIER === "free" && type !== "relates_to") throw paramError("link_type does not have a valid value");
      const source = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      if (!canAdminIssueLink(source.actor, source.issue)) throw forbidden();
      assertWritable(source.access);
      const target = await loadIssue(kit, ctx, ctx.params.target_project_id, ctx.params.target_issue_iid);
      if (await findLinkBetween(kit.db, source.issue.id, target.issue.id)) throw conflict("Issue(s) already assigned");
      if (!canAdminIssueLink(target.actor, target.issue)) throw cannotLink();
      if (target.issue.id === source.issue.id) throw unprocessable(`#${target.issue.iid} cannot be added: cannot be related to itself`);
      const counts = await linkCounts(kit.db, [source.issue.id, target.issue.id]);
      if ((counts.get(source.issue.id) ?? 0) >= MAX_LINKS || (counts.get(target.issue.id) ?? 0) >= MAX_LINKS)
        throw unprocessable(`#${target.issue.iid} cannot be added: This issue would exceed the maximum number of linked issues (${MAX_LINKS}).`);
      const refs = linkRefs(source.issue, source.access.project, target.issue, target.access.project);
      const link = await kit.events.transact(
        (tx) => linkIssues(tx, source.issue, target.issue, type, caller.id, refs),
        (row) => (row ? [announce(Issues.events.issueLinkCreated, linkPayload(row, caller.id))] : []),
      );
      if (!link) throw conflict("Issue(s) already assigned");
      const [from, to] = link.sourceId === source.issue.id ? [source.issue, target.issue] : [target.issue, source.issue];
      return presentLink(kit, ctx, link, from, to, [source.access.project, target.access.project]);
    }, PUBLISHED),

    /** A link of the route's issue whose other side the caller may read (404 otherwise). */
    implement(Issues.issueLinks.get, async (ctx) => {
      requireCaller(ctx);
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const found = await findLinkOf(kit.db, loaded.issue.id, ctx.params.issue_link_id);
      if (!found) throw recordNotFound();
      const other = await otherSide(kit, ctx, loaded, found.source.id === loaded.issue.id ? found.target : found.source);
      if (!other) throw recordNotFound();
      return presentLink(kit, ctx, found.link, found.source, found.target, [loaded.access.project, other.access.project]);
    }, PUBLISHED),

    /** Removes a link when the caller may link on both sides (GitLab's DestroyService); answers it as it was. */
    implement(Issues.issueLinks.remove, async (ctx) => {
      const caller = requireCaller(ctx);
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const found = await findLinkOf(kit.db, loaded.issue.id, ctx.params.issue_link_id);
      if (!found) throw recordNotFound();
      const other = await otherSide(kit, ctx, loaded, found.source.id === loaded.issue.id ? found.target : found.source);
      if (!other) throw recordNotFound();
      if (!canAdminIssueLink(loaded.actor, loaded.issue) || !canAdminIssueLink(other.actor, other.issue)) throw noSuchLink();
      assertWritable(loaded.access);
      const { source, target } = found;
      const [sourceProject, targetProject] = source.id === loaded.issue.id ? [loaded.access.project, other.access.project] : [other.access.project, loaded.access.project];
      const gone = await kit.events.transact(
        (tx) => unlinkIssues(tx, found.link, source, target, caller.id, linkRefs(source, sourceProject, target, targetProject)),
        (row) => (row ? [announce(Issues.events.issueLinkDeleted, linkPayload(row, caller.id))] : []),
      );
      if (!gone) throw recordNotFound();
      return presentLink(kit, ctx, found.link, source, target, [loaded.access.project, other.access.project]);
    }, PUBLISHED),
  ]);
