import { gitStateColumns } from "./branches";

const a = "a".repeat(40);
const b = "b".repeat(40);
const c = "c".repeat(40);
const state = { source_sha: a, target_sha: b, base_sha: c, changes_count: "3", has_conflicts: false, can_fast_forward: false, source_merged: false };

describe("gitStateColumns", () => {
  it("stores the diff refs, changes_count and merge status read from git", () => {
    expect(gitStateColumns(state)).toEqual({ sha: a, baseSha: c, startSha: b, changesCount: "3", mergeStatus: "can_be_merged", behindTarget: true, sourceBranchExists: true });
    expect(gitStateColumns({ ...state, has_conflicts: true, can_fast_forward: true })).toMatchObject({ mergeStatus: "cannot_be_merged", behindTarget: false });
  });

  it("keeps the last known sha when the source branch is gone", () => {
    const gone = gitStateColumns({ ...state, source_sha: null, base_sha: null, changes_count: "0" });
    expect(gone).not.toHaveProperty("sha");
    expect(gone).toMatchObject({ sourceBranchExists: false, mergeStatus: "cannot_be_merged", startSha: b });
  });
});
