import type { MergeRequestRow } from "../db/schema";

/** Domain events, emitted after the writing transaction has committed. */
export const MERGE_REQUEST_EVENTS = {
  opened: "merge-requests.merge_request.opened",
  updated: "merge-requests.merge_request.updated",
  closed: "merge-requests.merge_request.closed",
  reopened: "merge-requests.merge_request.reopened",
  merged: "merge-requests.merge_request.merged",
  deleted: "merge-requests.merge_request.deleted",
} as const;

export const eventPayload = (mr: MergeRequestRow, actorId: number, extra: Record<string, unknown> = {}) => ({
  id: mr.id,
  iid: mr.iid,
  project_id: mr.projectId,
  actor_id: actorId,
  title: mr.title,
  source_branch: mr.sourceBranch,
  target_branch: mr.targetBranch,
  state: mr.state,
  ...extra,
});

