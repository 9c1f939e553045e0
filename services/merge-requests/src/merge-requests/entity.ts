import { iso, taskCompletion, timeStats, workItemReferences, type UserRef } from "@collab/core";
import type { MergeRequestBasicEntity, MergeRequestEntity, MergeRequestSimpleEntity } from "@collab/merge-requests-contract";
import type { MilestoneDetail } from "@collab/namespaces-contract";
import { labelBasic, type LabelDetail, type WorkItemProject } from "@collab/work-items";
import type { MergeRequestGitState } from "@collab/repositories-contract";
import type { MergeRequestRow } from "../db/schema";
import { gitStateColumns } from "./branches";

import { detailedMergeStatus, hasConflicts, mergeStatus, type MergeFacts } from "./merge-status";

/** Everything a page of merge requests needs besides its rows, loaded once per page. */
export interface MergeRequestPresentation {
  baseUrl: string;
  now: Date;
  projects: Map<number, WorkItemProject & { only_allow_merge_if_all_discussions_are_resolved?: boolean; merge_method?: string }>;
  users: Map<number, UserRef>;
  labels: Map<number, LabelDetail>;
  milestones: Map<number, MilestoneDetail>;
  labelIds: Map<number, number[]>;
  assigneeIds: Map<number, number[]>;
  reviewerIds: Map<number, number[]>;
  /**
   * The git state read now, by merge request id (single answers ask the repository once); a page
   * shows the state stored on its rows instead.
   */
  live: Map<number, MergeRequestGitState>;
  /** Unresolved resolvable notes per merge request. */
  unresolved: Map<number, number>;
  approvalsLeft: Map<number, number>;
  context: { projectId?: number; groupPath?: string };
  withLabelsDetails: boolean;
  tier: "free" | "premium" | "ultimate";
}

/** The extra fields of a single merge request (GitLab's MergeRequest entity over MergeRequestBasic). */
export interface MergeRequestDetail {
  subscribed: boolean;
  changesCount: string;
  diffRefs: { base_sha: string | null; head_sha: string | null; start_sha: string | null };
  mergeError: string | null;
  firstContribution: boolean;
  canMerge: boolean;
}

const users = (ids: number[] | undefined, p: MergeRequestPresentation) => (ids ?? []).map((id) => p.users.get(id)).filter((u): u is UserRef => u !== undefined);

/** What the merge statuses of a merge request are computed from (a page's presentation, or one merge). */
export type MergeStatusSource = Pick<MergeRequestPresentation, "now" | "live" | "unresolved" | "approvalsLeft" | "projects">;

/** The merge request's git state: read now when the answer asked for it, else as stored on its row. */
export function gitStateOf(mr: MergeRequestRow, live: Map<number, MergeRequestGitState>) {
  const now = live.get(mr.id);
  if (!now || mr.state === "merged") return { ...mr, gitStatus: mr.mergeStatus as MergeFacts["gitStatus"] };
  const columns = gitStateColumns(now);
  return { ...mr, ...columns, gitStatus: columns.mergeStatus as MergeFacts["gitStatus"] };
}

export function mergeStatusesOf(
  mr: MergeRequestRow,
  p: MergeStatusSource,
): Pick<MergeRequestBasicEntity, "merge_status" | "detailed_merge_status" | "blocking_discussions_resolved" | "has_conflicts"> {
  const git = gitStateOf(mr, p.live);
  const project = p.projects.get(mr.projectId);
  const facts: MergeFacts = {
    state: mr.state,
    draft: mr.draft,
    // Merged merge requests may have lost their source branch: that changes nothing for them.
    sourceBranchExists: mr.state === "merged" || git.sourceBranchExists !== false,
    blockingDiscussions: project?.only_allow_merge_if_all_discussions_are_resolved ? (p.unresolved.get(mr.id) ?? 0) : 0,
    gitStatus: mr.state === "merged" ? "can_be_merged" : git.gitStatus,
    needsRebase: (project?.merge_method === "ff" || project?.merge_method === "rebase_merge") && git.behindTarget === true,
    approvalsLeft: p.approvalsLeft.get(mr.id) ?? 0,
    mergeAfter: mr.mergeAfter,
    now: p.now,
  };
  return {
    merge_status: mergeStatus(facts),
    detailed_merge_status: detailedMergeStatus(facts),
    blocking_discussions_resolved: facts.blockingDiscussions === 0,
    has_conflicts: mr.state === "opened" && hasConflicts(facts),
  };
}

