/** Actions of the activity service: its routes' (see index.ts). */
import { actionContract, pageOf } from "@collab/core";
import { z } from "zod";
import { EventSchema } from "./entities";
import { OwnEventsParams, ProjectEventsParams, UserEventsParams } from "./params/events";
import { GroupActivityParams } from "./params/group-activity";

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
