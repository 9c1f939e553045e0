import { errorBodyOf, forbidden } from "../errors";
import type { Ctx } from "../meta";
import type { UserRef } from "../presenters";

/**
 * Bus clients for what the work-item services (issues, merge requests) ask accounts and
 * namespaces. Each call is batch-shaped: one call per request or page, never one per row.
 */

export interface ProjectSummary {
  id: number;
  path_with_namespace: string;
  namespace_id: number;
  group_ids: number[];
  web_url: string;
}

export interface LabelDetail {
  id: number;
  name: string;
  color: string;
  text_color: string;
  description: string | null;
  description_html: string | null;
  /** The label's priority (for ordering only; not part of the LabelBasic an item embeds). */
  priority?: number | null;
}

/** LabelBasic, as issues and merge requests embed it with with_labels_details. */
export const labelBasic = (l: LabelDetail) => ({ id: l.id, name: l.name, color: l.color, text_color: l.text_color, description: l.description, description_html: l.description_html });

export interface ProjectAccess {
  project: ProjectSummary & {
    name: string;
    visibility: string;
    archived: boolean;
    default_branch: string | null;
    issues_access_level: string;
    merge_requests_access_level: string;
    namespace_full_path: string;
    repository_read_only?: boolean;
    /** Merge request settings (namespaces' projects). */
    only_allow_merge_if_all_discussions_are_resolved?: boolean;
    remove_source_branch_after_merge?: boolean;
    squash_option?: string;
  };
  access_level: number;
  /** Effective role: 60 for administrators. */
  role: number;
}

/** A project of a list's scope with the caller's level on it (namespaces.projects.readable). */
export interface ReadableProjectRef {
  id: number;
  access_level: number;
  issues_access_level: string;
  merge_requests_access_level: string;
  visibility: string;
  archived?: boolean;
}

/**
 * The project as the caller may read it (404 otherwise). With `issueInput`, an issue write's input
 * is checked in the same call (answered as `issue_input` when the caller may reach the issues).
 */
export const authorizeProject = (ctx: Ctx<unknown>, ref: string | number, issueInput?: WorkItemInputRequest) =>
  issueInput
    ? ctx.call<ProjectAccess & { issue_input?: WorkItemInputAnswer }, { project: string | number; issue_input: WorkItemInputRequest }>("namespaces.workItems.authorizeIssueWrite", { project: ref, issue_input: issueInput })
    : ctx.call<ProjectAccess & { issue_input?: WorkItemInputAnswer }, { project: string | number }>("namespaces.access.project", { project: ref });

/**
 * A project by id as the caller sees it, or null when it exists but is hidden from them;
 * 404 Project Not Found when unknown.
 */
export async function visibleProjectOrNull(ctx: Ctx<unknown>, id: number): Promise<ProjectAccess | null> {
  try {
    return await authorizeProject(ctx, id);
  } catch (err) {
    if (errorBodyOf(err)?.status !== 404 || (await projectMap(ctx, [id])).size === 0) throw err;
    return null;
  }
}

export const readableProjects = (ctx: Ctx<unknown>, group?: string | number) =>
  ctx.call<{ all: boolean; projects: ReadableProjectRef[] }, { group?: string | number }>("namespaces.projects.readable", group === undefined ? {} : { group });

export const groupOf = (ctx: Ctx<unknown>, ref: string | number) =>
  ctx.call<{ group: { id: number; full_path: string }; access_level: number; role: number }, { group: string | number }>("namespaces.access.group", { group: ref });

export async function userMap(ctx: Ctx<unknown>, ids: Iterable<number | null | undefined>): Promise<Map<number, UserRef>> {
  const unique = [...new Set([...ids].filter((i): i is number => typeof i === "number"))];
  if (!unique.length) return new Map();
  const refs = await ctx.call<UserRef[], { ids: number[] }>("accounts.users.refs", { ids: unique });
  return new Map(refs.map((u) => [u.id, u]));
}

export const usersByUsername = (ctx: Ctx<unknown>, usernames: string[]) =>
  usernames.length ? ctx.call<UserRef[], { usernames: string[] }>("accounts.users.refs", { usernames }) : Promise.resolve([] as UserRef[]);

export async function projectMap(ctx: Ctx<unknown>, ids: Iterable<number>): Promise<Map<number, ProjectSummary>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await ctx.call<ProjectSummary[], { ids: number[] }>("namespaces.projects.summaries", { ids: unique });
  return new Map(rows.map((p) => [p.id, p]));
}

