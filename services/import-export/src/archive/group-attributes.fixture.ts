import type { GroupAttributes } from "./format";

/** Tests: a group's exported attributes as a new private group has them, with `extra` over them. */
export const groupAttributes = (name: string, path: string, extra: Partial<GroupAttributes> = {}): GroupAttributes => ({
  name,
  path,
  description: "",
  visibility: "private",
  project_creation_level: "developer",
  subgroup_creation_level: "maintainer",
  request_access_enabled: true,
  share_with_group_lock: false,
  require_two_factor_authentication: false,
  two_factor_grace_period: 48,
  lfs_enabled: true,
  emails_enabled: true,
  mentions_disabled: false,
  auto_devops_enabled: null,
  default_branch: null,
  ...extra,
});
