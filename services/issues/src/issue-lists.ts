import { callerOf, page, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { IssuesStatisticsParams, ListIssuesParams as ListParams } from "@collab/issues-contract";
import { groupOf, orderingValues, ordersByNamespacesValues, readableProjects, resolveListNames, type WorkItemProject } from "@collab/work-items";
import { and, eq, sql } from "drizzle-orm";
import { listParamsForTier } from "./api/issues.params";
import { issueLabels, issues } from "./db/schema";
import { issuesProject } from "./domain/load";
import { presentIssues } from "./domain/presentation";
import type { IssuePresentation } from "./api/issue.entity";
import { countIssuesByState, findIssues, issueConditions, type IssueScope, type ReadableProject, type ResolvedNames } from "./finders/issues.finder";

/** Which list a request reads: GET /issues, a group's (with its subgroups) or a project's. */
export type IssueListRoute = "all" | "group" | "project";

/** Resolves every name-based filter to ids with one bus call per kind. */
async function resolveNames(kit: ServiceKit, ctx: Ctx<unknown>, p: ListParams, projectIds: number[] | null, scope: IssueScope): Promise<ResolvedNames> {
  const titles = [...(Array.isArray(p.labels) ? p.labels : []), ...(p.not?.labels ?? [])];
  const usernames = [p.author_username, p.not?.author_username, ...(p.assignee_username ?? []), ...(p.not?.assignee_username ?? [])].filter((u): u is string => !!u);
  const milestoneTitle = p.milestone !== undefined && !["None", "Any"].includes(p.milestone) ? p.milestone : undefined;
  const notMilestone = p.not?.milestone_id ?? p.not?.milestone;
  const notMilestoneTitle = notMilestone !== undefined && !["None", "Any"].includes(notMilestone) ? notMilestone : undefined;
  const { labelIds, users, milestoneIds, notMilestoneIds } = await resolveListNames(
    ctx,
    {
      labelTitles: titles,
      usernames,
      milestone:
        milestoneTitle !== undefined
          ? { titles: [milestoneTitle] }
          : p.milestone_id === "Upcoming" || p.milestone_id === "Started"
            ? { sentinel: p.milestone_id }
            : undefined,
      notMilestone:
        notMilestoneTitle !== undefined
          ? ["Upcoming", "Started"].includes(notMilestoneTitle)
            ? { sentinel: notMilestoneTitle as "Upcoming" | "Started" }
            : { titles: [notMilestoneTitle] }
          : undefined,
    },
    projectIds,
  );
  const idOf = (u?: string) => (u ? (users.find((x) => x.username.toLowerCase() === u.toLowerCase())?.id ?? null) : undefined);
  const names: ResolvedNames = {
    labelIds,
    milestoneIds,
    notMilestoneIds,
    authorId: idOf(p.author_username),
    notAuthorId: idOf(p.not?.author_username),
    assigneeIds: p.assignee_username?.map(idOf).filter((i): i is number => typeof i === "number"),
    notAssigneeIds: p.not?.assignee_username?.map(idOf).filter((i): i is number => typeof i === "number"),
  };
  if (ordersByNamespacesValues(p.order_by)) await resolveOrdering(kit, ctx, p, scope, names);
  return names;
}

/** Milestone due dates and label priorities of the matching issues, for the cross-service orders. */
async function resolveOrdering(kit: ServiceKit, ctx: Ctx<unknown>, p: ListParams, scope: IssueScope, names: ResolvedNames) {
  const condition = and(...issueConditions(p, scope, names));
  const [ms, ls] = await Promise.all([
    kit.db.selectDistinct({ id: issues.milestoneId }).from(issues).where(and(condition, sql`${issues.milestoneId} IS NOT NULL`)),
    kit.db.selectDistinct({ id: issueLabels.labelId }).from(issueLabels).innerJoin(issues, eq(issues.id, issueLabels.issueId)).where(condition),
  ]);
  Object.assign(names, await orderingValues(ctx, ms.map((m) => m.id), ls.map((l) => l.id)));
}

/**
 * Who and where a list looks: the projects of the route the caller may read (archived ones left out
 * with non_archived), the scope's default, and what references are relative to.
 */
async function listScope(ctx: Ctx<unknown>, route: IssueListRoute, p: ListParams) {
  const caller = callerOf(ctx);
  if (route === "project") {
    const access = await issuesProject(ctx, p.id!);
    const projects: ReadableProject[] = [{ id: access.project.id, access_level: access.role, issues_access_level: access.project.issues_access_level }];
    const context: IssuePresentation["context"] = { projectId: access.project.id };
    return { scope: { caller, projects, defaultScope: "all" } as IssueScope, context, knownProjects: [access.project] as WorkItemProject[] };
  }
  if (route === "group") {
    const group = await groupOf(ctx, p.id!);
    const readable = await readableProjects(ctx, group.group.id);
    const projects = p.non_archived ? readable.projects.filter((pr) => !pr.archived) : readable.projects;
    return { scope: { caller, projects, defaultScope: "all" } as IssueScope, context: { groupPath: group.group.full_path }, knownProjects: undefined };
  }
  const readable = await readableProjects(ctx);
  const projects = readable.all ? null : p.non_archived ? readable.projects.filter((pr) => !pr.archived) : readable.projects;
  return { scope: { caller, projects, defaultScope: "created_by_me" } as IssueScope, context: {}, knownProjects: undefined };
}

/** GET /issues, /groups/:id/issues, /projects/:id/issues: a page of the issues the caller may read. */
export async function listIssues(kit: ServiceKit, ctx: Ctx<ListParams>, route: IssueListRoute) {
  // GET /issues refuses anonymous callers before anything is parsed further.
  if (route === "all" && !callerOf(ctx) && ctx.params.scope !== "all") requireCaller(ctx);
  const p = listParamsForTier(ctx.params, kit.config.LICENSE_TIER);
  const { scope, context, knownProjects } = await listScope(ctx, route, p);
  const names = await resolveNames(kit, ctx, p, scope.projects ? scope.projects.map((pr) => pr.id) : null, scope);
  const { rows, total } = await findIssues(kit.db, p, scope, names);
  const items = await presentIssues(kit, ctx, rows, { context, withLabelsDetails: p.with_labels_details, knownProjects });
  return page(items, total, p);
}

/**
 * The list params of a statistics request: its filters with the list's defaults for the rest.
 * GitLab's statistics do not declare non_archived, so archived projects count.
 */
const asListParams = (p: IssuesStatisticsParams): ListParams => ({
  ...p,
  page: 1,
  per_page: 20,
  state: "all",
  with_labels_details: false,
  order_by: "created_at",
  sort: "desc",
  non_archived: false,
});

/** GET /issues_statistics and the group's and project's: the list's filters, counted by state in one statement. */
export async function issuesStatistics(kit: ServiceKit, ctx: Ctx<IssuesStatisticsParams>, route: IssueListRoute) {
  if (route === "all" && !callerOf(ctx) && ctx.params.scope !== "all") requireCaller(ctx);
  const p = listParamsForTier(asListParams(ctx.params), kit.config.LICENSE_TIER);
  const { scope } = await listScope(ctx, route, p);
  const names = await resolveNames(kit, ctx, p, scope.projects ? scope.projects.map((pr) => pr.id) : null, scope);
  const counts = await countIssuesByState(kit.db, p, scope, names);
  return { statistics: { counts } };
}
