/** Params of the approval routes: approvals, project approval settings, project and merge request approval rules. */
import { gBool, gEnum, gId, gInt, gIntArray, gString, gStringArray, paginationParams } from "@collab/core";
import { z } from "zod";

const projectRef = () => gString().refine((s) => s.length > 0, { error: "is invalid" });

const project = { id: projectRef() };
const mergeRequest = { ...project, merge_request_iid: gId() };

export const ApprovalMergeRequestRefParams = z.object(mergeRequest);
export const ApproveParams = z.object({ ...mergeRequest, sha: gString().optional(), approval_password: gString().optional() });

export const ApprovalProjectRefParams = z.object(project);
export const UpdateSettingsParams = z.object({
  ...project,
  approvals_before_merge: gInt().refine((n) => n >= 0, { error: "is invalid" }).optional(),
  reset_approvals_on_push: gBool().optional(),
  selective_code_owner_removals: gBool().optional(),
  disable_overriding_approvers_per_merge_request: gBool().optional(),
  merge_requests_author_approval: gBool().optional(),
  merge_requests_disable_committers_approval: gBool().optional(),
  require_password_to_approve: gBool().optional(),
  require_reauthentication_to_approve: gBool().optional(),
});

export const RULE_TYPES = ["any_approver", "regular", "report_approver"] as const;
export const REPORT_TYPES = ["license_scanning", "code_coverage"] as const;

/** Approvers given by id or username, and groups: PUT replaces the lists that are given. */
const approvers = {
  user_ids: gIntArray().optional(),
  usernames: gStringArray().optional(),
  group_ids: gIntArray().optional(),
  remove_hidden_groups: gBool().optional(),
};

const projectRuleFields = {
  ...approvers,
  rule_type: gEnum(RULE_TYPES).optional(),
  report_type: gEnum(REPORT_TYPES).optional(),
  protected_branch_ids: gIntArray().optional(),
  applies_to_all_protected_branches: gBool().optional(),
};

export const ListProjectRulesParams = z.object({ ...project, ...paginationParams });
export const ProjectRuleRefParams = z.object({ ...project, approval_rule_id: gId() });
export const CreateProjectRuleParams = z.object({ ...project, name: gString(), approvals_required: gInt(), ...projectRuleFields });
export const UpdateProjectRuleParams = z.object({
  ...project,
  approval_rule_id: gId(),
  name: gString().optional(),
  approvals_required: gInt().optional(),
  ...projectRuleFields,
});

export const ListMergeRequestRulesParams = z.object({ ...mergeRequest, ...paginationParams });
export const MergeRequestRuleRefParams = z.object({ ...mergeRequest, approval_rule_id: gId() });
export const CreateMergeRequestRuleParams = z.object({
  ...mergeRequest,
  name: gString(),
  approvals_required: gInt(),
  approval_project_rule_id: gId().optional(),
  ...approvers,
});
export const UpdateMergeRequestRuleParams = z.object({
  ...mergeRequest,
  approval_rule_id: gId(),
  name: gString().optional(),
  approvals_required: gInt().optional(),
  ...approvers,
});

export type RuleInput = {
  name?: string;
  approvals_required?: number;
  rule_type?: (typeof RULE_TYPES)[number];
  report_type?: (typeof REPORT_TYPES)[number];
  user_ids?: number[];
  usernames?: string[];
  group_ids?: number[];
  protected_branch_ids?: number[];
  applies_to_all_protected_branches?: boolean;
};
