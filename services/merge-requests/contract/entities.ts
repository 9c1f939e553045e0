/**
 * What the merge-requests routes answer, field by field as the service's presenters build them
 * (src/merge-requests/entity.ts, src/approvals/approvals.entity.ts).
 */
import { UserRefSchema } from "@collab/accounts-contract";
import { GroupSchema, LabelBasicSchema, MilestoneSchema, ProtectedBranchSchema } from "@collab/namespaces-contract";
import { z } from "zod";
import { RepositoryCommitSchema, RepositoryDiffSchema } from "@collab/repositories-contract";

const int = () => z.number().int();
/** A date-time as the API presents it (ISO 8601). */
const time = () => z.string();

export const DETAILED_MERGE_STATUSES = ["not_open", "draft_status", "commits_status", "discussions_not_resolved", "unchecked", "conflict", "need_rebase", "not_approved", "merge_time", "mergeable"] as const;
export const MERGE_STATUSES = ["unchecked", "can_be_merged", "cannot_be_merged"] as const;

/** GitLab's detailed_merge_status (MergeRequests::Mergeability), as far as this service checks it. */
export const DetailedMergeStatusSchema = z.enum(DETAILED_MERGE_STATUSES);
/** The deprecated merge_status: can the branches be merged. */
export const MergeStatusSchema = z.enum(MERGE_STATUSES);

