import { currentSettings, validationFailed, type Caller } from "@collab/core";

/**
 * restricted_visibility_levels (application settings): non-administrators may not create a project
 * or group at a restricted level, whether they asked for it or it is the instance default, nor
 * change one to a restricted level with PUT (GitLab's Gitlab::VisibilityLevel.allowed_for?,
 * valid_visibility_level_change? and deny_visibility_level).
 */
export function restrictedVisibilityErrors(caller: Caller, visibility: string) {
  if (caller.admin) return;
  if ((currentSettings().restricted_visibility_levels as string[]).includes(visibility))
    throw validationFailed({ visibility_level: [`${visibility} has been restricted by your GitLab administrator`] });
}
