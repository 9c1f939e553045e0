import { iso } from "@collab/core";
import type { NamespaceRow } from "../db/schema";
import type { presentProject } from "../projects/project.entity";
import { namespaceWebUrl } from "../shared/namespace.entity";

export const presentGroup = (g: NamespaceRow, baseUrl: string) => ({
  id: g.id,
  web_url: namespaceWebUrl(g, baseUrl),
  name: g.name,
  path: g.path,
  description: g.description,
  visibility: g.visibility,
  share_with_group_lock: g.shareWithGroupLock,
  require_two_factor_authentication: g.requireTwoFactorAuthentication,
  two_factor_grace_period: g.twoFactorGracePeriod,
  project_creation_level: g.projectCreationLevel,
  auto_devops_enabled: g.autoDevopsEnabled,
  subgroup_creation_level: g.subgroupCreationLevel,
  emails_disabled: !g.emailsEnabled,
  emails_enabled: g.emailsEnabled,
  mentions_disabled: g.mentionsDisabled,
  lfs_enabled: g.lfsEnabled,
  default_branch: g.defaultBranch,
  default_branch_protection: 2,
  default_branch_protection_defaults: {
    allowed_to_push: [{ access_level: 40 }],
    allow_force_push: false,
    allowed_to_merge: [{ access_level: 40 }],
  },
  avatar_url: null,
  request_access_enabled: g.requestAccessEnabled,
  full_name: g.fullName,
  full_path: g.fullPath,
  created_at: iso(g.createdAt),
  parent_id: g.parentId,
  organization_id: 1,
  shared_runners_setting: "enabled",
  ldap_cn: null,
  ldap_access: null,
  wiki_access_level: "enabled",
  marked_for_deletion_on: g.markedForDeletionOn,
  repository_storage: g.repositoryStorage,
});

/** GET /groups/:id adds the group's own projects (GroupDetail). */
export const presentGroupDetail = (g: NamespaceRow, projects: ReturnType<typeof presentProject>[], baseUrl: string) => ({
  ...presentGroup(g, baseUrl),
  projects,
  shared_projects: [],
  shared_with_groups: [],
  prevent_sharing_groups_outside_hierarchy: false,
});
