import type { Visibility } from "@collab/core";
import type { NamespaceRow } from "../db/schema";

/** A group's attributes as an export archive carries them. */
export const presentAttributes = (g: NamespaceRow) => ({
  name: g.name,
  path: g.path,
  description: g.description,
  visibility: g.visibility as Visibility,
  project_creation_level: g.projectCreationLevel,
  subgroup_creation_level: g.subgroupCreationLevel,
  request_access_enabled: g.requestAccessEnabled,
  share_with_group_lock: g.shareWithGroupLock,
  require_two_factor_authentication: g.requireTwoFactorAuthentication,
  two_factor_grace_period: g.twoFactorGracePeriod,
  lfs_enabled: g.lfsEnabled,
  emails_enabled: g.emailsEnabled,
  mentions_disabled: g.mentionsDisabled,
  auto_devops_enabled: g.autoDevopsEnabled,
  default_branch: g.defaultBranch,
});
