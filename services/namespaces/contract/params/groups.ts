import { gBool, gDate, gEnum, gId, gInt, gIntArray, gSort, gString, paginationParams, VISIBILITIES } from "@collab/core";
import { z } from "zod";

const visibility = gEnum(VISIBILITIES as unknown as ["private", "internal", "public"]);
const projectCreationLevel = gEnum(["noone", "owner", "maintainer", "developer", "administrator"] as const);
const subgroupCreationLevel = gEnum(["owner", "maintainer"] as const);

/** The group reference in a path: numeric id or URL-decoded full path. */
export const groupRef = () => gString().refine((s) => s.length > 0, { error: "is invalid" });

const groupSettings = {
  description: gString().optional(),
  visibility: visibility.optional(),
  project_creation_level: projectCreationLevel.optional(),
  subgroup_creation_level: subgroupCreationLevel.optional(),
  request_access_enabled: gBool().optional(),
  share_with_group_lock: gBool().optional(),
  require_two_factor_authentication: gBool().optional(),
  two_factor_grace_period: gInt().optional(),
  lfs_enabled: gBool().optional(),
  emails_enabled: gBool().optional(),
  mentions_disabled: gBool().optional(),
  auto_devops_enabled: gBool().optional(),
  default_branch: gString().optional(),
};

export const CreateGroupParams = z.object({
  name: gString(),
  path: gString(),
  parent_id: gId().optional(),
  ...groupSettings,
});
export type CreateGroupParams = z.output<typeof CreateGroupParams>;

export const UpdateGroupParams = z.object({ id: groupRef(), name: gString().optional(), path: gString().optional(), ...groupSettings });
export type UpdateGroupParams = z.output<typeof UpdateGroupParams>;

export const GroupRefParams = z.object({ id: groupRef() });

export const ListGroupsParams = z.object({
  ...paginationParams,
  skip_groups: gIntArray().optional(),
  all_available: gBool().optional(),
  search: gString().optional(),
  order_by: gEnum(["name", "path", "id", "similarity"] as const).default("name"),
  sort: gSort("asc"),
  owned: gBool().optional(),
  min_access_level: gInt().optional(),
  top_level_only: gBool().optional(),
  visibility: visibility.optional(),
  statistics: gBool().optional(),
  with_custom_attributes: gBool().optional(),
  /** Groups marked for adjourned deletion on that day (Premium). */
  marked_for_deletion_on: gDate().optional(),
});
export type ListGroupsParams = z.output<typeof ListGroupsParams>;

export const ListSubgroupsParams = ListGroupsParams.extend({ id: groupRef() });
export type ListSubgroupsParams = z.output<typeof ListSubgroupsParams>;
