import type { MemberDetails } from "@collab/accounts-contract";
import { AccessLevel, type Config } from "@collab/core";

type Tier = Config["LICENSE_TIER"];

/**
 * Whether a role takes a paid seat (GitLab's billable rule): never on the Free tier (no
 * subscription); Minimal Access never; on Ultimate Guests are free too (exclude_guests), so only
 * Planner and above count; on Premium every role from Guest up.
 */
export function billableLevel(tier: Tier, level: number): boolean {
  if (tier === "free" || level <= AccessLevel.MINIMAL_ACCESS) return false;
  return tier === "ultimate" ? level > AccessLevel.GUEST : true;
}

/** What accounts tells about a user for seats (Accounts.users.memberDetails). */
export type { MemberDetails } from "@collab/accounts-contract";

/** A user who can hold a seat at all: an active person (blocked, deactivated and bot users never do). */
export const seatHolder = (u: Pick<MemberDetails, "state" | "human">) => u.human && u.state === "active";

/**
 * User#using_license_seat? on a self-managed instance: an active person, on a paid tier, whose
 * highest role anywhere is billable (on Premium every such user; on Ultimate above Guest).
 */
export function usingSeat(tier: Tier, user: Pick<MemberDetails, "state" | "human">, highestLevel: number): boolean {
  if (tier === "free" || !seatHolder(user)) return false;
  return tier === "premium" || billableLevel(tier, highestLevel);
}

/**
 * Levels a membership may hold (the model's access_level inclusion): Guest to Owner, and Minimal
 * Access only in top-level groups on Premium and Ultimate. "No access" (0) is never a membership.
 */
export function memberLevelValid(tier: Tier, level: number, topLevelGroup: boolean): boolean {
  if (level === AccessLevel.MINIMAL_ACCESS) return topLevelGroup && tier !== "free";
  return ([AccessLevel.GUEST, AccessLevel.PLANNER, AccessLevel.REPORTER, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER, AccessLevel.OWNER] as number[]).includes(level);
}

export const ACCESS_LEVEL_NOT_IN_LIST = "is not included in the list";
