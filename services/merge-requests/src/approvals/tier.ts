import { ApiError } from "@collab/core";
import type { ServiceKit } from "@collab/db";

/** Approval rules, settings and required approvals are Premium and Ultimate features. */
export const approvalRulesAvailable = (kit: ServiceKit) => kit.config.LICENSE_TIER !== "free";

/**
 * Below Premium the EE-only routes (settings, rules, approval_state) do not exist: GitLab CE has
 * no such route, so the answer is its catch-all 404.
 */
export function requireApprovalRules(kit: ServiceKit) {
  if (!approvalRulesAvailable(kit)) throw new ApiError(404, { error: "404 Not Found" }, "NOT_FOUND");
}
