import type { Db } from "@collab/db";
import { sql } from "drizzle-orm";
import type { NotesTables } from "../db/tables";

/**
 * Next per-project iid for a usage ("issues", "merge_requests"), atomically: the upsert takes a
 * row lock, so concurrent creations in the same project (or replicas) never share an iid.
 */
export async function nextIid(db: Db, tables: NotesTables, projectId: number, usage: string): Promise<number> {
  const { internalIds } = tables;
  const [row] = await db
    .insert(internalIds)
    .values({ projectId, usage, lastValue: 1 })
    .onConflictDoUpdate({ target: [internalIds.projectId, internalIds.usage], set: { lastValue: sql`${internalIds.lastValue} + 1` } })
    .returning({ value: internalIds.lastValue });
  return row.value;
}

/** An explicit iid (set by admins/owners) moves the sequence past it. */
export async function trackIid(db: Db, tables: NotesTables, projectId: number, usage: string, iid: number): Promise<void> {
  const { internalIds } = tables;
  await db
    .insert(internalIds)
    .values({ projectId, usage, lastValue: iid })
    .onConflictDoUpdate({ target: [internalIds.projectId, internalIds.usage], set: { lastValue: sql`GREATEST(${internalIds.lastValue}, ${iid})` } });
}
