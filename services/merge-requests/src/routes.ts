import type { RouteDef } from "@collab/core";
import { noteRoutes } from "@collab/notes/routes";
import { approvalRoutes } from "./approvals/approvals.routes";

const S = "merge-requests";
const P = "/projects/:id/merge_requests/:merge_request_iid";

/** Merge requests; their notes, discussions and state events (the shared notes routes, resolvable); approvals. */
export const routes: RouteDef[] = [
  { method: "GET", path: "/merge_requests", action: `${S}.mergeRequests.listAll`, auth: "optional" },
  { method: "GET", path: "/groups/:id/merge_requests", action: `${S}.mergeRequests.listGroup`, auth: "optional" },
  { method: "GET", path: "/projects/:id/merge_requests", action: `${S}.mergeRequests.listProject`, auth: "optional" },
  { method: "POST", path: "/projects/:id/merge_requests", action: `${S}.mergeRequests.create` },
  { method: "GET", path: P, action: `${S}.mergeRequests.get`, auth: "optional" },
  { method: "PUT", path: P, action: `${S}.mergeRequests.update` },
  { method: "DELETE", path: P, action: `${S}.mergeRequests.delete` },
  { method: "PUT", path: `${P}/merge`, action: `${S}.mergeRequests.merge` },
  { method: "GET", path: `${P}/closes_issues`, action: `${S}.closingIssues.closesIssues`, auth: "optional" },
  { method: "GET", path: "/projects/:id/issues/:issue_iid/closed_by", action: `${S}.closingIssues.closedBy`, auth: "optional" },
  ...noteRoutes(S, P, { resolvable: true }),
  ...approvalRoutes,
];
