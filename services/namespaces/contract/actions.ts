import { actionContract, gBool, gDateTime, gId, gInt, MEMBER_ACCESS_LEVELS, noContent, pageOf, replyOf, type OutputOf } from "@collab/core";
import { z } from "zod";
import {
  BillableMemberSchema,
  BillableMembershipSchema,
  GroupDetailSchema,
  GroupSchema,
  InvitationSchema,
  InvitedMemberSchema,
  LabelBasicSchema,
  LabelDetailSchema,
  LabelHookAttrsSchema,
  LabelSchema,
  MemberSchema,
  MilestoneSchema,
  ProjectIdentitySchema,
  ProjectListItemSchema,
  ProjectSchema,
  ProtectedBranchSchema,
} from "./entities";
import { DeleteGroupParams, DeleteProjectParams } from "./params/deletion";
import { CreateGroupParams, GroupRefParams, ListGroupsParams, ListSubgroupsParams, UpdateGroupParams } from "./params/groups";
import { CreateInvitationsParams, InvitationParams, InviteTokenParams, ListInvitationsParams, UpdateInvitationParams } from "./params/invitations";
import { CreateLabelParams, DeleteLabelParams, GetLabelParams, ListLabelsParams, UpdateLabelParams } from "./params/labels";
import { AddMemberParams, BillableMemberParams, BillableMembersParams, ListMembersParams, MemberParams, RemoveMemberParams, UpdateMemberParams } from "./params/members";
import { CreateMilestoneParams, ListMilestonesParams, MilestoneRefParams, UpdateMilestoneParams } from "./params/milestones";
import { CreateProjectParams, ListGroupProjectsParams, ListProjectsParams, ProjectRefParams, UpdateProjectParams } from "./params/projects";
import { ListProtectedBranchesParams, ProtectBranchParams, ProtectedBranchParams, UpdateProtectedBranchParams } from "./params/protected-branches";

/**
 * Actions of the namespaces service: those other services call over the bus and those behind its
 * HTTP routes (routes.ts names them). Each entry: the full name, the input the action validates,
 * the answer it gives (before the gateway turns an envelope into HTTP), and whether a caller may
 * retry it.
 */

const ids = (max = 1000) => z.array(z.number().int()).max(max);
const ref = () => z.union([z.string(), z.number()]);
/** A date-time as the API presents it (ISO 8601), or null. */
const time = () => z.string().nullable();
/** `{ [user_id]: … }`: JSON object keys, numbers in TypeScript. */
const byId = <T extends z.ZodType>(value: T) => z.record(z.number(), value);

/** Relations per restore call (groups.addRelations, groups.relationPage); the import worker sends larger lists in several calls. */
export const RESTORE_BATCH = 500;

/** Who an import acts for: the user who started it, authorized by the import-export service. */
export const ImporterSchema = z.object({ id: z.number().int(), username: z.string(), admin: z.boolean() });

/** A group's attributes as an export archive carries them (every one optional). */
export const GroupAttributesSchema = z
  .object({
    name: z.string(),
    path: z.string(),
    description: z.string(),
    visibility: z.enum(["private", "internal", "public"]),
    project_creation_level: z.enum(["noone", "owner", "maintainer", "developer", "administrator"]),
    subgroup_creation_level: z.enum(["owner", "maintainer"]),
    request_access_enabled: z.boolean(),
    share_with_group_lock: z.boolean(),
    require_two_factor_authentication: z.boolean(),
    two_factor_grace_period: z.number().int().min(0),
    lfs_enabled: z.boolean(),
    emails_enabled: z.boolean(),
    mentions_disabled: z.boolean(),
    auto_devops_enabled: z.boolean().nullable(),
    default_branch: z.string().nullable(),
  })
  .partial();
export type GroupAttributes = z.output<typeof GroupAttributesSchema>;

const labelNames = () => z.array(z.string()).max(1000).optional();

/** What a work item write asks namespaces to check: assignees' access, a milestone, label names. */
export const WorkItemInputSchema = z.object({
  assignee_ids: ids().optional(),
  milestone_id: z.number().int().optional(),
  labels: z.object({ labels: labelNames(), add_labels: labelNames(), remove_labels: labelNames() }).optional(),
});
export type WorkItemInputRequest = z.input<typeof WorkItemInputSchema>;

const accessOfUser = () => z.object({ access_level: z.number(), can_read: z.boolean() });

