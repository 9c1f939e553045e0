import { branchMatches, minimumLevel, NO_ONE_CAN } from "./matching";

describe("protected branch matching", () => {
  it("matches exact names and wildcards, slashes included", () => {
    expect(branchMatches("main", "main")).toBe(true);
    expect(branchMatches("main", "main2")).toBe(false);
    expect(branchMatches("release/*", "release/1.0")).toBe(true);
    expect(branchMatches("release/*", "release/1/hotfix")).toBe(true);
    expect(branchMatches("release/*", "releases/1")).toBe(false);
    expect(branchMatches("*-stable", "13-stable")).toBe(true);
    expect(branchMatches("v1.*", "v1x2")).toBe(false);
  });

  it("answers the lowest level any matching rule admits; Developer when unprotected", () => {
    const rules = [
      { name: "main", pushAccessLevel: 40, mergeAccessLevel: 40 },
      { name: "release/*", pushAccessLevel: 0, mergeAccessLevel: 30 },
      { name: "release/1.*", pushAccessLevel: 40, mergeAccessLevel: 0 },
    ];
    expect(minimumLevel(rules, "feature", "merge")).toBe(30);
    expect(minimumLevel(rules, "main", "merge")).toBe(40);
    expect(minimumLevel(rules, "release/2", "push")).toBe(NO_ONE_CAN);
    expect(minimumLevel(rules, "release/1.0", "merge")).toBe(30);
    expect(minimumLevel(rules, "release/1.0", "push")).toBe(40);
  });
});
