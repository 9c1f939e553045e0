import { eventTables } from "@collab/db";
import { internalIdsTable } from "@collab/db";
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgSchema, primaryKey, real, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const runnersSchema = pgSchema("runners");

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** CI runners: instance-wide, of a group (group_id) or of projects (runner_projects). */
export const runners = runnersSchema.table(
  "runners",
  {
    id: serial("id").primaryKey(),
    runnerType: text("runner_type").notNull(), // instance_type | group_type | project_type
    groupId: integer("group_id"),
    description: text("description").notNull().default(""),
    name: text("name"),
    /** sha256 of the authentication token; the token itself is shown once. */
    tokenDigest: text("token_digest").notNull(),
    tokenExpiresAt: ts("token_expires_at"),
    /** registration_token | authenticated_user (glrt- tokens). */
    registrationType: text("registration_type").notNull(),
    active: boolean("active").notNull().default(true),
    locked: boolean("locked").notNull().default(false),
    runUntagged: boolean("run_untagged").notNull().default(true),
    tagList: text("tag_list").array().notNull().default(sql`'{}'::text[]`),
    accessLevel: text("access_level").notNull().default("not_protected"),
    maximumTimeout: integer("maximum_timeout"),
    maintenanceNote: text("maintenance_note"),
    version: text("version"),
    revision: text("revision"),
    platform: text("platform"),
    architecture: text("architecture"),
    contactedAt: ts("contacted_at"),
    creatorId: integer("creator_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("runners_token_digest_idx").on(t.tokenDigest), index("runners_group_idx").on(t.groupId), index("runners_type_idx").on(t.runnerType)],
);

export const runnerProjects = runnersSchema.table(
  "runner_projects",
  {
    runnerId: integer("runner_id")
      .notNull()
      .references(() => runners.id, { onDelete: "cascade" }),
    projectId: integer("project_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runnerId, t.projectId] }), index("runner_projects_project_idx").on(t.projectId)],
);

/** Registration tokens (deprecated flow): one per instance (scope_id 0), group or project. */
export const registrationTokens = runnersSchema.table(
  "registration_tokens",
  {
    scope: text("scope").notNull(), // instance | group | project
    scopeId: integer("scope_id").notNull(),
    tokenDigest: text("token_digest").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.scopeId] }), uniqueIndex("registration_tokens_digest_idx").on(t.tokenDigest)],
);

export const internalIds = internalIdsTable(runnersSchema);

export const pipelines = runnersSchema.table(
  "pipelines",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").notNull(),
    iid: integer("iid").notNull(),
    status: text("status").notNull().default("created"),
    source: text("source").notNull(),
    /** Short name (main, v1.0), as GitLab stores pipeline refs. */
    ref: text("ref").notNull(),
    tag: boolean("tag").notNull().default(false),
    sha: text("sha").notNull(),
    userId: integer("user_id"),
    scheduleId: integer("schedule_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("pipelines_project_iid_idx").on(t.projectId, t.iid), index("pipelines_schedule_idx").on(t.scheduleId, t.id)],
);

export const jobs = runnersSchema.table(
  "jobs",
  {
    id: serial("id").primaryKey(),
    pipelineId: integer("pipeline_id")
      .notNull()
      .references(() => pipelines.id, { onDelete: "cascade" }),
    projectId: integer("project_id").notNull(),
    runnerId: integer("runner_id"),
    name: text("name").notNull(),
    stage: text("stage").notNull(),
    status: text("status").notNull().default("pending"),
    ref: text("ref").notNull(),
    tag: boolean("tag").notNull().default(false),
    coverage: real("coverage"),
    allowFailure: boolean("allow_failure").notNull().default(false),
    userId: integer("user_id"),
    /** Digest of the CI/CD job token, issued when a runner picks the job and cleared when it finishes. */
    tokenDigest: text("token_digest"),
    createdAt: ts("created_at").notNull().defaultNow(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("jobs_runner_idx").on(t.runnerId, t.id),
    index("jobs_pipeline_idx").on(t.pipelineId),
    index("jobs_pending_idx").on(t.status, t.projectId),
    uniqueIndex("jobs_token_digest_idx").on(t.tokenDigest),
  ],
);

export const pipelineSchedules = runnersSchema.table(
  "pipeline_schedules",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").notNull(),
    description: text("description").notNull(),
    /** Full form: refs/heads/main or refs/tags/v1. */
    ref: text("ref").notNull(),
    cron: text("cron").notNull(),
    cronTimezone: text("cron_timezone").notNull().default("UTC"),
    nextRunAt: ts("next_run_at").notNull(),
    active: boolean("active").notNull().default(true),
    ownerId: integer("owner_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("pipeline_schedules_project_idx").on(t.projectId, t.id), index("pipeline_schedules_due_idx").on(t.nextRunAt).where(sql`${t.active}`)],
);

export const pipelineScheduleVariables = runnersSchema.table(
  "pipeline_schedule_variables",
  {
    id: serial("id").primaryKey(),
    scheduleId: integer("schedule_id")
      .notNull()
      .references(() => pipelineSchedules.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    value: text("value").notNull(),
    variableType: text("variable_type").notNull().default("env_var"),
    raw: boolean("raw").notNull().default(false),
  },
  (t) => [uniqueIndex("pipeline_schedule_variables_key_idx").on(t.scheduleId, t.key)],
);

/** Group-level protected environments (deployment tiers). */
export const protectedEnvironments = runnersSchema.table(
  "protected_environments",
  {
    id: serial("id").primaryKey(),
    groupId: integer("group_id").notNull(),
    name: text("name").notNull(),
    requiredApprovalCount: integer("required_approval_count").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("protected_environments_group_name_idx").on(t.groupId, t.name)],
);

/** Deploy access levels (kind 'deploy') and approval rules (kind 'approval') of a protected environment. */
export const protectedEnvironmentEntries = runnersSchema.table(
  "protected_environment_entries",
  {
    id: serial("id").primaryKey(),
    protectedEnvironmentId: integer("protected_environment_id")
      .notNull()
      .references(() => protectedEnvironments.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    accessLevel: integer("access_level"),
    userId: integer("user_id"),
    groupId: integer("group_id"),
    groupInheritanceType: integer("group_inheritance_type").notNull().default(0),
    requiredApprovals: integer("required_approvals").notNull().default(1),
  },
  (t) => [index("protected_environment_entries_env_idx").on(t.protectedEnvironmentId, t.kind, t.id)],
);

export type RunnerRow = typeof runners.$inferSelect;
export type PipelineRow = typeof pipelines.$inferSelect;
export type JobRow = typeof jobs.$inferSelect;
export type ScheduleRow = typeof pipelineSchedules.$inferSelect;
export type ScheduleVariableRow = typeof pipelineScheduleVariables.$inferSelect;
export type ProtectedEnvironmentRow = typeof protectedEnvironments.$inferSelect;
export type ProtectedEnvironmentEntryRow = typeof protectedEnvironmentEntries.$inferSelect;

/** Durable domain events: the outbox this service publishes from, the ids of those it has applied. */
export const { outbox, processedEvents } = eventTables(runnersSchema);
