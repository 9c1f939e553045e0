import type { Config } from "@collab/core";
import { type ListMergeRequestsParams } from "@collab/merge-requests-contract";
import { singleValueOnFree } from "@collab/work-items";

/**
 * The list params as the licensed tier declares them: approval filters exist on Premium and
 * Ultimate only; on Free they are dropped as Grape drops undeclared params (GitLab CE ignores
 * them), and CE takes one assignee_username.
 */
export function listParamsForTier(p: ListMergeRequestsParams, tier: Config["LICENSE_TIER"]): ListMergeRequestsParams {
  if (tier !== "free") return p;
  singleValueOnFree(tier, "assignee_username", p.assignee_username);
  const out = { ...p };
  delete out.approved_by_ids;
  delete out.approved_by_usernames;
  delete out.approver_ids;
  delete out.approved;
  return out;
}
