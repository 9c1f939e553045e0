import type { RouteDef } from "@collab/core";

const S = "merge-requests";
const P = "/projects/:id";
const MR = `${P}/merge_requests/:merge_request_iid`;

/** Approvals: every call needs a signed-in caller, as GitLab's approvals API. */
export const approvalRoutes: RouteDef[] = [
  { method: "GET", path: `${MR}/approvals`, action: `${S}.approvals.get` },
  { method: "GET", path: `${MR}/approval_state`, action: `${S}.approvals.state` },
  { method: "POST", path: `${MR}/approve`, action: `${S}.approvals.approve` },
  { method: "POST", path: `${MR}/unapprove`, action: `${S}.approvals.unapprove` },
  { method: "PUT", path: `${MR}/reset_approvals`, action: `${S}.approvals.reset`, status: 202 },

  { method: "GET", path: `${P}/approvals`, action: `${S}.approvalSettings.get` },
  { method: "POST", path: `${P}/approvals`, action: `${S}.approvalSettings.update` },

  { method: "GET", path: `${P}/approval_rules`, action: `${S}.projectRules.list` },
  { method: "POST", path: `${P}/approval_rules`, action: `${S}.projectRules.create` },
  { method: "GET", path: `${P}/approval_rules/:approval_rule_id`, action: `${S}.projectRules.get` },
  { method: "PUT", path: `${P}/approval_rules/:approval_rule_id`, action: `${S}.projectRules.update` },
  { method: "DELETE", path: `${P}/approval_rules/:approval_rule_id`, action: `${S}.projectRules.delete` },

  { method: "GET", path: `${MR}/approval_rules`, action: `${S}.mergeRequestRules.list` },
  { method: "POST", path: `${MR}/approval_rules`, action: `${S}.mergeRequestRules.create` },
  { method: "GET", path: `${MR}/approval_rules/:approval_rule_id`, action: `${S}.mergeRequestRules.get` },
  { method: "PUT", path: `${MR}/approval_rules/:approval_rule_id`, action: `${S}.mergeRequestRules.update` },
  { method: "DELETE", path: `${MR}/approval_rules/:approval_rule_id`, action: `${S}.mergeRequestRules.delete` },
];
