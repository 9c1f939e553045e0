import { UserRefSchema } from "@collab/accounts-contract";
import { z } from "zod";

/**
 * The entities the namespaces service answers with (its routes' and its bus actions'), field by
 * field as its presenters build them, before JSON serialization.
 */

/** A date-time as the API presents it (ISO 8601), or null. */
const time = () => z.string().nullable();
/** A list the presenter always answers empty (nothing is shared here). */
const none = () => z.array(z.never());

/** LabelBasic: what issues and merge requests embed with `with_labels_details`. */
export const LabelBasicSchema = z.object({
  id: z.number(),
  name: z.string(),
  color: z.string(),
  text_color: z.string(),
  description: z.string().nullable(),
  description_html: z.string().nullable(),
});

/** A label as GitLab's webhooks show it (Label#hook_attrs). */
export const LabelHookAttrsSchema = z.object({
  id: z.number(),
  title: z.string(),
  color: z.string(),
  project_id: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  template: z.boolean(),
  description: z.string().nullable(),
  type: z.enum(["ProjectLabel", "GroupLabel"]),
  group_id: z.number().nullable(),
});
export type LabelHookAttrs = z.output<typeof LabelHookAttrsSchema>;

/** LabelBasic with the label's priority (project labels; null for group labels), for ordering only. */
export const LabelDetailSchema = LabelBasicSchema.extend({ priority: z.number().nullable() });

