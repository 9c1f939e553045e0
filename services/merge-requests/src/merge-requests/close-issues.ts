import type { Ctx } from "@collab/core";

/**
 * Asks the issues service to close the issues a merged merge request closes, as the merging
 * user (issues it may not update are skipped there). When the issues service is not running the
 * merge stands and nothing is closed.
 */
export async function closeIssuesOnMerge(ctx: Ctx<unknown>, p: { refs: { project_id: number; iid: number }[]; merge_request: { iid: number; project_id: number; reference: string } }) {
  if (!p.refs.length) return;
  await ctx.call("issues.mergeRequestLinks.closeIssues", p);
}