/** What namespaces answers to a work item write's input (only the parts asked for). */
export const WorkItemInputAnswerSchema = z.object({
  assignee_levels: byId(accessOfUser()).optional(),
  milestone: MilestoneSchema.nullable().optional(),
  labels: z.object({ labels: z.array(LabelDetailSchema).nullable(), add_labels: z.array(LabelDetailSchema), remove_labels: z.array(LabelDetailSchema) }).optional(),
});

/** Everything another service needs to know about a project to authorize and present it. */
export const ProjectAccessSummarySchema = ProjectIdentitySchema.extend({
  namespace_id: z.number(),
  namespace_full_path: z.string(),
  namespace_kind: z.string(),
  group_ids: z.array(z.number()),
  visibility: z.string(),
  archived: z.boolean(),
  default_branch: z.string().nullable(),
  web_url: z.string(),
  issues_access_level: z.string(),
  merge_requests_access_level: z.string(),
  snippets_access_level: z.string(),
  builds_access_level: z.string(),
  /** Who reads the code (and comments on commits): enabled, private (members) or disabled. */
  repository_access_level: z.string(),
  repository_storage: z.string(),
  repository_read_only: z.boolean(),
  only_allow_merge_if_all_discussions_are_resolved: z.boolean(),
  remove_source_branch_after_merge: z.boolean(),
  squash_option: z.string(),
});

const ProjectAccessSchema = z.object({
  project: ProjectAccessSummarySchema,
  access_level: z.number(),
  /** Effective role: 60 for administrators. */
  role: z.number(),
});

const storageKind = () => z.enum(["project", "group"]);


