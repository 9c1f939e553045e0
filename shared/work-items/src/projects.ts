import { call, errorBodyOf, forbidden, type Ctx } from "@collab/core";
import { Namespaces, type ProjectAccess, type ProjectSummary, type WorkItemInputAnswer, type WorkItemInputRequest } from "@collab/namespaces-contract";

/** Projects as the work-item services ask namespaces for them: one call per request or page. */

/**
 * The project as the caller may read it (404 otherwise). With `issueInput`, an issue write's
 * input is checked in the same call (workItems.authorizeIssueWrite, answered as `issue_input`
 * when the caller may reach the issues): one authorization per request.
 */
export function authorizeProject(ctx: Ctx<unknown>, ref: string | number, issueInput?: WorkItemInputRequest): Promise<ProjectAccess & { issue_input?: WorkItemInputAnswer }> {
  return issueInput ? call(ctx, Namespaces.workItems.authorizeIssueWrite, { project: ref, issue_input: issueInput }) : call(ctx, Namespaces.access.project, { project: ref });
}

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

/** A project by path as the caller sees it, or null when hidden or unknown (closing references to it are skipped). */
export async function visibleProjectId(ctx: Ctx<unknown>, path: string): Promise<number | null> {
  try {
    const access = await call(ctx, Namespaces.access.project, { project: path });
    return access.project.id;
  } catch (err) {
    if (errorBodyOf(err)?.status === 404 || errorBodyOf(err)?.status === 403) return null;
    throw err;
  }
}

/** Projects the caller may read (inside one group and its subgroups when given), with their level; `all` means no restriction. */
export const readableProjects = (ctx: Ctx<unknown>, group?: string | number) => call(ctx, Namespaces.projects.readable, group === undefined ? {} : { group });

/** Summaries of these projects by id, readable or not (the rows were authorized already). */
export async function projectMap(ctx: Ctx<unknown>, ids: Iterable<number>): Promise<Map<number, ProjectSummary>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await call(ctx, Namespaces.projects.summaries, { ids: unique });
  return new Map(rows.map((p) => [p.id, p]));
}

/**
 * While a repository storage move runs (services/admin) the project is read-only: writes to its
 * issues, merge requests and their notes are refused with GitLab's read-only wording
 * (Gitlab::GitAccess :read_only).
 */
export function assertWritable(access: ProjectAccess) {
  if (access.project.repository_read_only) throw forbidden("The repository is temporarily read-only. Please try again later.");
}

/** What presenting a work item needs of its project: what projects.summaries and access.project both answer. */
export type WorkItemProject = Pick<ProjectSummary, "id" | "path_with_namespace" | "namespace_id" | "group_ids" | "web_url">;
