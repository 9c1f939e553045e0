import { AccessLevel, currentSettings, errorBodyOf, visibilityLevel, VISIBILITIES, type Visibility } from "@collab/core";
import type { GroupAttributes as Attributes } from "@collab/namespaces-contract";

/** Settings an import applies to a group besides name, path and visibility. */
export function settingsOf(a: Attributes) {
  const { name: _n, path: _p, visibility: _v, auto_devops_enabled, default_branch, ...rest } = a;
  return {
    ...rest,
    ...(auto_devops_enabled !== undefined && auto_devops_enabled !== null && { auto_devops_enabled }),
    ...(default_branch !== undefined && default_branch !== null && { default_branch }),
  };
}

/**
 * Gitlab::VisibilityLevel.closest_allowed_level: the most open level up to `max` that the
 * application settings do not restrict (administrators are never restricted), else private.
 */
export function closestAllowedVisibility(max: Visibility, admin: boolean): Visibility {
  const restricted = admin ? [] : (currentSettings().restricted_visibility_levels as string[]);
  const allowed = [...VISIBILITIES].reverse().find((v) => visibilityLevel(v) <= visibilityLevel(max) && !restricted.includes(v));
  return allowed ?? "private";
}

/** A client error of a domain write (a taken title, an invalid colour): the record is skipped. */
export const isRecordError = (err: unknown) => {
  const known = errorBodyOf(err);
  return known !== undefined && known.status < 500;
};

/** The access levels a restored membership may have. */
export const MEMBER_LEVELS: readonly number[] = [AccessLevel.MINIMAL_ACCESS, AccessLevel.GUEST, AccessLevel.PLANNER, AccessLevel.REPORTER, AccessLevel.DEVELOPER, AccessLevel.MAINTAINER, AccessLevel.OWNER];
