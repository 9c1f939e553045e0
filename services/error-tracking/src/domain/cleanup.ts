import type { Db } from "@collab/db";
import { eq } from "drizzle-orm";
import { clientKeys, errorEvents, settings } from "../db/schema";

/**
 * Removes everything a deleted project had here, in one transaction: its setting, keys and
 * collected events. Repeating it removes nothing more (an event may arrive more than once).
 * Written as a plain (payload, tx) consumer so that it runs inside the durable-event transaction.
 */
export async function removeProjectData(payload: { projectId: number }, tx: Db): Promise<number> {
  const { projectId } = payload;
  const removed = await Promise.all([
    tx.delete(errorEvents).where(eq(errorEvents.projectId, projectId)).returning({ id: errorEvents.id }),
    tx.delete(clientKeys).where(eq(clientKeys.projectId, projectId)).returning({ id: clientKeys.id }),
    tx.delete(settings).where(eq(settings.projectId, projectId)).returning({ id: settings.projectId }),
  ]);
  return removed.reduce((n, rows) => n + rows.length, 0);
}
