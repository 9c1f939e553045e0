import type { RouteDef } from "@collab/core";
import { ActivityActions as A } from "./actions";

/** The Events API allows read_user tokens on its GET routes (lib/api/events.rb); project events do not. */
const READ_USER = ["read_user"] as const;
const G = "/analytics/group_activity";

export const routes: RouteDef[] = [
  { method: "GET", path: "/events", action: A.eventLists.own.name, scopes: READ_USER },
  { method: "GET", path: "/users/:id/events", action: A.eventLists.ofUser.name, auth: "optional", scopes: READ_USER },
  { method: "GET", path: "/projects/:id/events", action: A.eventLists.ofProject.name, auth: "optional" },
  { method: "GET", path: `${G}/issues_count`, action: A.groupActivity.issuesCount.name },
  { method: "GET", path: `${G}/merge_requests_count`, action: A.groupActivity.mergeRequestsCount.name },
  { method: "GET", path: `${G}/new_members_count`, action: A.groupActivity.newMembersCount.name },
];
