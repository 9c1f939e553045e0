import type { RouteDef } from "@collab/core";

const A = "activity";
/** The Events API allows read_user tokens on its GET routes (lib/api/events.rb); project events do not. */
const READ_USER = ["read_user"] as const;
const G = "/analytics/group_activity";

export const routes: RouteDef[] = [
  { method: "GET", path: "/events", action: `${A}.events.own`, scopes: READ_USER },
  { method: "GET", path: "/users/:id/events", action: `${A}.events.ofUser`, auth: "optional", scopes: READ_USER },
  { method: "GET", path: "/projects/:id/events", action: `${A}.events.ofProject`, auth: "optional" },
  { method: "GET", path: `${G}/issues_count`, action: `${A}.groupActivity.issuesCount` },
  { method: "GET", path: `${G}/merge_requests_count`, action: `${A}.groupActivity.mergeRequestsCount` },
  { method: "GET", path: `${G}/new_members_count`, action: `${A}.groupActivity.newMembersCount` },
];
