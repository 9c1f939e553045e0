import type { Db } from "@collab/db";
import { asc, eq } from "drizzle-orm";
import { errorEvents, type ErrorEventRow } from "../db/schema";
import type { ErrorEventFields } from "./envelope";

/** Stores the events of one submission in one transaction; a resubmitted event id is kept once. */
export async function storeErrorEvents(db: Db, projectId: number, events: { fields: ErrorEventFields; payload: unknown }[]): Promise<void> {
  if (events.length === 0) return;
  await db.transaction(async (tx) => {
    await tx
      .insert(errorEvents)
      .values(events.map(({ fields, payload }) => ({ projectId, ...fields, payload })))
      .onConflictDoNothing({ target: [errorEvents.projectId, errorEvents.eventId] });
  });
}

export const listErrorEvents = (db: Db, projectId: number): Promise<ErrorEventRow[]> =>
  db.select().from(errorEvents).where(eq(errorEvents.projectId, projectId)).orderBy(asc(errorEvents.id));