/** Entities::Milestone: project_id for a project's milestone, group_id for a group's. */
export const MilestoneSchema = z.object({
  id: z.number(),
  iid: z.number(),
  project_id: z.number().optional(),
  group_id: z.number().nullable().optional(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.string(),
  created_at: time(),
  updated_at: time(),
  due_date: z.string().nullable(),
  start_date: z.string().nullable(),
  expired: z.boolean(),
  web_url: z.string(),
});

/** A project's identity, as GitLab's ProjectIdentity entity presents it. */
export const ProjectIdentitySchema = z.object({
  id: z.number(),
  description: z.string().nullable(),
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  created_at: time(),
});

/** The group as the group API presents it. */
export const GroupSchema = z.object({
  id: z.number(),
  web_url: z.string(),
  name: z.string(),
  path: z.string(),
  description: z.string(),
  visibility: z.string(),
  share_with_group_lock: z.boolean(),
  require_two_factor_authentication: z.boolean(),
  two_factor_grace_period: z.number(),
  project_creation_level: z.string(),
  auto_devops_enabled: z.boolean().nullable(),
  subgroup_creation_level: z.string(),
  emails_disabled: z.boolean(),
  emails_enabled: z.boolean(),
  mentions_disabled: z.boolean(),
  lfs_enabled: z.boolean(),
  default_branch: z.string().nullable(),
  default_branch_protection: z.number(),
  default_branch_protection_defaults: z.object({
    allowed_to_push: z.array(z.object({ access_level: z.number() })),
    allow_force_push: z.boolean(),
    allowed_to_merge: z.array(z.object({ access_level: z.number() })),
  }),
  avatar_url: z.null(),
  request_access_enabled: z.boolean(),
  full_name: z.string(),
  full_path: z.string(),
  created_at: time(),
  parent_id: z.number().nullable(),
  organization_id: z.number(),
  shared_runners_setting: z.string(),
  ldap_cn: z.null(),
  ldap_access: z.null(),
  wiki_access_level: z.string(),
  marked_for_deletion_on: z.string().nullable(),
  repository_storage: z.string(),
});

const accessLevelEntry = () =>
  z.object({
    id: z.null(),
    access_level: z.number(),
    access_level_description: z.string(),
    deploy_key_id: z.null(),
    user_id: z.null(),
    group_id: z.null(),
  });

/** GitLab's ProtectedBranch entity. */
export const ProtectedBranchSchema = z.object({
  id: z.number(),
  name: z.string(),
  push_access_levels: z.array(accessLevelEntry()),
  merge_access_levels: z.array(accessLevelEntry()),
  unprotect_access_levels: z.array(accessLevelEntry()),
  allow_force_push: z.boolean(),
  code_owner_approval_required: z.boolean(),
  inherited: z.boolean(),
});


/** The namespace a project embeds. */
export const NamespaceRefSchema = z.object({
  id: z.number(),
  name: z.string(),
  path: z.string(),
  kind: z.string(),
  full_path: z.string(),
  parent_id: z.number().nullable(),
  avatar_url: z.null(),
  web_url: z.string(),
});

/** Entities::BasicProjectDetails (`simple=true` lists). */
export const ProjectSimpleSchema = ProjectIdentitySchema.extend({
  default_branch: z.string().nullable(),
  tag_list: z.array(z.string()),
  topics: z.array(z.string()),
  ssh_url_to_repo: z.string(),
  http_url_to_repo: z.string(),
  web_url: z.string(),
  readme_url: z.string().nullable(),
  forks_count: z.number(),
  avatar_url: z.null(),
  star_count: z.number(),
  last_activity_at: time(),
  visibility: z.string(),
  namespace: NamespaceRefSchema,
});

const projectAccess = () => z.object({ access_level: z.number(), notification_level: z.number() }).nullable();

/** Entities::Project: `owner` on personal projects only, `permissions` on GET /projects/:id only. */
export const ProjectSchema = ProjectSimpleSchema.extend({
  container_registry_image_prefix: z.string(),
  _links: z.object({
    self: z.string(),
    issues: z.string(),
    merge_requests: z.string(),
    repo_branches: z.string(),
    labels: z.string(),
    events: z.string(),
    members: z.string(),
    cluster_agents: z.string(),
  }),
  owner: UserRefSchema.nullable().optional(),
  empty_repo: z.boolean(),
  archived: z.boolean(),
  packages_enabled: z.boolean(),
  marked_for_deletion_at: z.string().nullable(),
  marked_for_deletion_on: z.string().nullable(),
  container_registry_enabled: z.boolean(),
  container_registry_access_level: z.string(),
  issues_enabled: z.boolean(),
  merge_requests_enabled: z.boolean(),
  wiki_enabled: z.boolean(),
  jobs_enabled: z.boolean(),
  snippets_enabled: z.boolean(),
  can_create_merge_request_in: z.boolean(),
  issues_access_level: z.string(),
  repository_access_level: z.string(),
  merge_requests_access_level: z.string(),
  forking_access_level: z.string(),
  wiki_access_level: z.string(),
  builds_access_level: z.string(),
  snippets_access_level: z.string(),
  pages_access_level: z.string(),
  analytics_access_level: z.string(),
  security_and_compliance_access_level: z.string(),
  emails_disabled: z.boolean(),
  emails_enabled: z.boolean(),
  shared_runners_enabled: z.boolean(),
  lfs_enabled: z.boolean(),
  creator_id: z.number().nullable(),
  import_status: z.string(),
  open_issues_count: z.number(),
  ci_default_git_depth: z.number(),
  public_jobs: z.boolean(),
  build_timeout: z.number(),
  auto_cancel_pending_pipelines: z.string(),
  ci_config_path: z.null(),
  shared_with_groups: none(),
  only_allow_merge_if_pipeline_succeeds: z.boolean(),
  allow_merge_on_skipped_pipeline: z.null(),
  request_access_enabled: z.boolean(),
  only_allow_merge_if_all_discussions_are_resolved: z.boolean(),
  remove_source_branch_after_merge: z.boolean(),
  printing_merge_request_link_enabled: z.boolean(),
  merge_method: z.string(),
  squash_option: z.string(),
  autoclose_referenced_issues: z.boolean(),
  repository_storage: z.string(),
  permissions: z.object({ project_access: projectAccess(), group_access: projectAccess() }).optional(),
});

/** A project list's item: Entities::Project, or BasicProjectDetails when the list asked `simple`. */
export const ProjectListItemSchema = z.union([ProjectSchema, ProjectSimpleSchema]);

/** GroupDetail: the group with its own projects and (always empty here) shares. */
export const GroupDetailSchema = GroupSchema.extend({
  projects: z.array(ProjectSchema),
  shared_projects: none(),
  shared_with_groups: none(),
  prevent_sharing_groups_outside_hierarchy: z.boolean(),
});

/** The custom role part of a membership (Ultimate), when it has one. */
const memberRole = () => z.object({ id: z.number(), base_access_level: z.number() }).optional();

const membership = {
  access_level: z.number(),
  created_at: time(),
  created_by: UserRefSchema.nullable(),
  expires_at: z.string().nullable(),
  membership_state: z.string(),
  member_role: memberRole(),
  /** show_seat_info only. */
  is_using_seat: z.boolean().optional(),
};

/** Entities::Member of a user. */
export const UserMemberSchema = UserRefSchema.extend({
  ...membership,
  group_saml_identity: z.object({ extern_uid: z.string(), provider: z.literal("group_saml"), saml_provider_id: z.number() }).nullable(),
});

/** A pending invitation as a member (/members/all, invitations' PUT): no user, the invited address. */
export const InvitedMemberSchema = z.object({
  id: z.null(),
  username: z.null(),
  name: z.null(),
  state: z.null(),
  locked: z.null(),
  avatar_url: z.null(),
  web_url: z.null(),
  ...membership,
  group_saml_identity: z.null(),
  invite_email: z.string().nullable(),
});

/** Entities::Member: a user's membership, or a pending invitation (no user). */
export const MemberSchema = z.union([UserMemberSchema, InvitedMemberSchema]);

/** Entities::Invitation. */
export const InvitationSchema = z.object({
  id: z.number(),
  invite_email: z.string(),
  created_at: time(),
  access_level: z.number(),
  expires_at: z.string().nullable(),
  user_name: z.null(),
  created_by_name: z.string().nullable(),
});

/** EE's Entities::BillableMember. */
export const BillableMemberSchema = UserRefSchema.extend({
  email: z.string().nullable(),
  last_activity_on: z.string().nullable(),
  membership_type: z.string(),
  removable: z.boolean(),
  created_at: z.string(),
  is_last_owner: z.boolean(),
  last_login_at: z.null(),
});

/** EE's Entities::BillableMembership. */
export const BillableMembershipSchema = z.object({
  id: z.number(),
  source_id: z.number(),
  source_full_name: z.string(),
  source_members_url: z.string(),
  created_at: time(),
  expires_at: z.string().nullable(),
  access_level: z.object({
    string_value: z.string(),
    integer_value: z.number(),
    custom_role: z.object({ id: z.number(), name: z.null() }).nullable(),
  }),
});

/** Entities::ProjectLabel (priority, is_project_label) or Entities::GroupLabel; counts only with `with_counts`. */
export const LabelSchema = LabelBasicSchema.extend({
  open_issues_count: z.number().optional(),
  closed_issues_count: z.number().optional(),
  open_merge_requests_count: z.number().optional(),
  subscribed: z.boolean(),
  priority: z.number().nullable().optional(),
  is_project_label: z.boolean().optional(),
});