export function presentSimple(mr: MergeRequestRow, p: MergeRequestPresentation): MergeRequestSimpleEntity {
  const project = p.projects.get(mr.projectId);
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.projectId,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.createdAt.toISOString(),
    updated_at: mr.updatedAt.toISOString(),
    web_url: `${project?.web_url ?? p.baseUrl}/-/merge_requests/${mr.iid}`,
  };
}

/** GitLab's MergeRequestBasic (list item), plus the MergeRequest fields when `detail` is given. */
export function presentMergeRequest(mr: MergeRequestRow, p: MergeRequestPresentation): MergeRequestBasicEntity;
export function presentMergeRequest(mr: MergeRequestRow, p: MergeRequestPresentation, detail: MergeRequestDetail): MergeRequestEntity;
export function presentMergeRequest(mr: MergeRequestRow, p: MergeRequestPresentation, detail?: MergeRequestDetail): MergeRequestBasicEntity | MergeRequestEntity;
export function presentMergeRequest(mr: MergeRequestRow, p: MergeRequestPresentation, detail?: MergeRequestDetail): MergeRequestBasicEntity | MergeRequestEntity {
  const project = p.projects.get(mr.projectId);
  const assignees = users(p.assigneeIds.get(mr.id), p);
  const labels = (p.labelIds.get(mr.id) ?? [])
    .map((id) => p.labels.get(id))
    .filter((l): l is LabelDetail => l !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  const mergeUser = mr.mergeUserId ? (p.users.get(mr.mergeUserId) ?? null) : null;
  const statuses = mergeStatusesOf(mr, p);
  const references = workItemReferences("!", mr.iid, project, mr.projectId, p.context);
  const premium = p.tier !== "free";
  const basic: MergeRequestBasicEntity = {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.projectId,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    created_at: mr.createdAt.toISOString(),
    updated_at: mr.updatedAt.toISOString(),
    merged_by: mergeUser,
    merge_user: mergeUser,
    merged_at: iso(mr.mergedAt),
    closed_by: mr.closedById ? (p.users.get(mr.closedById) ?? null) : null,
    closed_at: iso(mr.closedAt),
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    user_notes_count: mr.userNotesCount,
    upvotes: mr.upvotes,
    downvotes: mr.downvotes,
    author: p.users.get(mr.authorId) ?? null,
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: users(p.reviewerIds.get(mr.id), p),
    source_project_id: mr.sourceProjectId,
    target_project_id: mr.projectId,
    labels: p.withLabelsDetails ? labels.map(labelBasic) : labels.map((l) => l.name),
    draft: mr.draft,
    imported: mr.imported,
    imported_from: mr.importedFrom,
    work_in_progress: mr.draft,
    milestone: mr.milestoneId ? (p.milestones.get(mr.milestoneId) ?? null) : null,
    merge_when_pipeline_succeeds: mr.mergeWhenPipelineSucceeds,
    merge_status: statuses.merge_status,
    detailed_merge_status: statuses.detailed_merge_status,
    merge_after: iso(mr.mergeAfter),
    sha: mr.sha,
    merge_commit_sha: mr.mergeCommitSha,
    squash_commit_sha: mr.squashCommitSha,
    discussion_locked: mr.discussionLocked,
    should_remove_source_branch: mr.shouldRemoveSourceBranch,
    force_remove_source_branch: mr.forceRemoveSourceBranch,
    prepared_at: iso(mr.preparedAt),
    allow_collaboration: mr.allowCollaboration,
    allow_maintainer_to_push: mr.allowCollaboration,
    reference: references.short,
    references,
    web_url: `${project?.web_url ?? p.baseUrl}/-/merge_requests/${mr.iid}`,
    time_stats: timeStats(mr.timeEstimate, mr.totalTimeSpent),
    squash: mr.squash,
    squash_on_merge: mr.squash,
    task_completion_status: taskCompletion(mr.description),
    has_conflicts: statuses.has_conflicts,
    blocking_discussions_resolved: statuses.blocking_discussions_resolved,
    ...(premium ? { approvals_before_merge: mr.approvalsBeforeMerge } : {}),
  };
  if (!detail) return basic;
  return {
    ...basic,
    subscribed: detail.subscribed,
    changes_count: detail.changesCount,
    latest_build_started_at: null,
    latest_build_finished_at: null,
    first_deployed_to_production_at: null,
    pipeline: null,
    head_pipeline: null,
    diff_refs: detail.diffRefs,
    merge_error: detail.mergeError,
    rebase_in_progress: false,
    first_contribution: detail.firstContribution,
    user: { can_merge: detail.canMerge },
  };
}

