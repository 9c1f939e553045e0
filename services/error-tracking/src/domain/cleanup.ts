import type { Db } from "@collab/db";
import { eq } from "drizzle-orm";
import { clientKeys, errorEvents, settings } from "../db/schema";

/**
 * Removes everything a deleted project had here: its setting, keys and collected events, in the
 * consumer's transaction (where the event id is recorded too). Repeating it removes nothing more.
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