export async function labelMap(ctx: Ctx<unknown>, ids: Iterable<number>): Promise<Map<number, LabelDetail>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await ctx.call<LabelDetail[], { ids: number[] }>("namespaces.labels.byIds", { ids: unique });
  return new Map(rows.map((l) => [l.id, l]));
}

export async function milestoneMap(ctx: Ctx<unknown>, ids: Iterable<number | null>): Promise<Map<number, { id: number; due_date: string | null } & Record<string, unknown>>> {
  const unique = [...new Set([...ids].filter((i): i is number => typeof i === "number"))];
  if (!unique.length) return new Map();
  const rows = await ctx.call<({ id: number; due_date: string | null } & Record<string, unknown>)[], { ids: number[] }>("namespaces.milestones.byIds", { ids: unique });
  return new Map(rows.map((m) => [m.id, m]));
}

/**
 * The labels and milestones a page names, in one call (namespaces.workItems.refs): what labelMap
 * and milestoneMap give, for pages that need both.
 */
export async function labelAndMilestoneMaps(
  ctx: Ctx<unknown>,
  labelIds: Iterable<number>,
  milestoneIds: Iterable<number | null>,
): Promise<{ labels: Map<number, LabelDetail>; milestones: Map<number, MilestoneDetail> }> {
  const label_ids = [...new Set(labelIds)];
  const milestone_ids = [...new Set([...milestoneIds].filter((i): i is number => typeof i === "number"))];
  if (!label_ids.length && !milestone_ids.length) return { labels: new Map(), milestones: new Map() };
  const found = await ctx.call<{ labels: LabelDetail[]; milestones: MilestoneDetail[] }, { label_ids: number[]; milestone_ids: number[] }>("namespaces.workItems.refs", {
    label_ids,
    milestone_ids,
  });
  return { labels: new Map(found.labels.map((l) => [l.id, l])), milestones: new Map(found.milestones.map((m) => [m.id, m])) };
}
export type MilestoneDetail = { id: number; due_date: string | null } & Record<string, unknown>;

/** Label ids for names on a project; unknown names become project labels when `create` is set. */
export const resolveLabels = (ctx: Ctx<unknown>, projectId: number, names: string[], create: boolean) =>
  names.length
    ? ctx.call<LabelDetail[], { project_id: number; names: string[]; create_missing: boolean }>("namespaces.labels.resolveForProject", { project_id: projectId, names, create_missing: create })
    : Promise.resolve([] as LabelDetail[]);

export const labelIdsByTitles = (ctx: Ctx<unknown>, titles: string[], projectIds: number[] | null) =>
  titles.length
    ? ctx.call<Record<string, number[]>, { titles: string[]; project_ids: number[] | null }>("namespaces.labels.idsByTitles", { titles, project_ids: projectIds })
    : Promise.resolve({} as Record<string, number[]>);

export const milestoneIdsFor = (ctx: Ctx<unknown>, filter: { titles?: string[]; sentinel?: "Any" | "Upcoming" | "Started" }) =>
  ctx.call<number[], typeof filter>("namespaces.milestones.idsMatching", filter);

/** The project's milestone with this title (its own or an ancestor group's), or null. */
export const milestoneByTitle = (ctx: Ctx<unknown>, projectId: number, title: string) =>
  ctx.call<{ id: number } | null, { project_id: number; title: string }>("namespaces.milestones.findForProject", { project_id: projectId, title });

export const accessLevels = (ctx: Ctx<unknown>, projectId: number, userIds: number[]) =>
  userIds.length
    ? ctx.call<Record<number, { access_level: number; can_read: boolean }>, { project_id: number; user_ids: number[] }>("namespaces.access.levelsOnProject", { project_id: projectId, user_ids: userIds })
    : Promise.resolve({} as Record<number, { access_level: number; can_read: boolean }>);

/**
 * While a repository storage move runs (services/admin) the project is read-only: writes to its
 * issues, merge requests and their notes are refused with GitLab's read-only wording
 * (Gitlab::GitAccess :read_only).
 */
export function assertWritable(access: ProjectAccess) {
  if (access.project.repository_read_only) throw forbidden("The repository is temporarily read-only. Please try again later.");
}
export * from "./work-item-input";
import type { WorkItemInputAnswer, WorkItemInputRequest } from "./work-item-input";
