import { branchMatches, regexError } from "./branch-filter";

describe("push_events_branch_filter", () => {
  test("wildcard: comma-separated patterns, * for any run of characters, whole names only", () => {
    expect(branchMatches("wildcard", "main", "main")).toBe(true);
    expect(branchMatches("wildcard", "main", "main2")).toBe(false);
    expect(branchMatches("wildcard", "release/*, main", "release/1.2")).toBe(true);
    expect(branchMatches("wildcard", "feat.x", "featyx")).toBe(false);
    expect(branchMatches("wildcard", null, "anything")).toBe(true);
  });
  test("regex and all_branches", () => {
    expect(branchMatches("regex", "^feat-\\d+$", "feat-12")).toBe(true);
    expect(branchMatches("regex", "^feat-\\d+$", "main")).toBe(false);
    expect(branchMatches("all_branches", "main", "other")).toBe(true);
    expect(regexError("(")).toEqual(expect.any(String));
    expect(regexError("^a+$")).toBeNull();
  });
});
