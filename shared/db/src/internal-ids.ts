import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { integer, primaryKey, text, type PgSchema } from "drizzle-orm/pg-core";
import type { Db } from "./database";

/**
 * Per-project iid sequences (issues, merge requests, pipelines…) in a service's own schema. A
 * service's schema.ts exports the table so drizzle-kit sees it. Sequences owned by something else
 * than a project (a group's epics) live in a table of their own (`table`, its owner column `key`),
 * so that a project's clean-up never takes a group's sequence with the same id; `projectId` is
 * then that owner's id.
 */
export const internalIdsTable = (schema: PgSchema<string>, o: { table?: string; key?: string } = {}) =>
  schema.table(
    o.table ?? "internal_ids",
    { projectId: integer(o.key ?? "project_id").notNull(), usage: text("usage").notNull(), lastValue: integer("last_value").notNull() },
    (t) => [primaryKey({ columns: [t.projectId, t.usage] })],
  );

export type InternalIdsTable = ReturnType<typeof internalIdsTable>;

/**
 * The one upsert behind every iid: with `explicit` NULL the sequence's next value, else the
 * explicit iid, which moves the sequence past it. The upsert takes a row lock, so concurrent
 * creations in the same project (or replicas) never share an iid.
 */
const iidUpsert = (db: Db, table: InternalIdsTable, projectId: number | SQL | Placeholder, usage: string, explicit: SQL) =>
  db
    .insert(table)
    .values({ projectId, usage, lastValue: sql`COALESCE(${explicit}, 1)` })
    .onConflictDoUpdate({
      target: [table.projectId, table.usage],
      set: { lastValue: sql`CASE WHEN ${explicit} IS NULL THEN ${table.lastValue} + 1 ELSE GREATEST(${table.lastValue}, ${explicit}) END` },
    })
    .returning({ lastValue: table.lastValue });

/** Next per-project iid for a usage, atomically. */
export async function nextIid(db: Db, table: InternalIdsTable, projectId: number, usage: string): Promise<number> {
  const [row] = await iidUpsert(db, table, projectId, usage, sql`NULL::int`);
  return row.lastValue;
}

/**
 * The iid step of an insert that takes its iid in the same statement (one round trip), as a CTE
 * named `next_iid` (iidUpsert's): use it as `db.with(cte).insert(t).values({ iid: iidOf(explicit) })`.
 */
export const iidCte = (db: Db, table: InternalIdsTable, projectId: number | SQL | Placeholder, usage: string, explicit: SQL) =>
  db.$with("next_iid").as(iidUpsert(db, table, projectId, usage, explicit));

/** The iid iidCte settled on (its CTE's column keeps the table's name). */
export const iidOf = (explicit: SQL) => sql<number>`COALESCE(${explicit}, (SELECT last_value FROM next_iid))`;

/** An explicit iid (set by admins/owners) moves the sequence past it. */
export async function trackIid(db: Db, table: InternalIdsTable, projectId: number, usage: string, iid: number): Promise<void> {
  await iidUpsert(db, table, projectId, usage, sql`${iid}::int`);
}
