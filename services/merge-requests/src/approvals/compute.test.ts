import { eligibleToApprove, evaluate, ruleAppliesTo, type ApprovalPolicy } from "./compute";

const policy = (over: Partial<ApprovalPolicy> = {}): ApprovalPolicy => ({
  authorId: 1,
  committerIds: [1],
  authorApproval: false,
  committersDisabled: false,
  levels: new Map([[1, 30], [2, 30], [3, 40], [4, 20], [5, 30]]),
  ...over,
});

const anyRule = (required: number) => ({ id: 1, name: "All Members", ruleType: "any_approver", approvalsRequired: required, approverIds: [] as number[] });
const regular = (id: number, required: number, approverIds: number[]) => ({ id, name: `r${id}`, ruleType: "regular", approvalsRequired: required, approverIds });

describe("rule applicability", () => {
  it("rules without branches apply everywhere", () => {
    expect(ruleAppliesTo({ appliesToAllProtectedBranches: false, protectedBranchIds: [] }, [])).toBe(true);
  });
  it("all-protected rules apply to protected targets only", () => {
    expect(ruleAppliesTo({ appliesToAllProtectedBranches: true, protectedBranchIds: [] }, [])).toBe(false);
    expect(ruleAppliesTo({ appliesToAllProtectedBranches: true, protectedBranchIds: [] }, [9])).toBe(true);
  });
  it("branch-scoped rules apply when one of their branches matches the target", () => {
    expect(ruleAppliesTo({ appliesToAllProtectedBranches: false, protectedBranchIds: [7] }, [8])).toBe(false);
    expect(ruleAppliesTo({ appliesToAllProtectedBranches: false, protectedBranchIds: [7, 8] }, [8])).toBe(true);
  });
});

describe("approvals_left", () => {
  it("any_approver counts Developers and up, not Reporters", () => {
    const e = evaluate([anyRule(2)], [2, 4], policy());
    expect(e.approvalsLeft).toBe(1);
    expect(e.rules[0].approvedBy).toEqual([2]);
    expect(evaluate([anyRule(2)], [2, 3], policy()).approved).toBe(true);
  });
  it("sums what each rule still needs from its own approvers", () => {
    const rules = [regular(1, 1, [2]), regular(2, 2, [3, 5])];
    expect(evaluate(rules, [], policy()).approvalsLeft).toBe(3);
    expect(evaluate(rules, [2], policy()).approvalsLeft).toBe(2);
    expect(evaluate(rules, [3], policy()).approvalsLeft).toBe(2);
    expect(evaluate(rules, [2, 3, 5], policy()).approvalsLeft).toBe(0);
    expect(evaluate(rules, [], policy()).approvalsRequired).toBe(3);
  });
  it("the author's approval counts only with author approval on; committers' not when barred", () => {
    expect(evaluate([anyRule(1)], [1], policy()).approvalsLeft).toBe(1);
    expect(evaluate([anyRule(1)], [1], policy({ authorApproval: true })).approvalsLeft).toBe(0);
    expect(evaluate([anyRule(1)], [1], policy({ authorApproval: true, committersDisabled: true })).approvalsLeft).toBe(1);
  });
  it("no rules: nothing left", () => {
    expect(evaluate([], [], policy())).toMatchObject({ approvalsLeft: 0, approvalsRequired: 0, approved: true });
  });
});

describe("eligibility", () => {
  it("named rules admit their approvers only, any_approver every Developer", () => {
    expect(eligibleToApprove([regular(1, 1, [3])], 2, policy())).toBe(false);
    expect(eligibleToApprove([regular(1, 1, [3])], 3, policy())).toBe(true);
    expect(eligibleToApprove([regular(1, 1, [3]), anyRule(0)], 2, policy())).toBe(true);
    expect(eligibleToApprove([], 2, policy())).toBe(true);
    expect(eligibleToApprove([], 4, policy())).toBe(false);
  });
  it("excludes the author unless allowed", () => {
    expect(eligibleToApprove([], 1, policy())).toBe(false);
    expect(eligibleToApprove([], 1, policy({ authorApproval: true }))).toBe(true);
  });
});
