import { humanDuration, MAX_INT, validationFailed } from "@collab/core";
import type { Db } from "@collab/db";
import { sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { NotesTables } from "../db/tables";
import { addSystemNote, type NoteableTarget } from "../domain/system-notes";

/** Timelog::MAX_TOTAL_TIME_SPENT: four years of seconds. */
export const MAX_TOTAL_TIME_SPENT = 126_230_400;
/** The largest estimate an int4 column holds; GitLab caps estimates there. */
export const MAX_TIME_ESTIMATE = MAX_INT;

/** An issuable's time columns in its service's table, for the shared writes. */
export interface TimeColumns {
  table: PgTable;
  id: PgColumn;
  timeEstimate: PgColumn;
  totalTimeSpent: PgColumn;
  updatedAt: PgColumn;
}

export interface TimeTarget {
  noteable: NoteableTarget;
  /** The timelogs column naming the issuable. */
  timelogColumn: "issueId" | "mergeRequestId";
}

/** GitLab's system notes for time tracking (SystemNotes::TimeTrackingService). */
export const TimeTrackingNote = {
  estimate: (seconds: number) => (seconds === 0 ? "removed time estimate" : `changed time estimate to ${humanDuration(seconds)}`),
  spent: (delta: number) => `${delta > 0 ? "added" : "subtracted"} ${humanDuration(Math.abs(delta))} of time spent`,
  reset: () => "removed time spent",
};

const col = (c: PgColumn) => sql.identifier(c.name);

/** Sets the estimate (moving updated_at) with its system note, in one transaction. */
export async function setTimeEstimate(db: Db, tables: NotesTables, cols: TimeColumns, t: TimeTarget, seconds: number, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`UPDATE ${cols.table} SET ${col(cols.timeEstimate)} = ${seconds}, ${col(cols.updatedAt)} = now() WHERE ${cols.id} = ${t.noteable.id}`);
    await addSystemNote(tx, tables, t.noteable, userId, TimeTrackingNote.estimate(seconds));
  });
}

/**
 * Adds a timelog of `delta` seconds (negative subtracts; `reset` takes the total back to 0) and
 * moves total_time_spent by it, with its system note, in one transaction. The total never goes
 * below 0 nor above four years: those are GitLab's validation errors, and nothing is written.
 * Answers the new total.
 */
export async function spendTime(db: Db, tables: NotesTables, cols: TimeColumns, t: TimeTarget, change: { delta: number; summary?: string } | "reset", userId: number): Promise<number> {
  if (change !== "reset" && change.delta > MAX_TOTAL_TIME_SPENT) throw validationFailed({ base: ["Total time spent cannot exceed 4 years."] });
  return db.transaction(async (tx) => {
    // The row is locked until commit: concurrent changes of the total add up.
    const locked = sql`SELECT ${col(cols.totalTimeSpent)} AS total FROM ${cols.table} WHERE ${cols.id} = ${t.noteable.id} FOR UPDATE`;
    const { rows } = (await tx.execute(locked)) as unknown as { rows: { total: number }[] };
    const old = rows[0]?.total ?? 0;
    const spent = change === "reset" ? -old : change.delta;
    const total = old + spent;
    if (total < 0) throw validationFailed({ base: ["Time to subtract exceeds the total time spent"] });
    if (total > MAX_TOTAL_TIME_SPENT) throw validationFailed({ base: ["Total time spent cannot exceed 4 years."] });
    await tx.execute(sql`UPDATE ${cols.table} SET ${col(cols.totalTimeSpent)} = ${total} WHERE ${cols.id} = ${t.noteable.id}`);
    await tx.insert(tables.timelogs).values({
      timeSpent: spent,
      userId,
      [t.timelogColumn]: t.noteable.id,
      projectId: t.noteable.projectId,
      summary: change === "reset" ? null : (change.summary ?? null),
    });
    await addSystemNote(tx, tables, t.noteable, userId, change === "reset" ? TimeTrackingNote.reset() : TimeTrackingNote.spent(spent));
    return total;
  });
}