export const NamespacesActions = {
  access: {
    /** The project as the caller may read it, with their level and role (404 otherwise). A pure read. */
    project: actionContract("namespaces.access.project", {
      input: () => z.object({ project: ref() }),
      output: () => ProjectAccessSchema,
      idempotent: true,
    }),
    /** The group as the caller may read it, with its traversal ids and the caller's level and role (404 otherwise). */
    group: actionContract("namespaces.access.group", {
      input: () => z.object({ group: ref() }),
      output: () => z.object({ group: GroupSchema, traversal_ids: z.array(z.number()), access_level: z.number(), role: z.number() }),
      idempotent: true,
    }),
    /** "What access does user U have on project/group X": inheritance group → subgroup → project. */
    level: actionContract("namespaces.access.level", {
      input: () => z.object({ user_id: z.number().int(), project_id: z.number().int().optional(), group_id: z.number().int().optional() }),
      output: () => z.object({ access_level: z.number() }),
      idempotent: true,
    }),
    /** Access levels of several users on one project (assignee checks): `{ [user_id]: { access_level, can_read } }`. */
    levelsOnProject: actionContract("namespaces.access.levelsOnProject", {
      input: () => z.object({ project_id: z.number().int(), user_ids: ids() }),
      output: () => byId(accessOfUser()),
      idempotent: true,
    }),
    /** Effective levels of users on several projects: `{ [project_id]: { [user_id]: level } }`, 0 for non-members. */
    levelsOnProjects: actionContract("namespaces.access.levelsOnProjects", {
      input: () => z.object({ pairs: z.array(z.object({ project_id: z.number().int(), user_ids: ids() })).max(1000) }),
      output: () => byId(byId(z.number())),
      idempotent: true,
    }),
    /** Groups where the caller's effective level is at least `min_access_level`, subgroups included. */
    callerGroups: actionContract("namespaces.access.callerGroups", {
      input: () => z.object({ min_access_level: z.number().int() }),
      output: () => z.array(z.object({ id: z.number(), access_level: z.number() })),
      idempotent: true,
    }),
  },

  groups: {
    /** GET /groups: the groups the caller may see. */
    list: actionContract("namespaces.groups.list", { input: () => ListGroupsParams, output: () => pageOf(GroupSchema), idempotent: true }),
    /** GET /groups/:id/subgroups: the group's direct subgroups the caller may see. */
    subgroups: actionContract("namespaces.groups.subgroups", { input: () => ListSubgroupsParams, output: () => pageOf(GroupSchema), idempotent: true }),
    /** GET /groups/:id/descendant_groups: every subgroup below the group the caller may see. */
    descendants: actionContract("namespaces.groups.descendants", { input: () => ListSubgroupsParams, output: () => pageOf(GroupSchema), idempotent: true }),
    /** GET /groups/:id: GroupDetail, or the plain group with `with_projects=false`. */
    get: actionContract("namespaces.groups.get", {
      input: () => GroupRefParams.extend({ with_projects: z.stringbool().optional() }),
      output: () => z.union([GroupDetailSchema, GroupSchema]),
      idempotent: true,
    }),
    /** POST /groups, also asked over the bus (a group import creates its group as the caller): GroupDetail. */
    create: actionContract("namespaces.groups.create", {
      input: () => CreateGroupParams,
      output: () => GroupDetailSchema,
    }),
    /** PUT /groups/:id (Owners): GroupDetail. */
    update: actionContract("namespaces.groups.update", { input: () => UpdateGroupParams, output: () => GroupDetailSchema }),
    /** GET /groups/:id/projects: the group's projects (and its subgroups' with `include_subgroups`). */
    projects: actionContract("namespaces.groups.projects", { input: () => ListGroupProjectsParams, output: () => pageOf(ProjectListItemSchema), idempotent: true }),
    /** DELETE /groups/:id (Owners): 202, whether marked for adjourned deletion or removed. */
    delete: actionContract("namespaces.groups.delete", { input: () => DeleteGroupParams, output: () => replyOf(z.object({ message: z.string() }), 202) }),
    /** POST /groups/:id/restore (Premium): the group unmarked, as GroupDetail. */
    restore: actionContract("namespaces.groups.restore", { input: () => GroupRefParams, output: () => GroupDetailSchema }),
    /** Members added after `since` to the group or its subgroups (project memberships not counted). */
    newMembersCount: actionContract("namespaces.groups.newMembersCount", {
      input: () => z.object({ group_id: z.number().int(), since: z.coerce.date() }),
      output: () => z.number(),
      idempotent: true,
    }),
    /** The group and its descendants, parents before children: what an export walks. */
    tree: actionContract("namespaces.groups.tree", {
      input: () => z.object({ group_id: z.number().int() }),
      output: () =>
        z.array(
          z.object({
            id: z.number(),
            parent_id: z.number().nullable(),
            full_path: z.string(),
            created_at: time(),
            updated_at: time(),
            attributes: z.object({
              name: z.string(),
              path: z.string(),
              description: z.string(),
              visibility: z.enum(["private", "internal", "public"]),
              project_creation_level: z.string(),
              subgroup_creation_level: z.string(),
              request_access_enabled: z.boolean(),
              share_with_group_lock: z.boolean(),
              require_two_factor_authentication: z.boolean(),
              two_factor_grace_period: z.number(),
              lfs_enabled: z.boolean(),
              emails_enabled: z.boolean(),
              mentions_disabled: z.boolean(),
              auto_devops_enabled: z.boolean().nullable(),
              default_branch: z.string().nullable(),
            }),
          }),
        ),
      idempotent: true,
    }),
    /** One page of a group's own labels, milestones or direct members (with usernames), by id after `after`. */
    relationPage: actionContract("namespaces.groups.relationPage", {
      input: () =>
        z.object({
          group_id: z.number().int(),
          relation: z.enum(["labels", "milestones", "members"]),
          after: z.number().int().default(0),
          limit: z.number().int().min(1).max(RESTORE_BATCH).default(RESTORE_BATCH),
        }),
      output: () =>
        z.union([
          z.array(z.object({ id: z.number(), title: z.string(), color: z.string(), description: z.string().nullable(), created_at: time(), updated_at: time() })),
          z.array(
            z.object({
              id: z.number(),
              iid: z.number(),
              title: z.string(),
              description: z.string().nullable(),
              state: z.string(),
              due_date: z.string().nullable(),
              start_date: z.string().nullable(),
              created_at: time(),
              updated_at: time(),
            }),
          ),
          z.array(
            z.object({
              id: z.number(),
              user_id: z.number(),
              username: z.string().nullable(),
              access_level: z.number(),
              expires_at: z.string().nullable(),
              created_at: time(),
            }),
          ),
        ]),
      idempotent: true,
    }),
    /** Applies an archive's settings to an imported group (`group_id`), or creates a subgroup of `parent_id`. */
    createOrUpdateFromAttributes: actionContract("namespaces.groups.createOrUpdateFromAttributes", {
      input: () =>
        z
          .object({ importer: ImporterSchema, group_id: z.number().int().optional(), parent_id: z.number().int().optional(), attributes: GroupAttributesSchema })
          .refine((v) => (v.group_id === undefined) !== (v.parent_id === undefined), { message: "group_id, parent_id are mutually exclusive" }),
      output: () => z.object({ id: z.number(), full_path: z.string() }),
    }),
    /** Adds labels, milestones and members to a restored group, at most RESTORE_BATCH of each per call. */
    addRelations: actionContract("namespaces.groups.addRelations", {
      input: () =>
        z.object({
          group_id: z.number().int(),
          importer: ImporterSchema,
          labels: z.array(z.object({ title: z.string(), color: z.string(), description: z.string().nullable() })).max(RESTORE_BATCH).default([]),
          milestones: z
            .array(
              z.object({
                title: z.string(),
                description: z.string().nullable(),
                state: z.enum(["active", "closed"]),
                due_date: z.string().nullable(),
                start_date: z.string().nullable(),
              }),
            )
            .max(RESTORE_BATCH)
            .default([]),
          members: z
            .array(z.object({ username: z.string(), access_level: z.number().int(), expires_at: z.string().nullable() }))
            .max(RESTORE_BATCH)
            .default([]),
        }),
      output: () => z.object({ labels: z.number(), milestones: z.number(), members: z.number(), skipped: z.number() }),
    }),
    /** Groups among these ids that the caller may see, presented (approval rule groups). */
    visibleByIds: actionContract("namespaces.groups.visibleByIds", {
      input: () => z.object({ ids: ids() }),
      output: () => z.array(GroupSchema),
      idempotent: true,
    }),
  },

  projects: {
    /** GET /projects: the projects the caller may see (BasicProjectDetails with `simple`). */
    list: actionContract("namespaces.projects.list", { input: () => ListProjectsParams, output: () => pageOf(ProjectListItemSchema), idempotent: true }),
    /** GET /projects/:id: the project with the caller's permissions. */
    get: actionContract("namespaces.projects.get", { input: () => ProjectRefParams, output: () => ProjectSchema, idempotent: true }),
    /** POST /projects: in the caller's personal namespace or a group they may create projects in. */
    create: actionContract("namespaces.projects.create", { input: () => CreateProjectParams, output: () => ProjectSchema }),
    /** PUT /projects/:id (Maintainers; visibility: Owners). */
    update: actionContract("namespaces.projects.update", { input: () => UpdateProjectParams, output: () => ProjectSchema }),
    /** DELETE /projects/:id (Owners): 202, whether marked for adjourned deletion or removed. */
    delete: actionContract("namespaces.projects.delete", { input: () => DeleteProjectParams, output: () => replyOf(z.object({ message: z.string() }), 202) }),
    /** POST /projects/:id/restore (Premium): the project unmarked. */
    restore: actionContract("namespaces.projects.restore", { input: () => ProjectRefParams, output: () => ProjectSchema }),
    /** Summaries of these projects, readable or not: callers have already authorized the rows. */
    summaries: actionContract("namespaces.projects.summaries", {
      input: () => z.object({ ids: ids() }),
      output: () =>
        z.array(
          z.object({
            id: z.number(),
            name: z.string(),
            path: z.string(),
            path_with_namespace: z.string(),
            namespace_id: z.number(),
            namespace_name: z.string(),
            namespace_kind: z.string(),
            group_ids: z.array(z.number()),
            visibility: z.string(),
            web_url: z.string(),
            default_branch: z.string().nullable(),
            only_allow_merge_if_all_discussions_are_resolved: z.boolean(),
          }),
        ),
      idempotent: true,
    }),
    /** Projects the caller may read (optionally inside one group) with the caller's level on each; `all: true` means no restriction. */
    readable: actionContract("namespaces.projects.readable", {
      input: () => z.object({ group: ref().optional(), membership_only: z.boolean().default(false) }),
      output: () =>
        z.object({
          all: z.boolean(),
          projects: z.array(
            z.object({
              id: z.number(),
              access_level: z.number(),
              issues_access_level: z.string(),
              merge_requests_access_level: z.string(),
              snippets_access_level: z.string(),
              visibility: z.string(),
              archived: z.boolean(),
            }),
          ),
        }),
      idempotent: true,
    }),
  },

  deletions: {
    /** One adjourned-deletion purge pass (the timer runs the same); `now` defaults to the current time. */
    purgeDue: actionContract("namespaces.deletions.purgeDue", {
      input: () => z.object({ now: gDateTime().optional() }),
      output: () => z.object({ group_ids: z.array(z.number()), project_ids: z.array(z.number()) }),
    }),
  },

  workItems: {
    /** The labels and milestones a page of issues or merge requests names, in one call; unknown ids are skipped. */
    refs: actionContract("namespaces.workItems.refs", {
      input: () => z.object({ label_ids: ids().default([]), milestone_ids: ids().default([]) }),
      output: () => z.object({ labels: z.array(LabelDetailSchema), milestones: z.array(MilestoneSchema) }),
      idempotent: true,
    }),
    /**
     * Everything a work item write checks here (assignees' access, the milestone, label names:
     * unknown ones become project labels), on a project the caller service has authorized.
     */
    resolveInput: actionContract("namespaces.workItems.resolveInput", {
      input: () => WorkItemInputSchema.extend({ project_id: z.number().int() }),
      output: () => WorkItemInputAnswerSchema,
    }),
    /**
     * An issue write's authorization and input in one call: the project as access.project answers
     * it and, when the caller may reach its issues, `issue_input` as workItems.resolveInput answers
     * it (unknown label names may become labels: not a read).
     */
    authorizeIssueWrite: actionContract("namespaces.workItems.authorizeIssueWrite", {
      input: () => z.object({ project: ref(), issue_input: WorkItemInputSchema }),
      output: () => ProjectAccessSchema.extend({ issue_input: WorkItemInputAnswerSchema.optional() }),
    }),
  },

  members: {
    /** GET /:source/:id/members(/all), also asked over the bus (accounts reads its bots' levels). */
    list: actionContract("namespaces.members.list", {
      input: () => ListMembersParams.extend({ inherited: gBool().default(false) }),
      output: () => pageOf(MemberSchema),
      idempotent: true,
    }),
    /**
     * POST /:source/:id/members, also asked over the bus (accounts makes a bot a member, checked
     * as the caller): the member; with several users GitLab's status answer; a queued promotion's message.
     */
    add: actionContract("namespaces.members.add", {
      input: () => AddMemberParams,
      output: () =>
        z.union([
          MemberSchema,
          // Several users: Members::CreateService's answer, its errors in one sentence.
          z.object({ status: z.string(), message: z.string().optional(), queued_users: z.record(z.string(), z.string()).optional() }),
          z.object({ message: z.record(z.string(), z.string()) }),
        ]),
    }),
    /** GET /:source/:id/members(/all)/:user_id. */
    get: actionContract("namespaces.members.get", {
      input: () => MemberParams.extend({ inherited: gBool().default(false) }),
      output: () => MemberSchema,
      idempotent: true,
    }),
    /** PUT /:source/:id/members/:user_id. */
    update: actionContract("namespaces.members.update", { input: () => UpdateMemberParams, output: () => MemberSchema }),
    /** DELETE /:source/:id/members/:user_id (204). */
    remove: actionContract("namespaces.members.remove", { input: () => RemoveMemberParams, output: () => noContent() }),
    /** Direct members (Guest and up, not expired) of each group: `{ [group_id]: user_id[] }`. */
    groupUserIds: actionContract("namespaces.members.groupUserIds", {
      input: () => z.object({ group_ids: ids() }),
      output: () => byId(z.array(z.number())),
      idempotent: true,
    }),
  },

  billableMembers: {
    /** GET /groups/:id/billable_members (Premium, Owners of a top-level group). */
    list: actionContract("namespaces.billableMembers.list", { input: () => BillableMembersParams, output: () => pageOf(BillableMemberSchema), idempotent: true }),
    /** GET /groups/:id/billable_members/:user_id/memberships: the user's direct memberships in the hierarchy. */
    memberships: actionContract("namespaces.billableMembers.memberships", {
      input: () => BillableMemberParams,
      output: () => pageOf(BillableMembershipSchema),
      idempotent: true,
    }),
    /** DELETE /groups/:id/billable_members/:user_id: every membership of the user in the hierarchy (204). */
    remove: actionContract("namespaces.billableMembers.remove", { input: () => BillableMemberParams.pick({ id: true, user_id: true }), output: () => noContent() }),
  },

  invitations: {
    /** POST /:source/:id/invitations: GitLab's {status, message: {key: reason}} (message a sentence for a blank or too long list). */
    create: actionContract("namespaces.invitations.create", {
      input: () => CreateInvitationsParams,
      output: () =>
        z.object({
          status: z.string(),
          message: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
          queued_users: z.record(z.string(), z.string()).optional(),
        }),
    }),
    /** GET /:source/:id/invitations. */
    list: actionContract("namespaces.invitations.list", { input: () => ListInvitationsParams, output: () => pageOf(InvitationSchema), idempotent: true }),
    /** PUT /:source/:id/invitations/:email: the invitation as an invited member. */
    update: actionContract("namespaces.invitations.update", { input: () => UpdateInvitationParams, output: () => InvitedMemberSchema }),
    /** DELETE /:source/:id/invitations/:email (204). */
    remove: actionContract("namespaces.invitations.remove", { input: () => InvitationParams, output: () => noContent() }),
    /** GET /-/invites/:token: the invitation its mail links to, for whoever holds the token. */
    show: actionContract("namespaces.invitations.show", {
      input: () => InviteTokenParams,
      output: () =>
        z.object({
          invite_email: z.string(),
          access_level: z.number(),
          role: z.string(),
          expires_at: z.string().nullable(),
          source_type: z.enum(["project", "group"]),
          source_name: z.string(),
          source_web_url: z.string(),
          created_by_name: z.string().nullable(),
          accept_url: z.string(),
        }),
      idempotent: true,
    }),
    /** POST /-/invites/:token/accept: the invited user becomes a member. */
    accept: actionContract("namespaces.invitations.accept", {
      input: () => InviteTokenParams,
      output: () => z.object({ message: z.string(), source_type: z.enum(["project", "group"]), source_web_url: z.string(), access_level: z.number() }),
    }),
  },

  provisioning: {
    /** The group a SCIM URL names, by id or full path, whatever its visibility; null when none. */
    group: actionContract("namespaces.provisioning.group", {
      input: () => z.object({ group: z.string().min(1) }),
      output: () => z.object({ id: z.number(), name: z.string(), full_path: z.string(), parent_id: z.number().nullable() }).nullable(),
      idempotent: true,
    }),
    /** A direct membership at `access_level` unless the user already has one. */
    addMember: actionContract("namespaces.provisioning.addMember", {
      input: () =>
        z.object({
          group_id: gId(),
          user_id: gId(),
          access_level: gInt().refine((n) => (MEMBER_ACCESS_LEVELS as readonly number[]).includes(n), { error: "does not have a valid value" }),
        }),
      output: () => z.object({ added: z.boolean() }),
    }),
    /** The user's memberships of the group and everything below it go ("last_owner": nothing removed). */
    removeMember: actionContract("namespaces.provisioning.removeMember", {
      input: () => z.object({ group_id: gId(), user_id: gId() }),
      output: () => z.object({ outcome: z.enum(["removed", "not_member", "last_owner"]) }),
    }),
  },

  userNamespaces: {
    /** Is `path` free for that user's personal namespace (no group or other user's namespace has it)? */
    pathAvailable: actionContract("namespaces.userNamespaces.pathAvailable", {
      input: () => z.object({ path: z.string().min(1), user_id: z.number().int() }),
      output: () => z.object({ available: z.boolean() }),
      idempotent: true,
    }),
  },

  labels: {
    /** GET /:source/:id/labels. */
    list: actionContract("namespaces.labels.list", { input: () => ListLabelsParams, output: () => pageOf(LabelSchema), idempotent: true }),
    /** GET /:source/:id/labels/:label_id (an id or a title). */
    get: actionContract("namespaces.labels.get", { input: () => GetLabelParams, output: () => LabelSchema, idempotent: true }),
    /** POST /:source/:id/labels. */
    create: actionContract("namespaces.labels.create", { input: () => CreateLabelParams, output: () => LabelSchema }),
    /** PUT /:source/:id/labels(/:label_id). */
    update: actionContract("namespaces.labels.update", { input: () => UpdateLabelParams, output: () => LabelSchema }),
    /** DELETE /:source/:id/labels(/:label_id) (204). */
    delete: actionContract("namespaces.labels.delete", { input: () => DeleteLabelParams, output: () => noContent() }),
    /** Labels by exact name as the project sees them, as LabelBasic sorted by title; `create_missing` creates unknown ones. */
    resolveForProject: actionContract("namespaces.labels.resolveForProject", {
      input: () => z.object({ project_id: z.number().int(), names: z.array(z.string()).max(1000), create_missing: z.boolean().default(false) }),
      output: () => z.array(LabelBasicSchema),
    }),
    /**
     * Labels by exact name as the group sees them (its own and its ancestors'), as LabelBasic sorted
     * by title; `create_missing` makes unknown ones group labels (epics' labels). The caller service
     * has already authorized reading the group.
     */
    resolveForGroup: actionContract("namespaces.labels.resolveForGroup", {
      input: () => z.object({ group_id: z.number().int(), names: z.array(z.string()).max(1000), create_missing: z.boolean().default(false) }),
      output: () => z.array(LabelBasicSchema),
    }),
    /** LabelBasic with priority for these ids (any container), sorted by title; unknown ids are skipped. */
    /** Labels of these ids (any container) as webhooks show them; unknown ids are skipped. */
    hookAttrs: actionContract("namespaces.labels.hookAttrs", { input: () => z.object({ ids: ids() }), output: () => z.array(LabelHookAttrsSchema), idempotent: true }),
    byIds: actionContract("namespaces.labels.byIds", {
      input: () => z.object({ ids: ids() }),
      output: () => z.array(LabelDetailSchema),
      idempotent: true,
    }),
    /** Label ids per exact title, among the labels of the given projects and their ancestor groups. */
    idsByTitles: actionContract("namespaces.labels.idsByTitles", {
      input: () => z.object({ titles: z.array(z.string()).max(100), project_ids: z.array(z.number().int()).nullable().default(null) }),
      output: () => z.record(z.string(), z.array(z.number())),
      idempotent: true,
    }),
  },

  milestones: {
    /** GET /:source/:id/milestones. */
    list: actionContract("namespaces.milestones.list", { input: () => ListMilestonesParams, output: () => pageOf(MilestoneSchema), idempotent: true }),
    /** GET /:source/:id/milestones/:milestone_id. */
    get: actionContract("namespaces.milestones.get", { input: () => MilestoneRefParams, output: () => MilestoneSchema, idempotent: true }),
    /** POST /:source/:id/milestones. */
    create: actionContract("namespaces.milestones.create", { input: () => CreateMilestoneParams, output: () => MilestoneSchema }),
    /** PUT /:source/:id/milestones/:milestone_id. */
    update: actionContract("namespaces.milestones.update", { input: () => UpdateMilestoneParams, output: () => MilestoneSchema }),
    /** DELETE /:source/:id/milestones/:milestone_id (204). */
    delete: actionContract("namespaces.milestones.delete", { input: () => MilestoneRefParams, output: () => noContent() }),
    /** Milestone entities (as issues embed them) for these ids; unknown ids are skipped. */
    byIds: actionContract("namespaces.milestones.byIds", {
      input: () => z.object({ ids: ids() }),
      output: () => z.array(MilestoneSchema),
      idempotent: true,
    }),
    /** The milestone with this id (or else this exact title) of the project or an ancestor group, or null. */
    findForProject: actionContract("namespaces.milestones.findForProject", {
      input: () =>
        z
          .object({ project_id: z.number().int(), id: z.number().int().optional(), title: z.string().optional() })
          .refine((v) => v.id !== undefined || v.title !== undefined, { message: "id, title are missing, at least one parameter must be provided" }),
      output: () => MilestoneSchema.nullable(),
      idempotent: true,
    }),
    /** Milestone ids matching a filter value: titles, or the Upcoming / Started / Any sentinels. */
    idsMatching: actionContract("namespaces.milestones.idsMatching", {
      input: () => z.object({ titles: z.array(z.string()).max(100).optional(), sentinel: z.enum(["Any", "Upcoming", "Started"]).optional() }),
      output: () => z.array(z.number()),
      idempotent: true,
    }),
  },

  refs: {
    /** Merges a merge request's branches (the merge-requests service has authorized it). */
    mergeBranches: actionContract("namespaces.refs.mergeBranches", {
      input: () =>
        z.object({
          project_id: z.number().int().positive(),
          source_branch: z.string(),
          target_branch: z.string(),
          sha: z.string().optional(),
          message: z.string(),
          squash: z.boolean(),
          squash_message: z.string().optional(),
          remove_source_branch: z.boolean(),
          user_id: z.number().int(),
          author_name: z.string(),
          author_email: z.string(),
        }),
      output: () => z.object({ merge_commit_sha: z.string(), squash_commit_sha: z.string().nullable(), source_sha: z.string(), source_branch_removed: z.boolean() }),
    }),
  },

  protectedBranches: {
    /** GET /projects/:id/protected_branches (Maintainers). */
    list: actionContract("namespaces.protectedBranches.list", { input: () => ListProtectedBranchesParams, output: () => pageOf(ProtectedBranchSchema), idempotent: true }),
    /** GET /projects/:id/protected_branches/:name. */
    get: actionContract("namespaces.protectedBranches.get", { input: () => ProtectedBranchParams, output: () => ProtectedBranchSchema, idempotent: true }),
    /** POST /projects/:id/protected_branches. */
    create: actionContract("namespaces.protectedBranches.create", { input: () => ProtectBranchParams, output: () => ProtectedBranchSchema }),
    /** PATCH /projects/:id/protected_branches/:name. */
    update: actionContract("namespaces.protectedBranches.update", { input: () => UpdateProtectedBranchParams, output: () => ProtectedBranchSchema }),
    /** DELETE /projects/:id/protected_branches/:name (204). */
    delete: actionContract("namespaces.protectedBranches.delete", { input: () => ProtectedBranchParams, output: () => noContent() }),
    /** The minimum access level that may merge into a branch (30 when unprotected; 61 for "No one"). */
    mergeAccessLevel: actionContract("namespaces.protectedBranches.mergeAccessLevel", {
      input: () => z.object({ project_id: z.number().int(), branch: z.string() }),
      output: () => z.object({ access_level: z.number() }),
      idempotent: true,
    }),
    /** A project's protected branches by id, presented; foreign ids are dropped. */
    byIds: actionContract("namespaces.protectedBranches.byIds", {
      input: () => z.object({ project_id: z.number().int(), ids: ids() }),
      output: () => z.array(ProtectedBranchSchema),
      idempotent: true,
    }),
    /**
     * What a push to each branch needs (the repositories service's pre-receive check): whether
     * any protection matches, the lowest roles that may push and merge (61: no one; the repository's
     * branches API presents them too), and whether any matching
     * protection allows force pushes. The default branch's protection is applied first, as on
     * every look at a project's protections.
     */
    pushRules: actionContract("namespaces.protectedBranches.pushRules", {
      input: () => z.object({ project_id: z.number().int(), branches: z.array(z.string().max(1024)).min(1).max(1000) }),
      output: () => z.array(z.object({ branch: z.string(), protected: z.boolean(), push_access_level: z.number(), merge_access_level: z.number(), allow_force_push: z.boolean() })),
      idempotent: true,
    }),
    /** For each {project_id, branch}, the ids of the project's protected branches matching it, in the order asked. */
    matching: actionContract("namespaces.protectedBranches.matching", {
      input: () => z.object({ pairs: z.array(z.object({ project_id: z.number().int(), branch: z.string() })).max(1000) }),
      output: () => z.array(z.array(z.number())),
      idempotent: true,
    }),
  },

  storage: {
    /** The storage and read-only flag of one project or group, by id or path (404 for an unknown one). */
    state: actionContract("namespaces.storage.state", {
      input: () => z.object({ kind: storageKind(), ref: ref() }),
      output: () => z.object({ id: z.number(), repository_storage: z.string(), repository_read_only: z.boolean() }),
      idempotent: true,
    }),
    /** Ids of the writable projects or groups on a storage (bulk moves). */
    writableIds: actionContract("namespaces.storage.writableIds", {
      input: () => z.object({ kind: storageKind(), storage: z.string() }),
      output: () => z.array(z.number()),
      idempotent: true,
    }),
    /** Sets the read-only flag (and the new storage when a move is done); answers the ids actually changed. */
    setState: actionContract("namespaces.storage.setState", {
      input: () =>
        z.object({
          kind: storageKind(),
          ids: ids(10_000),
          read_only: z.boolean(),
          storage: z.string().optional(),
          expect_writable: z.boolean().default(false),
          locked_on: z.string().optional(),
        }),
      output: () => z.array(z.number()),
    }),
    /** What a storage move record embeds: the projects ({id, description, name, …}) or groups ({id, web_url, name}). */
    containers: actionContract("namespaces.storage.containers", {
      input: () => z.object({ kind: storageKind(), ids: ids() }),
      output: () =>
        z.union([
          z.array(ProjectIdentitySchema),
          z.array(z.object({ id: z.number(), web_url: z.string(), name: z.string() })),
        ]),
      idempotent: true,
    }),
  },
};

