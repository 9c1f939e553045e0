import type { Db } from "@collab/db";
import { sql } from "drizzle-orm";
import { internalIds } from "../db/schema";

/**
 * Next per-project iid for a usage ("issues", "merge_requests"), atomically: the upsert takes a
 * row lock, so concurrent creations in the same project (or replicas) never share an iid.
 */
export async function nextIid(db: Db, projectId: number, usage: string): Promise<number> {
  const [row] = await db
    .insert(internalIds)
    .values({ projectId, usage, lastValue: 1 })
    .onConflictDoUpdate({ target: [internalIds.projectId, internalIds.usage], set: { lastValue: sql`${internalIds.lastValue} + 1` } })
    .returning({ value: internalIds.lastValue });
  return row.value;
}

/** An explicit iid (set by admins/owners) moves the sequence past it. */
export async function trackIid(db: Db, projectId: number, usage: string, iid: number): Promise<void> {
  await db
    .insert(internalIds)
    .values({ projectId, usage, lastValue: iid })
    .onConflictDoUpdate({ target: [internalIds.projectId, internalIds.usage], set: { lastValue: sql`GREATEST(${internalIds.lastValue}, ${iid})` } });
}
