import type { PushedRef } from "@collab/git";
import { ZERO_SHA } from "@collab/repositories-contract";

/**
 * The checks of one pushed ref before it moves (GitLab's Gitlab::Checks::BranchCheck), with
 * GitLab's messages. Pure: the caller supplies the branch's protection, the pusher's role and
 * whether the update rewrites history.
 */
export const RefMessages = {
  defaultBranchDeletion: "The default branch of a project cannot be deleted.",
  protectedDeletion: "You can only delete protected branches using the web interface.",
  protectedForcePush: "You are not allowed to force push code to a protected branch on this project.",
  protectedPush: "You are not allowed to push code to protected branches on this project.",
  protectedCreate: "You are not allowed to create protected branches on this project.",
  /** Through the API (GitLab's "updated from web"), where Maintainers may delete protected branches. */
  protectedDeletionRole: "You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.",
} as const;

/** A branch's protection as namespaces answers it (protectedBranches.pushRules). */
export interface BranchProtection {
  protected: boolean;
  /** The lowest role that may push (61: no one). */
  push_access_level: number;
  allow_force_push: boolean;
}

export const BRANCH_PREFIX = "refs/heads/";
export const TAG_PREFIX = "refs/tags/";

export const isDeletion = (u: PushedRef) => u.newSha === ZERO_SHA;
export const isCreation = (u: PushedRef) => u.oldSha === ZERO_SHA;
/** A branch update that may rewrite history (neither side zero): only those need the ancestry check. */
export const mayForcePush = (u: PushedRef) => !isDeletion(u) && !isCreation(u);

/**
 * Why a branch update is refused, or null. `forcePush`: the old head is not an ancestor of the new
 * one (checked on the pushed objects before this is asked).
 */
export function branchDenial(u: PushedRef, branch: string, ctx: { defaultBranch: string | null; role: number; protection: BranchProtection; forcePush: boolean }): string | null {
  if (isDeletion(u) && ctx.defaultBranch === branch) return RefMessages.defaultBranchDeletion;
  const p = ctx.protection;
  if (!p.protected) return null;
  if (ctx.forcePush && !p.allow_force_push) return RefMessages.protectedForcePush;
  if (isDeletion(u)) return RefMessages.protectedDeletion;
  if (ctx.role < p.push_access_level) return isCreation(u) ? RefMessages.protectedCreate : RefMessages.protectedPush;
  return null;
}

const MAINTAINER = 40;

/**
 * Why a branch created or deleted through the API is refused, or null: the same BranchCheck run
 * for a change "from the web". The default branch is never deleted; a protected branch is deleted
 * by Maintainers, and created by whoever may push or merge to it.
 */
export function apiBranchDenial(
  change: "create" | "delete",
  branch: string,
  ctx: { defaultBranch: string | null; role: number; protection: { protected: boolean; push_access_level: number; merge_access_level: number } },
): string | null {
  const p = ctx.protection;
  if (change === "delete") {
    if (ctx.defaultBranch === branch) return RefMessages.defaultBranchDeletion;
    return p.protected && ctx.role < MAINTAINER ? RefMessages.protectedDeletionRole : null;
  }
  if (!p.protected) return null;
  return ctx.role >= Math.min(p.push_access_level, p.merge_access_level) ? null : RefMessages.protectedCreate;
}
