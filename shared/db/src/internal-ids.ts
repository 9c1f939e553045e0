import { sql } from "drizzle-orm";
import { integer, primaryKey, text, type PgSchema } from "drizzle-orm/pg-core";
import type { Db } from "./database";

/**
 * Per-project iid sequences (issues, merge requests, pipelines…) in a service's own schema. A
 * service's schema.ts exports the table so drizzle-kit sees it.
 */
export const internalIdsTable = (schema: PgSchema<string>) =>
  schema.table(
    "internal_ids",
    { projectId: integer("project_id").notNull(), usage: text("usage").notNull(), lastValue: integer("last_value").notNull() },
    (t) => [primaryKey({ columns: [t.projectId, t.usage] })],
  );

export type InternalIdsTable = ReturnType<typeof internalIdsTable>;

/**
 * Next per-project iid for a usage, atomically: the upsert takes a row lock, so concurrent
 * creations in the same project (or replicas) never share an iid.
 */
export async function nextIid(db: Db, table: InternalIdsTable, projectId: number, usage: string): Promise<number> {
  const [row] = await db
    .insert(table)
    .values({ projectId, usage, lastValue: 1 })
    .onConflictDoUpdate({ target: [table.projectId, table.usage], set: { lastValue: sql`${table.lastValue} + 1` } })
    .returning({ value: table.lastValue });
  return row.value;
}

/**
 * nextIid as a CTE, for an insert that takes its iid in the same statement (one round trip):
 * `db.with(cte).insert(t).values({ iid: NEXT_IID, … })`.
 */
export const nextIidCte = (db: Db, table: InternalIdsTable, projectId: number, usage: string) =>
  db.$with("next_iid").as(
    db
      .insert(table)
      .values({ projectId, usage, lastValue: 1 })
      .onConflictDoUpdate({ target: [table.projectId, table.usage], set: { lastValue: sql`${table.lastValue} + 1` } })
      .returning({ lastValue: table.lastValue }),
  );

/** The iid nextIidCte allocated, as a value of the insert it prefixes (the CTE's column keeps the table's name). */
export const NEXT_IID = sql<number>`(SELECT last_value FROM next_iid)`;

/** An explicit iid (set by admins/owners) moves the sequence past it. */
export async function trackIid(db: Db, table: InternalIdsTable, projectId: number, usage: string, iid: number): Promise<void> {
  await db
    .insert(table)
    .values({ projectId, usage, lastValue: iid })
    .onConflictDoUpdate({ target: [table.projectId, table.usage], set: { lastValue: sql`GREATEST(${table.lastValue}, ${iid})` } });
}
