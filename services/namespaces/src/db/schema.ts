import { eventTables } from "@collab/db";
import { sql } from "drizzle-orm";
import { boolean, date, index, integer, pgSchema, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const namespacesSchema = pgSchema("namespaces");

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

/** Groups, subgroups and users' personal namespaces share one table and id sequence, as in GitLab. */
export const namespaces = namespacesSchema.table(
  "namespaces",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(), // group | user
    name: text("name").notNull(),
    path: text("path").notNull(),
    parentId: integer("parent_id"),
    ownerId: integer("owner_id"),
    /** Ids from the root down to this namespace itself: ancestors and descendants in one index. */
    traversalIds: integer("traversal_ids").array().notNull().default(sql`'{}'::integer[]`),
    fullPath: text("full_path").notNull(),
    fullName: text("full_name").notNull(),
    visibility: text("visibility").notNull().default("private"),
    description: text("description").notNull().default(""),
    projectCreationLevel: text("project_creation_level").notNull().default("developer"),
    subgroupCreationLevel: text("subgroup_creation_level").notNull().default("maintainer"),
    requestAccessEnabled: boolean("request_access_enabled").notNull().default(true),
    shareWithGroupLock: boolean("share_with_group_lock").notNull().default(false),
    requireTwoFactorAuthentication: boolean("require_two_factor_authentication").notNull().default(false),
    twoFactorGracePeriod: integer("two_factor_grace_period").notNull().default(48),
    lfsEnabled: boolean("lfs_enabled").notNull().default(true),
    emailsEnabled: boolean("emails_enabled").notNull().default(true),
    mentionsDisabled: boolean("mentions_disabled").notNull().default(false),
    autoDevopsEnabled: boolean("auto_devops_enabled"),
    defaultBranch: text("default_branch"),
    repositoryStorage: text("repository_storage").notNull().default("default"),
    /** Set while a repository storage move runs (services/admin): writes are refused. */
    repositoryReadOnly: boolean("repository_read_only").notNull().default(false),
    /** Adjourned deletion: the day the group was marked (the purge worker removes it later) and by whom. */
    markedForDeletionOn: date("marked_for_deletion_on", { mode: "string" }),
    deletingUserId: integer("deleting_user_id"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("namespaces_full_path_lower_idx").on(sql`lower(${t.fullPath})`),
    index("namespaces_parent_idx").on(t.parentId),
    index("namespaces_traversal_ids_idx").using("gin", t.traversalIds),
    uniqueIndex("namespaces_user_owner_idx").on(t.ownerId).where(sql`${t.kind} = 'user'`),
    index("namespaces_marked_for_deletion_idx").on(t.markedForDeletionOn).where(sql`${t.markedForDeletionOn} IS NOT NULL`),
  ],
);

export const projects = namespacesSchema.table(
  "projects",
  {
    id: serial("id").primaryKey(),
    namespaceId: integer("namespace_id")
      .notNull()
      .references(() => namespaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    path: text("path").notNull(),
    description: text("description"),
    visibility: text("visibility").notNull().default("private"),
    defaultBranch: text("default_branch"),
    emptyRepo: boolean("empty_repo").notNull().default(true),
    creatorId: integer("creator_id"),
    archived: boolean("archived").notNull().default(false),
    topics: text("topics").array().notNull().default(sql`'{}'::text[]`),
    issuesAccessLevel: text("issues_access_level").notNull().default("enabled"),
    mergeRequestsAccessLevel: text("merge_requests_access_level").notNull().default("enabled"),
    wikiAccessLevel: text("wiki_access_level").notNull().default("enabled"),
    buildsAccessLevel: text("builds_access_level").notNull().default("enabled"),
    snippetsAccessLevel: text("snippets_access_level").notNull().default("enabled"),
    repositoryAccessLevel: text("repository_access_level").notNull().default("enabled"),
    requestAccessEnabled: boolean("request_access_enabled").notNull().default(true),
    repositoryStorage: text("repository_storage").notNull().default("default"),
    /** Set while a repository storage move runs (services/admin): writes are refused. */
    repositoryReadOnly: boolean("repository_read_only").notNull().default(false),
    /** Merge request settings the merge-requests service acts on (through access.project). */
    onlyAllowMergeIfAllDiscussionsAreResolved: boolean("only_allow_merge_if_all_discussions_are_resolved").notNull().default(false),
    removeSourceBranchAfterMerge: boolean("remove_source_branch_after_merge").notNull().default(true),
    /** never, always, default_on, default_off. */
    squashOption: text("squash_option").notNull().default("default_off"),
    /** GitLab's merge_method: merge, rebase_merge (semi-linear) or ff. */
    mergeMethod: text("merge_method").notNull().default("merge"),
    /** Adjourned deletion: the day the project was marked (GitLab's date column) and by whom. */
    markedForDeletionAt: date("marked_for_deletion_at", { mode: "string" }),
    deletingUserId: integer("deleting_user_id"),
    ...timestamps,
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("projects_namespace_path_lower_idx").on(t.namespaceId, sql`lower(${t.path})`),
    uniqueIndex("projects_namespace_name_lower_idx").on(t.namespaceId, sql`lower(${t.name})`),
    index("projects_visibility_idx").on(t.visibility),
    index("projects_created_at_idx").on(t.createdAt, t.id),
    index("projects_repository_storage_idx").on(t.repositoryStorage),
    index("projects_marked_for_deletion_idx").on(t.markedForDeletionAt).where(sql`${t.markedForDeletionAt} IS NOT NULL`),
  ],
);

/** Memberships of users in groups (source_type 'Namespace') and projects ('Project'). */
export const members = namespacesSchema.table(
  "members",
  {
    id: serial("id").primaryKey(),
    sourceType: text("source_type").notNull(),
    sourceId: integer("source_id").notNull(),
    userId: integer("user_id").notNull(),
    accessLevel: integer("access_level").notNull(),
    expiresAt: date("expires_at", { mode: "string" }),
    createdById: integer("created_by_id"),
    /** Custom role (Ultimate): stored and shown as given; there is no member roles table. */
    memberRoleId: integer("member_role_id"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("members_source_user_idx").on(t.sourceType, t.sourceId, t.userId),
    index("members_user_idx").on(t.userId, t.sourceType, t.sourceId),
  ],
);

/**
 * Pending invitations by e-mail to a group ('Namespace') or project ('Project'). GitLab keeps them
 * as member rows without a user; here they have their own table, so no access check ever meets a
 * membership without a user. Accepting one turns it into a `members` row and deletes it. Only a
 * SHA-256 digest of the invite token is stored: the token itself travels only in the mail.
 */
export const invitations = namespacesSchema.table(
  "invitations",
  {
    id: serial("id").primaryKey(),
    sourceType: text("source_type").notNull(),
    sourceId: integer("source_id").notNull(),
    /** Lower-cased, as GitLab stores invite_email. */
    inviteEmail: text("invite_email").notNull(),
    accessLevel: integer("access_level").notNull(),
    expiresAt: date("expires_at", { mode: "string" }),
    memberRoleId: integer("member_role_id"),
    inviteTokenDigest: text("invite_token_digest").notNull(),
    inviteSource: text("invite_source"),
    createdById: integer("created_by_id"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("invitations_source_email_idx").on(t.sourceType, t.sourceId, t.inviteEmail),
    uniqueIndex("invitations_token_digest_idx").on(t.inviteTokenDigest),
    index("invitations_email_idx").on(t.inviteEmail),
  ],
);

/**
 * Membership requests held for an administrator (application setting
 * enable_member_promotion_management): an existing user who holds no billable role would be
 * promoted into one. GitLab's member_approvals; kept pending here (there is no approval API yet).
 */
export const memberApprovals = namespacesSchema.table(
  "member_approvals",
  {
    id: serial("id").primaryKey(),
    sourceType: text("source_type").notNull(),
    sourceId: integer("source_id").notNull(),
    userId: integer("user_id").notNull(),
    newAccessLevel: integer("new_access_level").notNull(),
    expiresAt: date("expires_at", { mode: "string" }),
    memberRoleId: integer("member_role_id"),
    requestedById: integer("requested_by_id"),
    status: text("status").notNull().default("pending"),
    ...timestamps,
  },
  (t) => [uniqueIndex("member_approvals_pending_idx").on(t.sourceType, t.sourceId, t.userId).where(sql`${t.status} = 'pending'`)],
);

export type NamespaceRow = typeof namespaces.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type MemberRow = typeof members.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;

/** Project labels (project_id) and group labels (group_id), exactly one of the two set. */
export const labels = namespacesSchema.table(
  "labels",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").references(() => projects.id, { onDelete: "cascade" }),
    groupId: integer("group_id").references(() => namespaces.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    color: text("color").notNull(),
    description: text("description"),
    priority: integer("priority"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("labels_project_title_idx").on(t.projectId, t.title).where(sql`${t.projectId} IS NOT NULL`),
    uniqueIndex("labels_group_title_idx").on(t.groupId, t.title).where(sql`${t.groupId} IS NOT NULL`),
  ],
);

/** Project and group milestones; iid is per container. */
export const milestones = namespacesSchema.table(
  "milestones",
  {
    id: serial("id").primaryKey(),
    iid: integer("iid").notNull(),
    projectId: integer("project_id").references(() => projects.id, { onDelete: "cascade" }),
    groupId: integer("group_id").references(() => namespaces.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    state: text("state").notNull().default("active"),
    dueDate: date("due_date", { mode: "string" }),
    startDate: date("start_date", { mode: "string" }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("milestones_project_iid_idx").on(t.projectId, t.iid).where(sql`${t.projectId} IS NOT NULL`),
    uniqueIndex("milestones_group_iid_idx").on(t.groupId, t.iid).where(sql`${t.groupId} IS NOT NULL`),
    uniqueIndex("milestones_project_title_idx").on(t.projectId, t.title).where(sql`${t.projectId} IS NOT NULL`),
    uniqueIndex("milestones_group_title_idx").on(t.groupId, t.title).where(sql`${t.groupId} IS NOT NULL`),
  ],
);

export type LabelRow = typeof labels.$inferSelect;
export type MilestoneRow = typeof milestones.$inferSelect;

export * from "./protected-branches.schema";

/** Durable domain events: the outbox this service publishes from, the ids of those it has applied. */
export const { outbox, processedEvents } = eventTables(namespacesSchema);
