import { announce, type PayloadOf } from "@collab/core";
import type { Announcement } from "@collab/db";
import { MergeRequests } from "@collab/merge-requests-contract";
import type { MergeRequestRow } from "../db/schema";

/** What every merge request event carries (MergeRequests.events): the merge request, and who acted. */
export type MergeRequestPayload = PayloadOf<typeof MergeRequests.events.mergeRequestClosed>;

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

/** The new merge request's assignees, reviewers and description, for the activity service's to-dos. */
export const openedEvent = (mr: MergeRequestRow, actorId: number, links: { assigneeIds?: number[]; reviewerIds?: number[] }): Announcement =>
  announce(E.mergeRequestOpened, {
    ...eventPayload(mr, actorId),
    assignee_ids: [...new Set(links.assigneeIds ?? [])],
    reviewer_ids: [...new Set(links.reviewerIds ?? [])],
    description: mr.description,
  });

/** What an edit adds for to-dos: the assignees and reviewers added, the description with the one it replaced. */
export function todoFacts(before: MergeRequestRow, after: MergeRequestRow, changes: string[], links: { assigneeIds: number[]; reviewerIds: number[] }, input: { assigneeIds?: number[]; reviewerIds?: number[] }) {
  const added = (next: number[] | undefined, current: number[]) => [...new Set(next ?? [])].filter((id) => !current.includes(id));
  return {
    ...(changes.includes("assignees") ? { assignee_ids: added(input.assigneeIds, links.assigneeIds) } : {}),
    ...(changes.includes("reviewers") ? { reviewer_ids: added(input.reviewerIds, links.reviewerIds) } : {}),
    ...(changes.includes("description") ? { description: after.description, previous_description: before.description } : {}),
  };
}
type PlainEvent = typeof E.mergeRequestOpened | typeof E.mergeRequestClosed | typeof E.mergeRequestReopened | typeof E.mergeRequestDeleted;

/** A merge request event whose payload is the merge request's alone. */
export const mergeRequestEvent = (event: PlainEvent, mr: MergeRequestRow, actorId: number): Announcement => announce(event, eventPayload(mr, actorId));
