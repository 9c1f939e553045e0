/** Actions of the activity service: its routes' (see index.ts). */
import { actionContract, noContent, pageOf } from "@collab/core";
import { z } from "zod";
import { EventSchema, TodoSchema } from "./entities";
import { OwnEventsParams, ProjectEventsParams, UserEventsParams } from "./params/events";
import { GroupActivityParams } from "./params/group-activity";
import { CreateIssueTodoParams, CreateMergeRequestTodoParams, ListTodosParams, TodoRefParams } from "./params/todos";

const count = () => z.number().int();

export const ActivityActions = {
  /** The Events API (actions `activity.events.*`); not `events`, which is Activity's map of durable events. */
  eventLists: {
    /** GET /events: the caller's own events; scope=all: every event of the projects they are a member of. */
    own: actionContract("activity.events.own", { input: () => OwnEventsParams, output: () => pageOf(EventSchema), idempotent: true }),
    /** GET /users/:id/events. */
    ofUser: actionContract("activity.events.ofUser", { input: () => UserEventsParams, output: () => pageOf(EventSchema), idempotent: true }),
    /** GET /projects/:id/events. */
    ofProject: actionContract("activity.events.ofProject", { input: () => ProjectEventsParams, output: () => pageOf(EventSchema), idempotent: true }),
  },
  /** The To-dos API and the routes that mark an issue or merge request as a to-do. */
  todos: {
    /** GET /todos: the caller's own to-dos (pending by default), their targets as the caller reads them now. */
    list: actionContract("activity.todos.list", { input: () => ListTodosParams, output: () => pageOf(TodoSchema), idempotent: true }),
    /** POST /todos/:id/mark_as_done: one of the caller's own. */
    markDone: actionContract("activity.todos.markDone", { input: () => TodoRefParams, output: () => TodoSchema }),
    /** POST /todos/mark_as_done: every pending one of the caller's. */
    markAllDone: actionContract("activity.todos.markAllDone", { input: () => z.object({}), output: () => noContent() }),
    /** POST /projects/:id/issues/:issue_iid/todo: 304 when the caller has a pending `marked` one for it. */
    createForIssue: actionContract("activity.todos.createForIssue", { input: () => CreateIssueTodoParams, output: () => TodoSchema }),
    /** POST /projects/:id/merge_requests/:merge_request_iid/todo. */
    createForMergeRequest: actionContract("activity.todos.createForMergeRequest", { input: () => CreateMergeRequestTodoParams, output: () => TodoSchema }),
  },
  groupActivity: {
    /** GET /analytics/group_activity/issues_count: issues created in the window. */
    issuesCount: actionContract("activity.groupActivity.issuesCount", { input: () => GroupActivityParams, output: () => z.object({ issues_count: count() }), idempotent: true }),
    /** GET /analytics/group_activity/merge_requests_count: merge requests created in the window. */
    mergeRequestsCount: actionContract("activity.groupActivity.mergeRequestsCount", {
      input: () => GroupActivityParams,
      output: () => z.object({ merge_requests_count: count() }),
      idempotent: true,
    }),
    /** GET /analytics/group_activity/new_members_count: members added in the window. */
    newMembersCount: actionContract("activity.groupActivity.newMembersCount", { input: () => GroupActivityParams, output: () => z.object({ new_members_count: count() }), idempotent: true }),
  },
};
