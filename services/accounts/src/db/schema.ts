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

export type UserRow = typeof users.$inferSelect;
export type TokenRow = typeof personalAccessTokens.$inferSelect;
export type DeployTokenRow = typeof deployTokens.$inferSelect;
