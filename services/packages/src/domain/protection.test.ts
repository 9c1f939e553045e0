import type { ProtectionRuleRow } from "../db/schema";
import { deleteProtected, matchesPattern, pushProtected } from "./protection";

const rule = (p: Partial<ProtectionRuleRow>): ProtectionRuleRow => ({
  id: 1,
  projectId: 1,
  packageNamePattern: "@scope/*",
  packageType: "npm",
  minimumAccessLevelForPush: null,
  minimumAccessLevelForDelete: null,
  createdAt: new Date(),
  updatedAt: new Date(),
  ...p,
});

describe("protection rules", () => {
  test("patterns: * wildcards, whole name, case-insensitive, other characters literal", () => {
    expect(matchesPattern("@scope/*", "@scope/pkg")).toBe(true);
    expect(matchesPattern("@scope/*", "@Scope/PKG")).toBe(true);
    expect(matchesPattern("@scope/*", "@other/pkg")).toBe(false);
    expect(matchesPattern("pkg-*-beta", "pkg-1-beta")).toBe(true);
    expect(matchesPattern("pkg.js", "pkgxjs")).toBe(false);
    expect(matchesPattern("pkg", "pkg-extra")).toBe(false);
    expect(matchesPattern("*", "anything")).toBe(true);
  });

  test("push and delete levels; deploy tokens never push a protected package", () => {
    const rules = [rule({ minimumAccessLevelForPush: "owner", minimumAccessLevelForDelete: "admin" })];
    expect(pushProtected(rules, { role: 40, deployToken: false })).toBe(true);
    expect(pushProtected(rules, { role: 50, deployToken: false })).toBe(false);
    expect(pushProtected(rules, { role: 0, deployToken: true })).toBe(true);
    expect(deleteProtected(rules, { role: 50, deployToken: false })).toBe(true);
    expect(deleteProtected(rules, { role: 60, deployToken: false })).toBe(false);
    expect(pushProtected([rule({ minimumAccessLevelForDelete: "owner" })], { role: 0, deployToken: true })).toBe(false);
  });
});
