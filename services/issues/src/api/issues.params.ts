import { paramError, type Config } from "@collab/core";
import { singleValueOnFree } from "@collab/work-items";
import type { ListIssuesParams } from "@collab/issues-contract";

// The params schemas live in the issues contract (@collab/issues-contract, params/issues.ts).

/**
 * The list params as the licensed tier declares them: Free (GitLab CE) accepts one
 * assignee_username and knows no weight, epic, iteration or health filters (nor order_by=weight);
 * Premium knows all but health_status. Undeclared filters are ignored, as Grape drops them.
 */
export function listParamsForTier(p: ListIssuesParams, tier: Config["LICENSE_TIER"]): ListIssuesParams {
  singleValueOnFree(tier, "assignee_username", p.assignee_username);
  singleValueOnFree(tier, "not[assignee_username]", p.not?.assignee_username);
  if (tier === "ultimate") return p;
  if (tier === "free" && p.order_by === "weight") throw paramError("order_by does not have a valid value");
  const dropped = tier === "free" ? (["weight", "epic_id", "iteration_id", "iteration_title", "health_status"] as const) : (["health_status"] as const);
  const out: ListIssuesParams = { ...p, not: p.not && { ...p.not } };
  for (const key of dropped) {
    delete out[key];
    if (out.not) delete out.not[key];
  }
  return out;
}

