/**
 * The merge-requests service's own REST routes (the gateway mounts them): merge requests, the
 * issues they close, approvals, approval settings and rules, and the shared notes routes
 * (@collab/notes-contract): notes, discussions and state events of merge requests.
 */
import type { RouteDef } from "@collab/core";
import { awardEmojiRoutes, discussionRoutes, noteRoutes, participantsRoute, timeTrackingRoutes } from "@collab/notes-contract";
import { MergeRequestsActions as A } from "./actions";

const P = "/projects/:id";
/** One merge request. */
const MR = `${P}/merge_requests/:merge_request_iid`;

/** Approvals: every call needs a signed-in caller, as GitLab's approvals API. */
const approvalRoutes: RouteDef[] = [
  { method: "GET", path: `${MR}/approvals`, action: A.approvals.get.name },
  { method: "GET", path: `${MR}/approval_state`, action: A.approvals.state.name },
  { method: "POST", path: `${MR}/approve`, action: A.approvals.approve.name },
  { method: "POST", path: `${MR}/unapprove`, action: A.approvals.unapprove.name },
  { method: "PUT", path: `${MR}/reset_approvals`, action: A.approvals.reset.name, status: 202 },

  { method: "GET", path: `${P}/approvals`, action: A.approvalSettings.get.name },
  { method: "POST", path: `${P}/approvals`, action: A.approvalSettings.update.name },

  { method: "GET", path: `${P}/approval_rules`, action: A.projectRules.list.name },
  { method: "POST", path: `${P}/approval_rules`, action: A.projectRules.create.name },
  { method: "GET", path: `${P}/approval_rules/:approval_rule_id`, action: A.projectRules.get.name },
  { method: "PUT", path: `${P}/approval_rules/:approval_rule_id`, action: A.projectRules.update.name },
  { method: "DELETE", path: `${P}/approval_rules/:approval_rule_id`, action: A.projectRules.delete.name },

  { method: "GET", path: `${MR}/approval_rules`, action: A.mergeRequestRules.list.name },
  { method: "POST", path: `${MR}/approval_rules`, action: A.mergeRequestRules.create.name },
  { method: "GET", path: `${MR}/approval_rules/:approval_rule_id`, action: A.mergeRequestRules.get.name },
  { method: "PUT", path: `${MR}/approval_rules/:approval_rule_id`, action: A.mergeRequestRules.update.name },
  { method: "DELETE", path: `${MR}/approval_rules/:approval_rule_id`, action: A.mergeRequestRules.delete.name },
];

/** Merge requests, the issues they close, approvals (the notes routes are mounted by the service, see above). */
export const routes: RouteDef[] = [
  { method: "GET", path: "/merge_requests", action: A.mergeRequests.listAll.name, auth: "optional" },
  { method: "GET", path: "/groups/:id/merge_requests", action: A.mergeRequests.listGroup.name, auth: "optional" },
  { method: "GET", path: `${P}/merge_requests`, action: A.mergeRequests.listProject.name, auth: "optional" },
  { method: "POST", path: `${P}/merge_requests`, action: A.mergeRequests.create.name },
  { method: "GET", path: MR, action: A.mergeRequests.get.name, auth: "optional" },
  { method: "PUT", path: MR, action: A.mergeRequests.update.name },
  { method: "DELETE", path: MR, action: A.mergeRequests.delete.name },
  { method: "PUT", path: `${MR}/merge`, action: A.mergeRequests.merge.name },
  { method: "GET", path: `${MR}/commits`, action: A.mergeRequests.commits.name, auth: "optional" },
  { method: "GET", path: `${MR}/changes`, action: A.mergeRequests.changes.name, auth: "optional" },
  { method: "GET", path: `${MR}/diffs`, action: A.mergeRequests.diffs.name, auth: "optional" },
  { method: "GET", path: `${MR}/raw_diffs`, action: A.mergeRequests.rawDiffs.name, auth: "optional" },
  { method: "PUT", path: `${MR}/rebase`, action: A.mergeRequests.rebase.name, status: 202 },
  { method: "POST", path: `${MR}/subscribe`, action: A.mergeRequests.subscribe.name, params: { subscribed: true } },
  { method: "POST", path: `${MR}/unsubscribe`, action: A.mergeRequests.subscribe.name, params: { subscribed: false } },
  { method: "GET", path: `${MR}/reviewers`, action: A.mergeRequests.reviewers.name, auth: "optional" },
  participantsRoute(A.participants, MR),
  { method: "GET", path: `${MR}/closes_issues`, action: A.closingIssues.closesIssues.name, auth: "optional" },
  { method: "GET", path: `${P}/issues/:issue_iid/closed_by`, action: A.closingIssues.closedBy.name, auth: "optional" },
  { method: "GET", path: `${MR}/related_issues`, action: A.closingIssues.relatedIssues.name, auth: "optional" },
  { method: "GET", path: `${P}/issues/:issue_iid/related_merge_requests`, action: A.closingIssues.relatedMergeRequests.name, auth: "optional" },
  ...approvalRoutes,
  // Notes, discussions (resolvable) and state events: the shared notes routes.
  ...noteRoutes(A, MR, { resolvable: true }),
  // Emoji reactions on the merge request and its notes, and time tracking: shared with issues.
  ...awardEmojiRoutes(A.awardEmoji, MR),
  ...timeTrackingRoutes(A.timeTracking, MR),
  // Comments and discussions of commits (GitLab's commits and discussions APIs).
  { method: "GET", path: `${P}/repository/commits/:sha/comments`, action: A.commits.notes.list.name, auth: "optional" },
  { method: "POST", path: `${P}/repository/commits/:sha/comments`, action: A.commits.notes.create.name },
  ...discussionRoutes(A.commits.discussions, `${P}/repository/commits/:commit_id`, { resolvable: false }),
];
