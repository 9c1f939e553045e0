import type { RouteDef } from "@collab/core";
import { ActivityActions as A } from "./actions";

/** The Events API allows read_user tokens on its GET routes (lib/api/events.rb); project events do not. */
const READ_USER = ["read_user"] as const;
const G = "/analytics/group_activity";

export const routes: RouteDef[] = [
  { method: "GET", path: "/events", action: A.eventLists.own.name, scopes: READ_USER },
  { method: "GET", path: "/users/:id/events", action: A.eventLists.ofUser.name, auth: "optional", scopes: READ_USER },
  { method: "GET", path: "/projects/:id/events", action: A.eventLists.ofProject.name, auth: "optional" },
  { method: "GET", path: "/todos", action: A.todos.list.name },
  { method: "POST", path: "/todos/mark_as_done", action: A.todos.markAllDone.name, status: 204 },
  { method: "POST", path: "/todos/:id/mark_as_done", action: A.todos.markDone.name },
  { method: "POST", path: "/projects/:id/issues/:issue_iid/todo", action: A.todos.createForIssue.name },
  { method: "POST", path: "/projects/:id/merge_requests/:merge_request_iid/todo", action: A.todos.createForMergeRequest.name },
  { method: "GET", path: `${G}/issues_count`, action: A.groupActivity.issuesCount.name },
  { method: "GET", path: `${G}/merge_requests_count`, action: A.groupActivity.mergeRequestsCount.name },
  { method: "GET", path: `${G}/new_members_count`, action: A.groupActivity.newMembersCount.name },
];
