import { ZERO_SHA } from "@collab/repositories-contract";
import { apiBranchDenial, branchDenial, RefMessages } from "./ref-checks";

const A = "a".repeat(40);
const B = "b".repeat(40);
const update = (oldSha: string, newSha: string) => ({ oldSha, newSha, ref: "refs/heads/main" });
const open = { protected: false, push_access_level: 30, allow_force_push: false };
const guarded = { protected: true, push_access_level: 40, allow_force_push: false };
const ctx = (over: Partial<Parameters<typeof branchDenial>[2]> = {}) => ({ defaultBranch: "main", role: 30, protection: open, forcePush: false, ...over });

describe("branchDenial", () => {
  it("lets anything through on an unprotected branch but the default branch's deletion", () => {
    expect(branchDenial(update(A, B), "main", ctx({ forcePush: true }))).toBeNull();
    expect(branchDenial(update(A, ZERO_SHA), "main", ctx())).toBe(RefMessages.defaultBranchDeletion);
    expect(branchDenial(update(A, ZERO_SHA), "topic", ctx())).toBeNull();
  });

  it("applies the push level of a protected branch", () => {
    expect(branchDenial(update(A, B), "main", ctx({ protection: guarded }))).toBe(RefMessages.protectedPush);
    expect(branchDenial(update(A, B), "main", ctx({ protection: guarded, role: 40 }))).toBeNull();
    expect(branchDenial(update(ZERO_SHA, B), "release", ctx({ protection: guarded }))).toBe(RefMessages.protectedCreate);
  });

  it("refuses force pushes unless allowed, and deletions from git", () => {
    expect(branchDenial(update(A, B), "main", ctx({ protection: guarded, role: 40, forcePush: true }))).toBe(RefMessages.protectedForcePush);
    expect(branchDenial(update(A, B), "main", ctx({ protection: { ...guarded, allow_force_push: true }, role: 40, forcePush: true }))).toBeNull();
    expect(branchDenial(update(A, ZERO_SHA), "release", ctx({ protection: guarded, role: 40 }))).toBe(RefMessages.protectedDeletion);
  });
});

describe("apiBranchDenial", () => {
  const rule = (over = {}) => ({ protected: true, push_access_level: 40, merge_access_level: 40, ...over });
  const at = (role: number, protection = rule()) => ({ defaultBranch: "main", role, protection });

  it("never deletes the default branch, and leaves protected ones to Maintainers", () => {
    expect(apiBranchDenial("delete", "main", at(60, { ...rule(), protected: false }))).toBe(RefMessages.defaultBranchDeletion);
    expect(apiBranchDenial("delete", "release", at(30))).toBe(RefMessages.protectedDeletionRole);
    expect(apiBranchDenial("delete", "release", at(40))).toBeNull();
    expect(apiBranchDenial("delete", "topic", at(30, rule({ protected: false, push_access_level: 30, merge_access_level: 30 })))).toBeNull();
  });

  it("creates a protected branch for whoever may push or merge to it", () => {
    expect(apiBranchDenial("create", "release", at(30))).toBe(RefMessages.protectedCreate);
    expect(apiBranchDenial("create", "release", at(30, rule({ merge_access_level: 30 })))).toBeNull();
    expect(apiBranchDenial("create", "release", at(40))).toBeNull();
    expect(apiBranchDenial("create", "topic", at(30, rule({ protected: false })))).toBeNull();
  });
});
