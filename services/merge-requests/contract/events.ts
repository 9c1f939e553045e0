import { awardEventContracts, ChangeValuesSchema, eventContract, noteEventContracts } from "@collab/core";
import { z } from "zod";

const id = z.number().int().positive();

/** A merge request as its events carry it, and who acted. */
export const MergeRequestEventPayload = () =>
  z.object({ id, iid: id, project_id: id, actor_id: id, title: z.string(), source_branch: z.string(), target_branch: z.string(), state: z.string() });

/** An approval change: the merge request, shorter, and who acted. */
const ApprovalEventPayload = () => z.object({ id, iid: id, project_id: id, actor_id: id, title: z.string() });

/**
 * What a to-do needs of a write (the activity service's TodoService): who is newly assigned or
 * asked to review, and the description, for new mentions.
 */
const TodoFacts = {
  assignee_ids: z.array(id).optional(),
  reviewer_ids: z.array(id).optional(),
  description: z.string().nullable().optional(),
};

/** Durable events the merge-requests service publishes (see index.ts). */
export const MergeRequestsEvents = {
  /** `assignee_ids`, `reviewer_ids` and `description`: the new merge request's. */
  mergeRequestOpened: eventContract("merge-requests.merge_request.opened", () => MergeRequestEventPayload().extend(TodoFacts)),
  /**
   * `changes`: the fields that changed, state aside (a state change is closed or reopened).
   * `assignee_ids`, `reviewer_ids`: the ones added, when they changed; `description` and
   * `previous_description` when the description changed. `change_values`: each changed field of
   * GitLab's merge request hook data with its value before and after (label_ids, assignee_ids and
   * reviewer_ids as id lists), for webhooks' `changes`.
   */
  mergeRequestUpdated: eventContract("merge-requests.merge_request.updated", () =>
    MergeRequestEventPayload().extend({ changes: z.array(z.string()), ...TodoFacts, previous_description: z.string().nullable().optional(), change_values: ChangeValuesSchema().optional() }),
  ),
  mergeRequestClosed: eventContract("merge-requests.merge_request.closed", MergeRequestEventPayload),
  mergeRequestReopened: eventContract("merge-requests.merge_request.reopened", MergeRequestEventPayload),
  /** `sha`: the source branch's head that was merged (diff_head_sha); `description`, for the issues it closes (external trackers read it). */
  mergeRequestMerged: eventContract("merge-requests.merge_request.merged", () =>
    MergeRequestEventPayload().extend({ merge_commit_sha: z.string().nullable(), sha: z.string().nullable().optional(), description: z.string().nullable().optional() }),
  ),
  mergeRequestDeleted: eventContract("merge-requests.merge_request.deleted", MergeRequestEventPayload),
  mergeRequestApproved: eventContract("merge-requests.merge_request.approved", ApprovalEventPayload),
  mergeRequestUnapproved: eventContract("merge-requests.merge_request.unapproved", ApprovalEventPayload),
  mergeRequestApprovalsReset: eventContract("merge-requests.merge_request.approvals_reset", ApprovalEventPayload),
  /** merge-requests.note.created|updated|deleted (the shared notes code). */
  ...noteEventContracts("merge-requests"),
  /** merge-requests.award_emoji.awarded|revoked (the shared award emoji, on the noteables and their notes). */
  ...awardEventContracts("merge-requests"),
};
