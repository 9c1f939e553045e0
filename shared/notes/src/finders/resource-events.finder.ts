import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, eq } from "drizzle-orm";
import type { IterationEventRow, LabelEventRow, MilestoneEventRow, NotesTables, WeightEventRow } from "../db/tables";
import { eventsOf, eventTable, type ResourceEventFamily } from "../domain/resource-events";
import type { NoteableScope } from "./notes.finder";

/** The row of each family. */
export interface ResourceEventRows {
  label: LabelEventRow;
  milestone: MilestoneEventRow;
  weight: WeightEventRow;
  iteration: IterationEventRow;
}

/** A family's table typed as the smallest of them (every one has id and the resource columns); the rows are the family's. */
const anyEventTable = (tables: NotesTables, family: ResourceEventFamily) => eventTable(tables, family) as unknown as NotesTables["resourceWeightEvents"];

/** A page of one resource's events of a family, oldest first (GitLab's ResourceEventsFinder orders by id). */
export async function findResourceEvents<F extends ResourceEventFamily>(
  db: Db,
  s: NoteableScope,
  family: F,
  page: { page: number; per_page: number },
): Promise<{ rows: ResourceEventRows[F][]; total: number }> {
  const table = anyEventTable(s.tables, family);
  const condition = eventsOf(s.tables, family, s.type, s.id);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(table).where(condition).orderBy(asc(table.id)).limit(page.per_page).offset(offsetOf(page)),
    db.select({ total: count() }).from(table).where(condition),
  ]);
  return { rows: rows as ResourceEventRows[F][], total };
}

/** One event of the resource, or undefined when the id is another resource's (or unknown). */
export async function findResourceEvent<F extends ResourceEventFamily>(db: Db, s: NoteableScope, family: F, eventId: number): Promise<ResourceEventRows[F] | undefined> {
  const table = anyEventTable(s.tables, family);
  const [row] = await db.select().from(table).where(and(eventsOf(s.tables, family, s.type, s.id), eq(table.id, eventId)));
  return row as ResourceEventRows[F] | undefined;
}
