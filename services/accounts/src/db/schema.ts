import { eventTables } from "@collab/db";
import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgSchema, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const accounts = pgSchema("accounts");

export const users = accounts.table(
  "users",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    state: text("state").notNull().default("active"),
    admin: boolean("admin").notNull().default(false),
    bot: boolean("bot").notNull().default(false),
    /** human, service_account, project_bot, group_bot (GitLab's user_type). */
    userType: text("user_type").notNull().default("human"),
    passwordDigest: text("password_digest"),
    canCreateGroup: boolean("can_create_group").notNull().default(true),
    projectsLimit: integer("projects_limit").notNull().default(100000),
    external: boolean("external").notNull().default(false),
    privateProfile: boolean("private_profile").notNull().default(false),
    bio: text("bio").notNull().default(""),
    location: text("location").notNull().default(""),
    publicEmail: text("public_email"),
    websiteUrl: text("website_url").notNull().default(""),
    organization: text("organization").notNull().default(""),
    jobTitle: text("job_title").notNull().default(""),
    pronouns: text("pronouns"),
    linkedin: text("linkedin").notNull().default(""),
    twitter: text("twitter").notNull().default(""),
    discord: text("discord").notNull().default(""),
    note: text("note"),
    /** Group that owns a group-level service account. */
    provisionedByGroupId: integer("provisioned_by_group_id"),
    /** The project or group whose access token this bot user holds (project_bot, group_bot). */
    botResourceType: text("bot_resource_type"),
    botResourceId: integer("bot_resource_id"),
    createdById: integer("created_by_id"),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
    lastActivityOn: date("last_activity_on", { mode: "string" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_username_lower_idx").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_idx").on(sql`lower(${t.email})`),
    index("users_state_idx").on(t.state),
    index("users_bot_resource_idx").on(t.botResourceType, t.botResourceId),
  ],
);

export const personalAccessTokens = accounts.table(
  "personal_access_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    /** SHA-256 of the token: the token itself is never stored. */
    tokenDigest: text("token_digest").notNull(),
    scopes: text("scopes").array().notNull(),
    expiresAt: date("expires_at", { mode: "string" }),
    revoked: boolean("revoked").notNull().default(false),
    impersonation: boolean("impersonation").notNull().default(false),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("pat_token_digest_idx").on(t.tokenDigest), index("pat_user_idx").on(t.userId)],
);

/**
 * Deploy tokens of one project or one group (GitLab's project_type / group_type). The secret is
 * stored only as its SHA-256 digest; `username` is null for the default `svc+deploy-token-{id}`.
 */
export const deployTokens = accounts.table(
  "deploy_tokens",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id"),
    groupId: integer("group_id"),
    name: text("name").notNull(),
    username: text("username"),
    tokenDigest: text("token_digest").notNull(),
    scopes: text("scopes").array().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    revoked: boolean("revoked").notNull().default(false),
    creatorId: integer("creator_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("deploy_tokens_token_digest_idx").on(t.tokenDigest),
    index("deploy_tokens_project_idx").on(t.projectId),
    index("deploy_tokens_group_idx").on(t.groupId),
    check("deploy_tokens_one_holder", sql`(${t.projectId} IS NULL) <> (${t.groupId} IS NULL)`),
  ],
);

/**
 * A user's notification preferences (GitLab's notification_settings): one global row per user
 * (source_type `global`, no source_id, carrying notification_email) and one per group or project
 * the user has set anything on (source_id: the namespaces service's group or project id; rows go
 * when namespaces announces the source's removal). A missing row reads as the defaults: level
 * `participating` for global, `global` otherwise. Every email event is its own boolean, read when
 * the level is `custom`; failed_pipeline, fixed_pipeline and moved_project start on, as GitLab's
 * model treats them.
 */
export const notificationSettings = accounts.table(
  "notification_settings",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** global, group or project. */
    sourceType: text("source_type").notNull(),
    sourceId: integer("source_id"),
    /** disabled, participating, watch, global, mention or custom. */
    level: text("level").notNull(),
    /** Global row only: where mail goes instead of the primary address (one of the user's verified addresses). */
    notificationEmail: text("notification_email"),
    newNote: boolean("new_note").notNull().default(false),
    newIssue: boolean("new_issue").notNull().default(false),
    reopenIssue: boolean("reopen_issue").notNull().default(false),
    closeIssue: boolean("close_issue").notNull().default(false),
    reassignIssue: boolean("reassign_issue").notNull().default(false),
    issueDue: boolean("issue_due").notNull().default(false),
    newMergeRequest: boolean("new_merge_request").notNull().default(false),
    pushToMergeRequest: boolean("push_to_merge_request").notNull().default(false),
    reopenMergeRequest: boolean("reopen_merge_request").notNull().default(false),
    closeMergeRequest: boolean("close_merge_request").notNull().default(false),
    reassignMergeRequest: boolean("reassign_merge_request").notNull().default(false),
    mergeMergeRequest: boolean("merge_merge_request").notNull().default(false),
    failedPipeline: boolean("failed_pipeline").notNull().default(true),
    fixedPipeline: boolean("fixed_pipeline").notNull().default(true),
    successPipeline: boolean("success_pipeline").notNull().default(false),
    movedProject: boolean("moved_project").notNull().default(true),
    mergeWhenPipelineSucceeds: boolean("merge_when_pipeline_succeeds").notNull().default(false),
    newEpic: boolean("new_epic").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("notification_settings_global_idx").on(t.userId).where(sql`${t.sourceType} = 'global'`),
    uniqueIndex("notification_settings_source_idx").on(t.userId, t.sourceType, t.sourceId).where(sql`${t.sourceId} IS NOT NULL`),
    index("notification_settings_source_lookup_idx").on(t.sourceType, t.sourceId),
    check("notification_settings_source_check", sql`(${t.sourceType} = 'global' AND ${t.sourceId} IS NULL) OR (${t.sourceType} IN ('group', 'project') AND ${t.sourceId} IS NOT NULL)`),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type TokenRow = typeof personalAccessTokens.$inferSelect;
export type DeployTokenRow = typeof deployTokens.$inferSelect;
export type NotificationSettingRow = typeof notificationSettings.$inferSelect;

/** Durable domain events: the outbox this service publishes from, the ids of those it has applied. */
export const { outbox, processedEvents } = eventTables(accounts);
