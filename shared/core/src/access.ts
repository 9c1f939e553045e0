/** GitLab access levels (integers on the wire). */
export const AccessLevel = {
  NO_ACCESS: 0,
  MINIMAL_ACCESS: 5,
  GUEST: 10,
  PLANNER: 15,
  REPORTER: 20,
  DEVELOPER: 30,
  MAINTAINER: 40,
  OWNER: 50,
  ADMIN: 60,
} as const;
export type AccessLevelValue = (typeof AccessLevel)[keyof typeof AccessLevel];

/**
 * A project feature (issues, merge requests, …) by its access level setting: hidden when disabled,
 * or private to members and the caller is below Guest.
 */
export const featureHidden = (featureAccessLevel: string, role: number) => featureAccessLevel === "disabled" || (featureAccessLevel === "private" && role < AccessLevel.GUEST);

/** Levels a membership may hold. */
export const MEMBER_ACCESS_LEVELS = [0, 5, 10, 15, 20, 30, 40, 50] as const;

const names: Record<number, string> = {
  0: "No access",
  5: "Minimal Access",
  10: "Guest",
  15: "Planner",
  20: "Reporter",
  30: "Developer",
  40: "Maintainer",
  50: "Owner",
  60: "Admin",
};
export const accessLevelName = (level: number) => names[level] ?? String(level);

export type Visibility = "private" | "internal" | "public";
export const VISIBILITIES: readonly Visibility[] = ["private", "internal", "public"];
export const visibilityLevel = (v: Visibility) => ({ private: 0, internal: 10, public: 20 })[v];
