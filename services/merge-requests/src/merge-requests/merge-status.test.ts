import { detailedMergeStatus, mergeStatus, type MergeFacts } from "./merge-status";

const now = new Date("2026-01-01T00:00:00Z");
const base: MergeFacts = { state: "opened", draft: false, sourceBranchExists: true, blockingDiscussions: 0, approvalsLeft: 0, mergeAfter: null, now };

describe("merge status", () => {
  it("is mergeable when nothing blocks", () => expect(detailedMergeStatus(base)).toBe("mergeable"));
  it.each([
    [{ state: "closed" }, "not_open"],
    [{ state: "merged", draft: true }, "not_open"],
    [{ draft: true, approvalsLeft: 1 }, "draft_status"],
    [{ sourceBranchExists: false }, "commits_status"],
    [{ blockingDiscussions: 2, approvalsLeft: 1 }, "discussions_not_resolved"],
    [{ approvalsLeft: 1 }, "not_approved"],
    [{ mergeAfter: new Date("2026-02-01T00:00:00Z") }, "merge_time"],
    [{ mergeAfter: new Date("2025-12-01T00:00:00Z") }, "mergeable"],
  ] as [Partial<MergeFacts>, string][])("%o → %s", (facts, status) => expect(detailedMergeStatus({ ...base, ...facts })).toBe(status));
  it("merge_status follows the branch only", () => {
    expect(mergeStatus({ sourceBranchExists: true })).toBe("can_be_merged");
    expect(mergeStatus({ sourceBranchExists: false })).toBe("cannot_be_merged");
  });
});
