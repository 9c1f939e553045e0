import { sql, type Placeholder, type SQL } from "drizzle-orm";
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
 * The iid step of an insert that takes its iid in the same statement (one round trip), as a CTE
 * named `next_iid`: with `explicit` NULL the sequence's next value, else the explicit iid, which
 * moves the sequence past it (as trackIid). Use it as `db.with(cte).insert(t).values({ iid: iidOf(explicit) })`.
 */
export const iidCte = (db: Db, table: InternalIdsTable, projectId: number | SQL | Placeholder, usage: string, explicit: SQL) =>
  db.$with("next_iid").as(
    db
      .insert(table)
      .values({ projectId, usage, lastValue: sql`COALESCE(${explicit}, 1)` })
      .onConflictDoUpdate({
        target: [table.projectId, table.usage],
        set: { lastValue: sql`CASE WHEN ${explicit} IS NULL THEN ${table.lastValue} + 1 ELSE GREATEST(${table.lastValue}, ${explicit}) END` },
      })
      .returning({ lastValue: table.lastValue }),
  );

/** The iid iidCte settled on (its CTE's column keeps the table's name). */
export const iidOf = (explicit: SQL) => sql<number>`COALESCE(${explicit}, (SELECT last_value FROM next_iid))`;

/** An explicit iid (set by admins/owners) moves the sequence past it. */
export async function trackIid(db: Db, table: InternalIdsTable, projectId: number, usage: string, iid: number): Promise<void> {
  await db
    .insert(table)
    .values({ projectId, usage, lastValue: iid })
    .onConflictDoUpdate({ target: [table.projectId, table.usage], set: { lastValue: sql`GREATEST(${table.lastValue}, ${iid})` } });
}
