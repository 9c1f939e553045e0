import { AccessLevel } from "@collab/core";

/**
 * Interim rule until the protected-branches API lands (its module replaces this body): the
 * default branch is protected as GitLab's default branch protection leaves it (Maintainers
 * merge), every other branch is open to Developers.
 */
export function mergeAccessLevelFor(project: { defaultBranch: string | null }, branch: string): number {
  return branch === project.defaultBranch ? AccessLevel.MAINTAINER : AccessLevel.DEVELOPER;
}

/** Pushing follows the same interim rule (Maintainer on the default branch, Developer elsewhere). */
export const pushAccessLevelFor = mergeAccessLevelFor;