/** A merge request with `view=simple`. */
export const MergeRequestSimpleSchema = z.object({
  id: int(),
  iid: int(),
  project_id: int(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.string(),
  created_at: time(),
  updated_at: time(),
  web_url: z.string(),
});

/** GitLab's MergeRequestBasic: a merge request as lists present it. */
export const MergeRequestBasicSchema = MergeRequestSimpleSchema.extend({
  merged_by: UserRefSchema.nullable(),
  merge_user: UserRefSchema.nullable(),
  merged_at: time().nullable(),
  closed_by: UserRefSchema.nullable(),
  closed_at: time().nullable(),
  target_branch: z.string(),
  source_branch: z.string(),
  user_notes_count: int(),
  upvotes: int(),
  downvotes: int(),
  author: UserRefSchema.nullable(),
  assignees: z.array(UserRefSchema),
  assignee: UserRefSchema.nullable(),
  reviewers: z.array(UserRefSchema),
  source_project_id: int(),
  target_project_id: int(),
  /** Label names; LabelBasic with `with_labels_details=true`. */
  labels: z.union([z.array(z.string()), z.array(LabelBasicSchema)]),
  draft: z.boolean(),
  imported: z.boolean(),
  imported_from: z.string(),
  work_in_progress: z.boolean(),
  milestone: MilestoneSchema.nullable(),
  merge_when_pipeline_succeeds: z.boolean(),
  merge_status: MergeStatusSchema,
  detailed_merge_status: DetailedMergeStatusSchema,
  merge_after: time().nullable(),
  sha: z.string().nullable(),
  merge_commit_sha: z.string().nullable(),
  squash_commit_sha: z.string().nullable(),
  discussion_locked: z.boolean().nullable(),
  should_remove_source_branch: z.boolean().nullable(),
  force_remove_source_branch: z.boolean(),
  prepared_at: time().nullable(),
  allow_collaboration: z.boolean(),
  allow_maintainer_to_push: z.boolean(),
  reference: z.string(),
  references: z.object({ short: z.string(), relative: z.string(), full: z.string() }),
  time_stats: z.object({ time_estimate: int(), total_time_spent: int(), human_time_estimate: z.string().nullable(), human_total_time_spent: z.string().nullable() }),
  squash: z.boolean(),
  squash_on_merge: z.boolean(),
  task_completion_status: z.object({ count: int(), completed_count: int() }),
  has_conflicts: z.boolean(),
  blocking_discussions_resolved: z.boolean(),
  /** Premium and Ultimate only. */
  approvals_before_merge: int().nullable().optional(),
});

/** GitLab's MergeRequest entity: one merge request (get, create, update, merge). */
export const MergeRequestSchema = MergeRequestBasicSchema.extend({
  subscribed: z.boolean(),
  changes_count: z.string(),
  latest_build_started_at: z.null(),
  latest_build_finished_at: z.null(),
  first_deployed_to_production_at: z.null(),
  pipeline: z.null(),
  head_pipeline: z.null(),
  diff_refs: z.object({ base_sha: z.string().nullable(), head_sha: z.string().nullable(), start_sha: z.string().nullable() }),
  merge_error: z.string().nullable(),
  /** Always false when read: a rebase runs within its request (PUT …/rebase). */
  rebase_in_progress: z.boolean().optional(),
  first_contribution: z.boolean(),
  user: z.object({ can_merge: z.boolean() }),
});

/** GitLab's Commit entity (a merge request's commits). */
export const MergeRequestCommitSchema = RepositoryCommitSchema.extend({ web_url: z.string() });

/** GET …/changes: the merge request with its files (GitLab's MergeRequestChanges). */
export const MergeRequestChangesSchema = MergeRequestSchema.extend({ changes: z.array(RepositoryDiffSchema), overflow: z.boolean() });

/** A merge request list item: MergeRequestBasic, or the simple view. */
export const MergeRequestListItemSchema = z.union([MergeRequestBasicSchema, MergeRequestSimpleSchema]);

/** The merge request approvals object (GET …/approvals, approve, unapprove). */
export const ApprovalsSchema = z.object({
  id: int(),
  iid: int(),
  project_id: int(),
  title: z.string(),
  description: z.string(),
  state: z.string(),
  created_at: time(),
  updated_at: time(),
  merge_status: MergeStatusSchema,
  approved: z.boolean(),
  approvals_required: int(),
  approvals_left: int(),
  require_password_to_approve: z.boolean(),
  approved_by: z.array(z.object({ user: UserRefSchema })),
  /** Always empty: approvers are given by rules. */
  suggested_approvers: z.array(UserRefSchema),
  approvers: z.array(UserRefSchema),
  approver_groups: z.array(GroupSchema),
  user_has_approved: z.boolean(),
  user_can_approve: z.boolean(),
  approval_rules_left: z.array(z.object({ id: int(), name: z.string(), rule_type: z.string() })),
  has_approval_rules: z.boolean(),
  merge_request_approvers_available: z.boolean(),
  multiple_approval_rules_available: z.boolean(),
  /** Always empty. */
  invalid_approvers_rules: z.array(z.object({ id: int(), name: z.string(), rule_type: z.string() })),
});

/** GitLab's project approval settings entity. */
export const ApprovalSettingsSchema = z.object({
  /** Always empty: approvers are given by rules. */
  approvers: z.array(UserRefSchema),
  approver_groups: z.array(GroupSchema),
  approvals_before_merge: int(),
  reset_approvals_on_push: z.boolean(),
  selective_code_owner_removals: z.boolean(),
  disable_overriding_approvers_per_merge_request: z.boolean(),
  merge_requests_author_approval: z.boolean(),
  merge_requests_disable_committers_approval: z.boolean(),
  require_password_to_approve: z.boolean(),
  require_reauthentication_to_approve: z.boolean(),
});

/** The fields every approval rule entity has. */
const approvalRuleFields = {
  id: int(),
  name: z.string(),
  rule_type: z.string(),
  report_type: z.string().nullable(),
  eligible_approvers: z.array(UserRefSchema),
  approvals_required: int(),
  users: z.array(UserRefSchema),
  /** The rule's groups the caller may see. */
  groups: z.array(GroupSchema),
  contains_hidden_groups: z.boolean(),
};

/** GitLab's ApprovalRule entity (a project's rule). */
export const ProjectApprovalRuleSchema = z.object({
  ...approvalRuleFields,
  applies_to_all_protected_branches: z.boolean(),
  protected_branches: z.array(ProtectedBranchSchema),
});

/** GitLab's MergeRequestApprovalRule entity: the rule, its source project rule, whether it overrides it. */
export const MergeRequestApprovalRuleSchema = z.object({
  ...approvalRuleFields,
  source_rule: z.object({ approvals_required: int() }).nullable(),
  overridden: z.boolean(),
});

const approvedFields = { approved_by: z.array(UserRefSchema), approved: z.boolean() };

/** GET …/approval_state: the rules in force (the project's, or the merge request's own) and who satisfied each. */
export const ApprovalStateSchema = z.object({
  approval_rules_overwritten: z.boolean(),
  rules: z.array(
    z.union([
      ProjectApprovalRuleSchema.extend({ source_rule: z.null(), overridden: z.literal(false), ...approvedFields }),
      MergeRequestApprovalRuleSchema.extend(approvedFields),
    ]),
  ),
});

export type MergeRequestEntity = z.output<typeof MergeRequestSchema>;
export type MergeRequestBasicEntity = z.output<typeof MergeRequestBasicSchema>;
export type MergeRequestSimpleEntity = z.output<typeof MergeRequestSimpleSchema>;
export type ApprovalsEntity = z.output<typeof ApprovalsSchema>;
export type ApprovalSettingsEntity = z.output<typeof ApprovalSettingsSchema>;
export type ProjectApprovalRuleEntity = z.output<typeof ProjectApprovalRuleSchema>;
export type MergeRequestApprovalRuleEntity = z.output<typeof MergeRequestApprovalRuleSchema>;
export type ApprovalStateEntity = z.output<typeof ApprovalStateSchema>;

/** GitLab's CommitNote entity; path, line and line_type only for a note on a diff line (a DiffNote). */
export const CommitNoteSchema = z.object({
  note: z.string(),
  path: z.string().nullable(),
  line: int().nullable(),
  line_type: z.enum(["new", "old"]).nullable(),
  author: UserRefSchema.nullable(),
  created_at: z.string().nullable(),
});
export type CommitNoteEntity = z.output<typeof CommitNoteSchema>;

/** Entities::MergeRequestReviewer: GET …/reviewers. */
export const MergeRequestReviewerSchema = z.object({
  user: UserRefSchema,
  state: z.enum(["unreviewed", "reviewed", "requested_changes", "approved", "unapproved", "review_started"]),
  created_at: time(),
});
