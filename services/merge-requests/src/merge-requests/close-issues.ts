import { call, type Ctx, type InputOf } from "@collab/core";
import { Issues } from "@collab/issues-contract";

/**
 * Asks the issues service to close the issues a merged merge request closes, as the merging
 * user (issues it may not update are skipped there). When the issues service is not running the
 * merge stands and nothing is closed.
 */
export async function closeIssuesOnMerge(ctx: Ctx<unknown>, p: InputOf<typeof Issues.mergeRequestLinks.closeIssues>) {
  if (!p.refs.length) return;
  await call(ctx, Issues.mergeRequestLinks.closeIssues, p);
}
