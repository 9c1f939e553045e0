import { ACCESS_CACHE_FLUSH, call, callerOf, errorBodyOf, forbidden, processCache, type Ctx } from "@collab/core";
import { Namespaces, type ProjectAccess, type ProjectSummary, type WorkItemInputAnswer, type WorkItemInputRequest } from "@collab/namespaces-contract";

/** Projects as the work-item services ask namespaces for them: one call per request or page. */

/**
 * access.project answers held in this process, by caller and project reference: namespaces flushes
 * every holder (`<service>.accessCache.flush` on every node) and waits for each before a change that
 * may alter an answer (a member, a project, a group, a deletion) answers; entries also go after
 * 30 s. Only readable answers are held (a 404 is asked again), and only for users and anonymous
 * callers (deploy and job tokens reach projects their own way). Off until a service of this
 * process registers its flush action (`accessCacheHolder`): a process nobody can flush holds nothing.
 */
const access = processCache<ProjectAccess>(ACCESS_CACHE_FLUSH);
const heldAccess = access.cache;

/** Implements a service's access-cache flush (`<service>.accessCache.flush`, see its contract), and so turns the cache on in this process. */
export const accessCacheHolder = access.holder;

/**
 * Answers of namespaces emptied by the same flush as access.project (project-facts.ts): every
 * namespaces write but the harmless ones flushes, so whatever such a write can change may be held here.
 */
export const heldBesideAccess = <W>() => ({ cache: access.companion<W>(), held: () => access.held });

/** Who the held answer is for: everything of the caller that access.project decides on. */
function holderKey(ctx: Ctx<unknown>): string | null {
  const caller = callerOf(ctx);
  if (!caller) return "-";
  if (caller.deployToken || caller.job) return null;
  return `${caller.id}:${caller.admin ? 1 : 0}:${caller.external ? 1 : 0}:${caller.bot ? 1 : 0}`;
}

async function projectAccess(ctx: Ctx<unknown>, ref: string | number): Promise<ProjectAccess> {
  const who = access.held ? holderKey(ctx) : null;
  if (who === null) return call(ctx, Namespaces.access.project, { project: ref });
  const key = `${who}|${typeof ref === "number" ? ref : `p:${ref}`}`;
  const held = heldAccess.get(key);
  if (held) return held;
  const generation = heldAccess.generation();
  const answer = await call(ctx, Namespaces.access.project, { project: ref });
  heldAccess.set(key, Object.freeze(answer), generation);
  return answer;
}

/**
 * The project as the caller may read it (404 otherwise). With `issueInput`, an issue write's
 * input is checked in the same call (workItems.authorizeIssueWrite, answered as `issue_input`
 * when the caller may reach the issues): one authorization per request.
 */
export function authorizeProject(ctx: Ctx<unknown>, ref: string | number, issueInput?: WorkItemInputRequest): Promise<ProjectAccess & { issue_input?: WorkItemInputAnswer }> {
  return issueInput ? call(ctx, Namespaces.workItems.authorizeIssueWrite, { project: ref, issue_input: issueInput }) : projectAccess(ctx, ref);
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
    const access = await projectAccess(ctx, path);
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
