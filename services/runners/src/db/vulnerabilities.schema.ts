import { bytea } from "@collab/db";
import { boolean, index, integer, jsonb, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { jobs, runnersSchema } from "./schema";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * Artifacts a running job uploaded (`POST /jobs/:id/artifacts`): one per job and file type, as
 * GitLab's ci_job_artifacts. The bytes stay in the database (bounded by MAX_BODY_BYTES), so any
 * replica serves them; they go with the job (and so with the pipeline and the project).
 */
export const jobArtifacts = runnersSchema.table(
  "job_artifacts",
  {
    id: serial("id").primaryKey(),
    jobId: integer("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    projectId: integer("project_id").notNull(),
    fileType: text("file_type").notNull(),
    fileFormat: text("file_format").notNull(),
    filename: text("filename").notNull(),
    size: integer("size").notNull(),
    fileSha256: text("file_sha256").notNull(),
    file: bytea("file").notNull(),
    expireAt: ts("expire_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("job_artifacts_job_type_idx").on(t.jobId, t.fileType), index("job_artifacts_project_idx").on(t.projectId)],
);
export type JobArtifactRow = typeof jobArtifacts.$inferSelect;

/** An identifier of a finding as the report gives it (CVE, CWE, the scanner's own rule id…). */
export interface StoredIdentifier {
  type: string;
  name: string;
  value: string;
  url: string | null;
}

/**
 * Vulnerabilities found by security reports (SAST, dependency scanning), one row per finding and
 * project: `uuid` is derived from the report type, the primary identifier and the location (GitLab's
 * finding UUID), so the same finding reported by a later pipeline updates its row. `created_at` is
 * when it was first seen, `detected_at` when a report last contained it. Rows outlive the pipelines
 * and jobs that reported them (no foreign key), and go with the project.
 */
export const vulnerabilities = runnersSchema.table(
  "vulnerabilities",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").notNull(),
    uuid: text("uuid").notNull(),
    reportType: text("report_type").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    solution: text("solution"),
    severity: text("severity").notNull(),
    confidence: text("confidence"),
    state: text("state").notNull().default("detected"),
    /** The first identifier of the report's list, as GitLab's primary identifier. */
    identifiers: jsonb("identifiers").$type<StoredIdentifier[]>().notNull(),
    /** The report's location object as given (file, lines, class, method, dependency…). */
    location: jsonb("location").$type<Record<string, unknown>>().notNull(),
    file: text("file"),
    startLine: integer("start_line"),
    endLine: integer("end_line"),
    packageName: text("package_name"),
    packageVersion: text("package_version"),
    cvssVectors: jsonb("cvss_vectors").$type<{ vendor: string; vector: string }[]>().notNull().default([]),
    scannerExternalId: text("scanner_external_id").notNull(),
    scannerName: text("scanner_name").notNull(),
    resolvedOnDefaultBranch: boolean("resolved_on_default_branch").notNull().default(false),
    pipelineId: integer("pipeline_id").notNull(),
    jobId: integer("job_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    detectedAt: ts("detected_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("vulnerabilities_project_uuid_idx").on(t.projectId, t.uuid), index("vulnerabilities_project_id_idx").on(t.projectId, t.id)],
);
export type VulnerabilityRow = typeof vulnerabilities.$inferSelect;
