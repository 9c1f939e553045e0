import { call, type Ctx, type InputOf } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { Repositories } from "@collab/repositories-contract";
import { headKey } from "@collab/work-items";

/** What merge requests ask of the repository: branch heads, merges, who may merge. */

export { headKey };

/**
 * Heads of branches of any projects, by headKey (null for a missing branch), read from the
 * repositories (never held: git pushes move them).
 */
export async function branchHeads(ctx: Ctx<unknown>, refs: { project_id: number; branch: string }[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (!refs.length) return out;
  for (const r of await call(ctx, Repositories.refs.heads, { refs })) out.set(headKey(r.project_id, r.branch), r.sha);
  return out;
}

/** Merges a merge request's branches (authorized here already). */
export const mergeBranches = (ctx: Ctx<unknown>, p: InputOf<typeof Namespaces.refs.mergeBranches>) => call(ctx, Namespaces.refs.mergeBranches, p);

/**
 * The one place that decides who may merge into a branch: the access level namespaces'
 * protected branches ask for (protectedBranches.mergeAccessLevel).
 */
export async function mergeAccessLevel(ctx: Ctx<unknown>, projectId: number, branch: string): Promise<number> {
  const { access_level } = await call(ctx, Namespaces.protectedBranches.mergeAccessLevel, { project_id: projectId, branch });
  return access_level;
}
