import { call, type Ctx, type InputOf } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";

/** What merge requests ask of the repository (namespaces' refs): branch heads, merges, who may merge. */

/** Heads of branches (held for pages, see @collab/work-items project-facts.ts). */
export { branchHeads, headKey } from "@collab/work-items";

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