type A = typeof NamespacesActions;

/** A project as another service sees it once authorized (access.project). */
export type ProjectAccess = OutputOf<A["access"]["project"]>;
/** A group as the caller may read it (access.group). */
export type GroupAccess = OutputOf<A["access"]["group"]>;
/** A project's summary, readable or not (projects.summaries). */
export type ProjectSummary = OutputOf<A["projects"]["summaries"]>[number];
/** A project of a list's scope with the caller's level on it (projects.readable). */
export type ReadableProjectRef = OutputOf<A["projects"]["readable"]>["projects"][number];
/** A group as the group API presents it. */
export type GroupEntity = z.output<typeof GroupSchema>;
/** LabelBasic, as issues and merge requests embed it with with_labels_details. */
export type LabelBasic = z.output<typeof LabelBasicSchema>;
/** LabelBasic with its priority (labels.byIds, workItems.refs). */
export type LabelDetail = z.output<typeof LabelDetailSchema>;
/** Entities::Milestone (milestones.byIds, workItems.refs). */
export type MilestoneDetail = z.output<typeof MilestoneSchema>;
/** What namespaces answers to a work item write's input. */
export type WorkItemInputAnswer = z.output<typeof WorkItemInputAnswerSchema>;
/** `{ [user_id]: { access_level, can_read } }` on one project. */
export type AccessOnProject = OutputOf<A["access"]["levelsOnProject"]>;
/** GitLab's ProtectedBranch entity. */
export type ProtectedBranch = z.output<typeof ProtectedBranchSchema>;
