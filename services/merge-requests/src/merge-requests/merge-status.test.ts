import { detailedMergeStatus, hasConflicts, mergeStatus, type MergeFacts } from "./merge-status";

const now = new Date("2026-01-01T00:00:00Z");
const base: MergeFacts = { state: "opened", draft: false, sourceBranchExists: true, blockingDiscussions: 0, gitStatus: "can_be_merged", needsRebase: false, approvalsLeft: 0, mergeAfter: null, now };

describe("merge status", () => {
  it("is mergeable when nothing blocks", () => expect(detailedMergeStatus(base)).toBe("mergeable"));
  it.each([
    [{ state: "closed" }, "not_open"],
    [{ state: "merged", draft: true }, "not_open"],
    [{ draft: true, approvalsLeft: 1 }, "draft_status"],
    [{ sourceBranchExists: false, gitStatus: "cannot_be_merged" }, "commits_status"],
    [{ blockingDiscussions: 2, approvalsLeft: 1, gitStatus: "cannot_be_merged" }, "discussions_not_resolved"],
    [{ gitStatus: "unchecked" }, "unchecked"],
    [{ gitStatus: "cannot_be_merged", needsRebase: true, approvalsLeft: 1 }, "conflict"],
    [{ needsRebase: true, approvalsLeft: 1 }, "need_rebase"],
    [{ approvalsLeft: 1 }, "not_approved"],
    [{ mergeAfter: new Date("2026-02-01T00:00:00Z") }, "merge_time"],
    [{ mergeAfter: new Date("2025-12-01T00:00:00Z") }, "mergeable"],
  ] as [Partial<MergeFacts>, string][])("%o → %s", (facts, status) => expect(detailedMergeStatus({ ...base, ...facts })).toBe(status));
  it("merge_status and has_conflicts follow git only", () => {
    expect(mergeStatus({ sourceBranchExists: true, gitStatus: "can_be_merged" })).toBe("can_be_merged");
    expect(mergeStatus({ sourceBranchExists: false, gitStatus: "can_be_merged" })).toBe("cannot_be_merged");
    expect(mergeStatus({ sourceBranchExists: true, gitStatus: "unchecked" })).toBe("unchecked");
    expect(hasConflicts({ sourceBranchExists: true, gitStatus: "cannot_be_merged" })).toBe(true);
    expect(hasConflicts({ sourceBranchExists: false, gitStatus: "cannot_be_merged" })).toBe(false);
  });
});
