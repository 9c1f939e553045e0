import { errorBodyOf, type Ctx } from "@collab/core";

/**
 * What this service asks namespaces and issues beyond the shared work-item clients of
 * @collab/core. Each call is batch-shaped: one per request or page.
 */
export interface BranchHead {
  project_id: number;
  branch: string;
  sha: string | null;
}

export async function branchHeads(ctx: Ctx<unknown>, refs: { project_id: number; branch: string }[], ensureDefaultBranch = false): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (!refs.length) return out;
  const rows = await ctx.call<BranchHead[], unknown>("namespaces.refs.branchHeads", { refs, ensure_default_branch: ensureDefaultBranch });
  for (const r of rows) out.set(headKey(r.project_id, r.branch), r.sha);
  return out;
}
export const headKey = (projectId: number, branch: string) => `${projectId}:${branch}`;

export interface MergeBranchesResult {
  merge_commit_sha: string;
  squash_commit_sha: string | null;
  source_sha: string;
  source_branch_removed: boolean;
}

export const mergeBranches = (
  ctx: Ctx<unknown>,
  p: {
    project_id: number;
    source_branch: string;
    target_branch: string;
    sha?: string;
    message: string;
    squash: boolean;
    squash_message?: string;
    remove_source_branch: boolean;
    user_id: number;
    author_name: string;
    author_email: string;
  },
) => ctx.call<MergeBranchesResult, typeof p>("namespaces.refs.mergeBranches", p);

/**
 * The one place that decides who may merge into a branch: the access level namespaces'
 * protected branches ask for (protectedBranches.mergeAccessLevel).
 */
export async function mergeAccessLevel(ctx: Ctx<unknown>, projectId: number, branch: string): Promise<number> {
  const { access_level } = await ctx.call<{ access_level: number }, { project_id: number; branch: string }>("namespaces.protectedBranches.mergeAccessLevel", { project_id: projectId, branch });
  return access_level;
}

/** A project by path as the caller sees it, or null when hidden or unknown (closing references to it are skipped). */
export async function visibleProjectId(ctx: Ctx<unknown>, path: string): Promise<number | null> {
  try {
    const access = await ctx.call<{ project: { id: number } }, { project: string }>("namespaces.access.project", { project: path });
    return access.project.id;
  } catch (err) {
    if (errorBodyOf(err)?.status === 404 || errorBodyOf(err)?.status === 403) return null;
    throw err;
  }
}

/**
 * Asks the issues service to close the issues a merged merge request closes, as the merging
 * user (issues it may not update are skipped there). When the issues service is not running the
 * merge stands and nothing is closed.
 */
export async function closeIssuesOnMerge(ctx: Ctx<unknown>, p: { refs: { project_id: number; iid: number }[]; merge_request: { iid: number; project_id: number; reference: string } }) {
  if (!p.refs.length) return;
  await ctx.call("issues.mergeRequestLinks.closeIssues", p);
}
