import { announce, type PayloadOf } from "@collab/core";
import type { Announcement } from "@collab/db";
import { MergeRequests } from "@collab/merge-requests-contract";
import type { MergeRequestRow } from "../db/schema";

/** What every merge request event carries (MergeRequests.events): the merge request, and who acted. */
export type MergeRequestPayload = PayloadOf<typeof MergeRequests.events.mergeRequestOpened>;

/** The payload of a merge request's events from its row, `actorId` having acted: the one builder. */
export const eventPayload = (mr: MergeRequestRow, actorId: number): MergeRequestPayload => ({
  id: mr.id,
  iid: mr.iid,
  project_id: mr.projectId,
  actor_id: actorId,
  title: mr.title,
  source_branch: mr.sourceBranch,
  target_branch: mr.targetBranch,
  state: mr.state,
});

const E = MergeRequests.events;
type PlainEvent = typeof E.mergeRequestOpened | typeof E.mergeRequestClosed | typeof E.mergeRequestReopened | typeof E.mergeRequestDeleted;

/** A merge request event whose payload is the merge request's alone. */
export const mergeRequestEvent = (event: PlainEvent, mr: MergeRequestRow, actorId: number): Announcement => announce(event, eventPayload(mr, actorId));
