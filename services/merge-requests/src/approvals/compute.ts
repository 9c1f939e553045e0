/**
 * Pure approval arithmetic: which rules apply to a merge request, who counts for each, and how
 * many approvals are left. No I/O: state.ts gathers the inputs.
 */

export const DEVELOPER = 30;

export interface RuleLike {
  id: number;
  name: string;
  ruleType: string;
  approvalsRequired: number;
  /** Rule users plus members of rule groups. */
  approverIds: number[];
}

export interface ProjectRuleScope {
  appliesToAllProtectedBranches: boolean;
  protectedBranchIds: number[];
}

/**
 * A project rule applies to a target branch when it names no branches (all branches), when it
 * applies to all protected branches and the target is protected, or when one of its protected
 * branches matches the target. `matchingIds`: protected branches matching the target branch.
 */
export function ruleAppliesTo(rule: ProjectRuleScope, matchingIds: readonly number[]): boolean {
  if (rule.appliesToAllProtectedBranches) return matchingIds.length > 0;
  if (!rule.protectedBranchIds.length) return true;
  return rule.protectedBranchIds.some((id) => matchingIds.includes(id));
}

export interface ApprovalPolicy {
  authorId: number;
  /** Authors of the commits the merge request adds (here: its author, see README of approvals). */
  committerIds: readonly number[];
  authorApproval: boolean;
  committersDisabled: boolean;
  /** Access levels on the project of the users involved. */
  levels: ReadonlyMap<number, number>;
}

/** Users whose approval never counts: the author unless self-approval is on, committers when barred. */
export function excluded(userId: number, p: ApprovalPolicy): boolean {
  if (userId === p.authorId && !p.authorApproval) return true;
  return p.committersDisabled && p.committerIds.includes(userId);
}

export function countsFor(rule: RuleLike, userId: number, p: ApprovalPolicy): boolean {
  if (excluded(userId, p)) return false;
  if (rule.ruleType === "any_approver") return (p.levels.get(userId) ?? 0) >= DEVELOPER;
  return rule.approverIds.includes(userId);
}

export interface EvaluatedRule<R extends RuleLike = RuleLike> {
  rule: R;
  approvedBy: number[];
  approved: boolean;
  left: number;
}

export interface Evaluation<R extends RuleLike = RuleLike> {
  rules: EvaluatedRule<R>[];
  approvalsRequired: number;
  approvalsLeft: number;
  approved: boolean;
}

/** approvals_left = the sum over rules of what each still needs from its own eligible approvers. */
export function evaluate<R extends RuleLike>(rules: R[], approverIds: readonly number[], p: ApprovalPolicy): Evaluation<R> {
  const evaluated = rules.map((rule) => {
    const approvedBy = approverIds.filter((u) => countsFor(rule, u, p));
    const left = Math.max(0, rule.approvalsRequired - approvedBy.length);
    return { rule, approvedBy, left, approved: left === 0 };
  });
  const approvalsLeft = evaluated.reduce((n, r) => n + r.left, 0);
  return { rules: evaluated, approvalsRequired: rules.reduce((n, r) => n + r.approvalsRequired, 0), approvalsLeft, approved: approvalsLeft === 0 };
}

/**
 * Whether a user may approve: never the excluded; with any_approver rules or no rules naming
 * approvers, any Developer and up; otherwise an approver of some rule.
 */
export function eligibleToApprove(rules: RuleLike[], userId: number, p: ApprovalPolicy): boolean {
  if (excluded(userId, p)) return false;
  const level = p.levels.get(userId) ?? 0;
  const named = rules.filter((r) => r.ruleType !== "any_approver");
  if (named.some((r) => r.approverIds.includes(userId))) return true;
  const open = rules.some((r) => r.ruleType === "any_approver") || named.every((r) => r.approverIds.length === 0);
  return open && level >= DEVELOPER;
}
