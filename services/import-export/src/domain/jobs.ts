import type { Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { groupExports, groupImports, type GroupExportRow, type GroupImportRow, type RestoreProgress } from "../db/schema";

/**
 * The job tables' state machine: queued → started → finished | failed. A worker claims one queued
 * row at a time with `FOR UPDATE SKIP LOCKED` (replicas never take the same row) and bumps
 * `attempts`; it then works without holding a transaction and finishes only its own claim
 * (same `attempts`, still `started`), so a row re-requested or reclaimed meanwhile is left alone.
 * A row `started` longer than STALE_AFTER (its worker died) is claimed again; an import's worker
 * records its progress after every call, which also keeps its row from looking stale. `exclude`:
 * rows this worker step already handled (a job queued again after a failure waits for the next step).
 */
export const STALE_AFTER = "15 minutes";
/** Failed runs that count (see Failure) before a job fails for good. */
export const MAX_ATTEMPTS = 3;

/**
 * How a run that broke ends (the workers tell them apart):
 * - `unanswered`: a bus call got no answer (a service down or unreachable, a timeout). The job is
 *   queued again and waits for a later step, however often: it never fails nor finishes for that.
 * - `counted`: anything else that may pass (a call that crashed, the database): queued again until
 *   it failed MAX_ATTEMPTS times (`retries`), then failed.
 * - `permanent`: a refusal (the group is gone, the model refused) or a bad archive: failed at once.
 */
export type Failure = "unanswered" | "counted" | "permanent";

/** Whether a failed run goes back to waiting, read in the UPDATE that records it (before it bumps `retries`). */
export const queuedAgain = (retries: PgColumn, failure: Failure) =>
  failure === "unanswered" ? sql`TRUE` : failure === "counted" ? sql`${retries} + 1 < ${MAX_ATTEMPTS}` : sql`FALSE`;

/** The state column of a job table and its waiting and working values. */
export interface JobStates {
  column: string;
  waiting: string;
  working: string;
}
const GROUP_JOB_STATES: JobStates = { column: "state", waiting: "queued", working: "started" };

/**
 * The id of the next row a worker may claim in a job table (one with `id`, `updated_at` and a
 * state column): a waiting one, or one left working longer than STALE_AFTER; locked with
 * FOR UPDATE SKIP LOCKED, so replicas claiming together never get the same row.
 */
export const claimable = (table: PgTable, exclude: readonly number[], states: JobStates = GROUP_JOB_STATES) => {
  const state = sql.identifier(states.column);
  return sql`(SELECT id FROM ${table}
       WHERE (${state} = ${states.waiting} OR (${state} = ${states.working} AND updated_at < now() - ${STALE_AFTER}::interval))
         AND NOT (id = ANY(${sql.param([...exclude])}::int[]))
       ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)`;
};

// ---- exports ---------------------------------------------------------------------------------

/** POST /groups/:id/export: (re)queues the caller's export of the group. */
export async function requestExport(db: Db, groupId: number, userId: number): Promise<void> {
  await db
    .insert(groupExports)
    .values({ groupId, userId, state: "queued" })
    .onConflictDoUpdate({
      target: [groupExports.groupId, groupExports.userId],
      set: { state: "queued", retries: 0, errorMessage: null, updatedAt: sql`now()` },
    });
}

/** The caller's finished archive of the group, if any. */
export async function findArchive(db: Db, groupId: number, userId: number): Promise<Pick<GroupExportRow, "archive" | "filename" | "archiveSize"> | undefined> {
  const [row] = await db
    .select({ archive: groupExports.archive, filename: groupExports.filename, archiveSize: groupExports.archiveSize })
    .from(groupExports)
    .where(and(eq(groupExports.groupId, groupId), eq(groupExports.userId, userId), sql`${groupExports.archive} IS NOT NULL`));
  return row;
}

export type ExportClaim = Pick<GroupExportRow, "id" | "groupId" | "userId" | "attempts">;

/** Claims the next export; the previous archive of that row goes now (GitLab's remove_existing_export!). */
export async function claimExport(db: Db, exclude: readonly number[] = []): Promise<ExportClaim | undefined> {
  const [row] = await db
    .update(groupExports)
    .set({ state: "started", attempts: sql`${groupExports.attempts} + 1`, archive: null, archiveSize: null, filename: null, errorMessage: null, startedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(groupExports.id, claimable(groupExports, exclude)))
    .returning({ id: groupExports.id, groupId: groupExports.groupId, userId: groupExports.userId, attempts: groupExports.attempts });
  return row;
}

const ownClaim = (table: typeof groupExports | typeof groupImports, claim: { id: number; attempts: number }) =>
  and(eq(table.id, claim.id), eq(table.attempts, claim.attempts), eq(table.state, "started"));

export async function finishExport(db: Db, claim: ExportClaim, archive: Buffer, filename: string): Promise<boolean> {
  const rows = await db
    .update(groupExports)
    .set({ state: "finished", archive, archiveSize: archive.length, filename, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(ownClaim(groupExports, claim))
    .returning({ id: groupExports.id });
  return rows.length > 0;
}

/** Queues the claim again, or fails it (see Failure). */
export async function failExport(db: Db, claim: ExportClaim, message: string, failure: Failure): Promise<void> {
  const again = queuedAgain(groupExports.retries, failure);
  await db
    .update(groupExports)
    .set({
      state: sql`CASE WHEN ${again} THEN 'queued' ELSE 'failed' END`,
      retries: sql`${groupExports.retries} + ${failure === "counted" ? 1 : 0}`,
      errorMessage: message,
      updatedAt: sql`now()`,
      finishedAt: sql`CASE WHEN ${again} THEN NULL ELSE now() END`,
    })
    .where(ownClaim(groupExports, claim));
}

// ---- imports ---------------------------------------------------------------------------------

export async function recordImport(
  db: Db,
  p: { groupId: number; importer: { id: number; username: string; admin: boolean }; archive: Buffer; filename: string },
): Promise<GroupImportRow> {
  const [row] = await db
    .insert(groupImports)
    .values({
      groupId: p.groupId,
      importerId: p.importer.id,
      importerUsername: p.importer.username,
      importerAdmin: p.importer.admin,
      archive: p.archive,
      archiveSize: p.archive.length,
      filename: p.filename,
    })
    .returning();
  return row;
}

export type ImportClaim = Pick<GroupImportRow, "id" | "groupId" | "importerId" | "importerUsername" | "importerAdmin" | "attempts" | "archive" | "progress">;

export async function claimImport(db: Db, exclude: readonly number[] = []): Promise<ImportClaim | undefined> {
  const [row] = await db
    .update(groupImports)
    .set({ state: "started", attempts: sql`${groupImports.attempts} + 1`, errorMessage: null, startedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(groupImports.id, claimable(groupImports, exclude)))
    .returning({
      id: groupImports.id,
      groupId: groupImports.groupId,
      importerId: groupImports.importerId,
      importerUsername: groupImports.importerUsername,
      importerAdmin: groupImports.importerAdmin,
      attempts: groupImports.attempts,
      archive: groupImports.archive,
      progress: groupImports.progress,
    });
  return row;
}

/** Records how far the claim's restore got (and that its worker is alive); false once the row is not this claim's any more. */
export async function saveImportProgress(db: Db, claim: ImportClaim, progress: RestoreProgress): Promise<boolean> {
  const rows = await db.update(groupImports).set({ progress, updatedAt: sql`now()` }).where(ownClaim(groupImports, claim)).returning({ id: groupImports.id });
  return rows.length > 0;
}

/**
 * Finishes an import, or queues it again (with its archive and progress) or fails it (see
 * Failure); the uploaded archive is dropped once it is finished or failed.
 */
export async function endImport(db: Db, claim: ImportClaim, outcome: { statistics: Record<string, number> } | { error: string; failure: Failure }): Promise<void> {
  const failure = "error" in outcome ? outcome.failure : undefined;
  const again = failure ? queuedAgain(groupImports.retries, failure) : sql`FALSE`;
  await db
    .update(groupImports)
    .set({
      state: sql`CASE WHEN ${again} THEN 'queued' ELSE ${failure ? "failed" : "finished"} END`,
      retries: sql`${groupImports.retries} + ${failure === "counted" ? 1 : 0}`,
      errorMessage: "error" in outcome ? outcome.error : null,
      statistics: "statistics" in outcome ? outcome.statistics : null,
      archive: sql`CASE WHEN ${again} THEN ${groupImports.archive} ELSE NULL END`,
      finishedAt: sql`CASE WHEN ${again} THEN NULL ELSE now() END`,
      updatedAt: sql`now()`,
    })
    .where(ownClaim(groupImports, claim));
}
