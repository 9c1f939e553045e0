import type { UserRef } from "@collab/core";
import type { ApprovalsEntity } from "@collab/merge-requests-contract";
import type { ProtectedBranch } from "@collab/namespaces-contract";
import type { ApprovalSettingsRow } from "../db/schema";
import type { EvaluatedRule } from "./compute";
import type { GroupEntity } from "./remote";
import type { MergeRequestRule, ProjectRule } from "./rules.store";
import type { ApprovalState, RuleView } from "./state";

/** What rule presenters look up once per answer: user refs, visible groups, protected branches. */
export interface RuleLookups {
  users: Map<number, UserRef>;
  groups: Map<number, GroupEntity>;
  groupMembers: Map<number, number[]>;
  protectedBranches: Map<number, ProtectedBranch>;
}

const refs = (ids: number[], users: Map<number, UserRef>) => ids.map((id) => users.get(id)).filter((u): u is UserRef => u !== undefined);

function ruleCommon(r: { id: number; name: string; ruleType: string; reportType: string | null; approvalsRequired: number; userIds: number[]; groupIds: number[] }, l: RuleLookups) {
  const groups = r.groupIds.map((g) => l.groups.get(g)).filter((g): g is GroupEntity => g !== undefined);
  const eligible = [...new Set([...r.userIds, ...r.groupIds.flatMap((g) => l.groupMembers.get(g) ?? [])])].sort((a, b) => a - b);
  return {
    id: r.id,
    name: r.name,
    rule_type: r.ruleType,
    report_type: r.reportType,
    eligible_approvers: refs(eligible, l.users),
    approvals_required: r.approvalsRequired,
    users: refs(r.userIds, l.users),
    groups,
    contains_hidden_groups: groups.length < r.groupIds.length,
  };
}

/** GitLab's ApprovalRule entity (project level). */
export const presentProjectRule = (r: ProjectRule, l: RuleLookups) => ({
  ...ruleCommon(r, l),
  applies_to_all_protected_branches: r.appliesToAllProtectedBranches,
  protected_branches: r.protectedBranchIds.map((id) => l.protectedBranches.get(id)).filter((b) => b !== undefined),
});

/** GitLab's MergeRequestApprovalRule entity: the rule plus its source rule and whether it overrides it. */
export const presentMergeRequestRule = (r: MergeRequestRule, source: ProjectRule | undefined, l: RuleLookups) => ({
  ...ruleCommon(r, l),
  source_rule: source ? { approvals_required: source.approvalsRequired } : null,
  overridden: source ? source.approvalsRequired !== r.approvalsRequired || source.name !== r.name : false,
});

function presentEvaluated(e: EvaluatedRule<RuleView>, state: ApprovalState, l: RuleLookups, sources: Map<number, ProjectRule>) {
  const src = e.rule.source;
  const base =
    src.kind === "merge_request"
      ? presentMergeRequestRule(src.rule, src.rule.approvalProjectRuleId ? sources.get(src.rule.approvalProjectRuleId) : undefined, l)
      : src.kind === "project"
        ? { ...presentProjectRule(src.rule, l), source_rule: null, overridden: false }
        : null;
  if (!base) return null;
  return { ...base, approved_by: refs(e.approvedBy, l.users), approved: e.approved };
}

/** GET …/approval_state: the rules in force and who satisfied each. */
export const presentApprovalState = (state: ApprovalState, l: RuleLookups, sources: Map<number, ProjectRule>) => ({
  approval_rules_overwritten: state.overridden,
  rules: state.evaluation.rules.map((e) => presentEvaluated(e, state, l, sources)).filter((r) => r !== null),
});

/**
 * The merge request approvals object (GET …/approvals, approve, unapprove): the spec's fields
 * plus GitLab's user-specific ones. merge_status is the merge request's own (can its branch be
 * merged), as on the merge request entity; approvals show in approved / approvals_left.
 */
export function presentApprovals(
  state: ApprovalState,
  o: { users: Map<number, UserRef>; callerId: number | null; callerCanApprove: boolean; premium: boolean; mergeStatus: ApprovalsEntity["merge_status"] },
): ApprovalsEntity {
  const mr = state.mergeRequest;
  const ev = state.evaluation;
  const approvedBy = state.approvals.map((a) => o.users.get(a.userId)).filter((u): u is UserRef => u !== undefined);
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.projectId,
    title: mr.title,
    description: mr.description ?? "",
    state: mr.state,
    created_at: mr.createdAt.toISOString(),
    updated_at: mr.updatedAt.toISOString(),
    merge_status: o.mergeStatus,
    approved: ev.approved,
    approvals_required: ev.approvalsRequired,
    approvals_left: ev.approvalsLeft,
    require_password_to_approve: o.premium && state.settings.requireReauthenticationToApprove,
    approved_by: approvedBy.map((user) => ({ user })),
    suggested_approvers: [],
    approvers: [],
    approver_groups: [],
    user_has_approved: o.callerId !== null && state.approvals.some((a) => a.userId === o.callerId),
    user_can_approve: o.callerCanApprove,
    approval_rules_left: ev.rules.filter((r) => !r.approved && r.rule.source.kind !== "fallback").map((r) => ({ id: r.rule.id, name: r.rule.name, rule_type: r.rule.ruleType })),
    has_approval_rules: ev.rules.some((r) => r.rule.source.kind !== "fallback"),
    merge_request_approvers_available: o.premium,
    multiple_approval_rules_available: o.premium,
    invalid_approvers_rules: [],
  };
}

/** GitLab's project approval settings entity. */
export const presentSettings = (s: ApprovalSettingsRow) => ({
  approvers: [],
  approver_groups: [],
  approvals_before_merge: s.approvalsBeforeMerge,
  reset_approvals_on_push: s.resetApprovalsOnPush,
  selective_code_owner_removals: s.selectiveCodeOwnerRemovals,
  disable_overriding_approvers_per_merge_request: s.disableOverridingApproversPerMergeRequest,
  merge_requests_author_approval: s.mergeRequestsAuthorApproval,
  merge_requests_disable_committers_approval: s.mergeRequestsDisableCommittersApproval,
  require_password_to_approve: s.requireReauthenticationToApprove,
  require_reauthentication_to_approve: s.requireReauthenticationToApprove,
});
