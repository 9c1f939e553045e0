import type { VulnerabilityExportStatus } from "@collab/import-export-contract";
import { bytea, eventTables } from "@collab/db";
import { boolean, index, integer, jsonb, pgSchema, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const importExportSchema = pgSchema("import_export");

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Where a group import's restore got to: its bus calls done (in their fixed order), the groups made for the archive's, the counts so far. */
export interface RestoreProgress {
  calls: number;
  ids: Record<string, number>;
  stats: { groups: number; labels: number; milestones: number; members: number; skipped: number };
}

/** Export states, as GitLab's GroupExport: queued → started → finished | failed. */
export type JobState = "queued" | "started" | "finished" | "failed";

/**
 * One group export per group and requesting user (GitLab keeps exports per user): a new request
 * re-queues the row; the previous archive stays downloadable until the worker starts the new one.
 */
export const groupExports = importExportSchema.table(
  "group_exports",
  {
    id: serial("id").primaryKey(),
    groupId: integer("group_id").notNull(),
    userId: integer("user_id").notNull(),
    state: text("state").$type<JobState>().notNull().default("queued"),
    /** Bumped by every claim, never reset: a worker only finishes the claim it made (see domain/jobs.ts). */
    attempts: integer("attempts").notNull().default(0),
    /** Failed runs that count since the last request (the worker retries up to MAX_ATTEMPTS; see domain/jobs.ts). */
    retries: integer("retries").notNull().default(0),
    archive: bytea("archive"),
    archiveSize: integer("archive_size"),
    filename: text("filename"),
    errorMessage: text("error_message"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [uniqueIndex("group_exports_group_user_idx").on(t.groupId, t.userId), index("group_exports_state_idx").on(t.state, t.id)],
);
export type GroupExportRow = typeof groupExports.$inferSelect;

/**
 * A group import: the group was created when the upload was accepted; the worker fills it from
 * the archive, which is dropped once processed. `importer_*` is who uploaded it, as the worker acts.
 */
export const groupImports = importExportSchema.table(
  "group_imports",
  {
    id: serial("id").primaryKey(),
    groupId: integer("group_id").notNull(),
    importerId: integer("importer_id").notNull(),
    importerUsername: text("importer_username").notNull(),
    importerAdmin: boolean("importer_admin").notNull().default(false),
    state: text("state").$type<JobState>().notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** Failed runs that count (see domain/jobs.ts). */
    retries: integer("retries").notNull().default(0),
    /** How far the restore got (domain/worker.ts): a run after a failure or a dead worker goes on from there. */
    progress: jsonb("progress").$type<RestoreProgress>(),
    archive: bytea("archive"),
    archiveSize: integer("archive_size").notNull(),
    filename: text("filename").notNull(),
    errorMessage: text("error_message"),
    /** What the worker restored: { groups, labels, milestones, members, skipped }. */
    statistics: jsonb("statistics").$type<Record<string, number>>(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [index("group_imports_state_idx").on(t.state, t.id), index("group_imports_group_idx").on(t.groupId)],
);
export type GroupImportRow = typeof groupImports.$inferSelect;

/** Vulnerability export states, as GitLab's Vulnerabilities::Export: created → running → finished | failed. */
export type { VulnerabilityExportStatus };

/**
 * Vulnerability exports (Ultimate): one row per request, read only by its author. The projects it
 * covers are fixed when it is requested (`project_ids`: the project, the group's projects, or the
 * author's for the instance dashboard); the worker builds the CSV from runners' vulnerabilities
 * and keeps it here (never on a pod's disk), and deletes the row once `expires_at` has passed.
 */
export const vulnerabilityExports = importExportSchema.table(
  "vulnerability_exports",
  {
    id: serial("id").primaryKey(),
    authorId: integer("author_id").notNull(),
    projectId: integer("project_id"),
    groupId: integer("group_id"),
    /** What the file is named after: the project's or group's full path, the author's username for the instance. */
    exportablePath: text("exportable_path").notNull(),
    exportableName: text("exportable_name").notNull(),
    projectIds: integer("project_ids").array().notNull(),
    format: text("format").notNull().default("csv"),
    status: text("status").$type<VulnerabilityExportStatus>().notNull().default("created"),
    sendEmail: boolean("send_email").notNull().default(false),
    /** Bumped by every claim, never reset: a worker only finishes the claim it made. */
    attempts: integer("attempts").notNull().default(0),
    /** Failed runs that count (see domain/jobs.ts). */
    retries: integer("retries").notNull().default(0),
    file: bytea("file"),
    fileSize: integer("file_size"),
    filename: text("filename"),
    errorMessage: text("error_message"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("vulnerability_exports_status_idx").on(t.status, t.id), index("vulnerability_exports_expires_idx").on(t.expiresAt), index("vulnerability_exports_group_idx").on(t.groupId)],
);
export type VulnerabilityExportRow = typeof vulnerabilityExports.$inferSelect;

/** Durable domain events: the outbox this service publishes from, the ids of those it has applied. */
export const { outbox, processedEvents } = eventTables(importExportSchema);
