import { issuableHookAttrs, STATE_IDS } from "@collab/core";
import type { MergeRequestHookAttrs } from "@collab/merge-requests-contract";
import type { MergeRequestRow } from "../db/schema";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A merge request as webhooks show it (GitLab's MergeRequestBuilder), its label, assignee and reviewer ids with it. */
export function presentMergeRequestHookAttrs(m: MergeRequestRow, links: { labelIds: number[]; assigneeIds: number[]; reviewerIds: number[] }): MergeRequestHookAttrs {
  return {
    id: m.id,
    iid: m.iid,
    title: m.title,
    description: m.description,
    author_id: m.authorId,
    assignee_ids: links.assigneeIds,
    assignee_id: links.assigneeIds[0] ?? null,
    reviewer_ids: links.reviewerIds,
    source_branch: m.sourceBranch,
    target_branch: m.targetBranch,
    source_project_id: m.sourceProjectId,
    target_project_id: m.projectId,
    state: m.state,
    state_id: STATE_IDS[m.state] ?? STATE_IDS.opened,
    draft: m.draft,
    work_in_progress: m.draft,
    milestone_id: m.milestoneId,
    discussion_locked: m.discussionLocked,
    merge_commit_sha: m.mergeCommitSha,
    merge_user_id: m.mergeUserId,
    merge_when_pipeline_succeeds: m.mergeWhenPipelineSucceeds,
    head_pipeline_id: null,
    prepared_at: iso(m.preparedAt),
    ...issuableHookAttrs(m),
    label_ids: links.labelIds,
  };
}

/** A merge request's fields an edit may change, by hook attribute name: their differences are its hook's `changes`. */
export const mergeRequestHookSnapshot = (m: MergeRequestRow, links: { labelIds: number[]; assigneeIds: number[]; reviewerIds: number[] }) => ({
  title: m.title,
  description: m.description,
  draft: m.draft,
  target_branch: m.targetBranch,
  discussion_locked: m.discussionLocked,
  milestone_id: m.milestoneId,
  time_estimate: m.timeEstimate,
  label_ids: links.labelIds,
  assignee_ids: links.assigneeIds,
  reviewer_ids: links.reviewerIds,
  updated_at: m.updatedAt,
  updated_by_id: m.updatedById,
});
