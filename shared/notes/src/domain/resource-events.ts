import type { Db } from "@collab/db";
import { asc, eq, sql, type SQL } from "drizzle-orm";
import type { NotesTables } from "../db/tables";
import type { NoteableType } from "../kind";

/** The label, milestone, weight and iteration event families (GitLab's resource_*_events). */
export type ResourceEventFamily = "label" | "milestone" | "weight" | "iteration";

/** Which resources record which family, as GitLab's models have them. */
export const EVENT_RESOURCES: Record<ResourceEventFamily, readonly NoteableType[]> = {
  label: ["Issue", "MergeRequest", "Epic"],
  milestone: ["Issue", "MergeRequest"],
  weight: ["Issue"],
  iteration: ["Issue"],
};

const TABLE_OF = { label: "resourceLabelEvents", milestone: "resourceMilestoneEvents", weight: "resourceWeightEvents", iteration: "resourceIterationEvents" } as const;

export const eventTable = <F extends ResourceEventFamily>(tables: NotesTables, family: F): NotesTables[(typeof TABLE_OF)[F]] => tables[TABLE_OF[family]];

/** The column of a family's table pointing at a resource of this type. */
export function eventColumn(tables: NotesTables, family: ResourceEventFamily, type: NoteableType) {
  const t = eventTable(tables, family);
  return type === "Issue" ? t.issueId : type === "Epic" ? t.epicId : t.mergeRequestId;
}

/** The resource an event is recorded on: one of issue, merge request, epic. */
export type EventResource = { issueId: number; mergeRequestId?: never; epicId?: never } | { mergeRequestId: number; issueId?: never; epicId?: never } | { epicId: number; issueId?: never; mergeRequestId?: never };

export type EventAction = "add" | "remove";

/**
 * One event per label actually added or removed (labels already there, or never there, record
 * nothing), inside the caller's transaction, as GitLab's ChangeLabelsService. Answers how many.
 */
export async function recordLabelEvents(
  tx: Db,
  tables: NotesTables,
  on: EventResource,
  userId: number,
  change: { before: readonly number[]; after: readonly number[] },
  createdAt = new Date(),
): Promise<number> {
  const { added, removed } = labelChange(change.before, change.after);
  const rows = [
    ...added.map((labelId) => ({ ...on, userId, labelId, action: "add", createdAt })),
    ...removed.map((labelId) => ({ ...on, userId, labelId, action: "remove", createdAt })),
  ];
  if (rows.length) await tx.insert(tables.resourceLabelEvents).values(rows);
  return rows.length;
}

/** The labels a change adds and removes (duplicates ignored), in their given order. */
export function labelChange(before: readonly number[], after: readonly number[]): { added: number[]; removed: number[] } {
  const was = new Set(before);
  const now = new Set(after);
  return { added: [...now].filter((id) => !was.has(id)), removed: [...was].filter((id) => !now.has(id)) };
}

/**
 * A milestone change, as GitLab's ChangeMilestoneService: `add` with the new milestone, or
 * `remove` with the old one when it is unset; nothing when it did not change. `state` is the
 * resource's state at the time.
 */
export async function recordMilestoneEvent(
  tx: Db,
  tables: NotesTables,
  on: EventResource,
  userId: number,
  change: { before: number | null; after: number | null; state: string },
  createdAt = new Date(),
): Promise<boolean> {
  const row = milestoneEventOf(change);
  if (!row) return false;
  await tx.insert(tables.resourceMilestoneEvents).values({ ...on, userId, ...row, state: change.state, createdAt });
  return true;
}

/** What a milestone change records, or null for none. */
export function milestoneEventOf(change: { before: number | null; after: number | null }): { milestoneId: number; action: EventAction } | null {
  if (change.before === change.after) return null;
  return change.after !== null ? { milestoneId: change.after, action: "add" } : { milestoneId: change.before!, action: "remove" };
}

/** A weight change of an issue (null: removed); nothing when it did not change. */
export async function recordWeightEvent(tx: Db, tables: NotesTables, issueId: number, userId: number, change: { before: number | null; after: number | null }, createdAt = new Date()): Promise<boolean> {
  if (change.before === change.after) return false;
  await tx.insert(tables.resourceWeightEvents).values({ issueId, userId, weight: change.after, createdAt });
  return true;
}

/** An iteration change of an issue, as the milestone's: `add` the new one, or `remove` the old one. */
export async function recordIterationEvent(tx: Db, tables: NotesTables, issueId: number, userId: number, change: { before: number | null; after: number | null }, createdAt = new Date()): Promise<boolean> {
  const row = milestoneEventOf(change);
  if (!row) return false;
  await tx.insert(tables.resourceIterationEvents).values({ issueId, userId, iterationId: row.milestoneId, action: row.action, createdAt });
  return true;
}

/**
 * Copies an issue's resource events (state, label, milestone, weight, iteration) onto its moved
 * or cloned copy, oldest first, as GitLab's CopyResourceEventsService. Label and iteration events
 * are copied as they are; a milestone `add` only when the copy's project has that milestone
 * (`milestoneFor`: the source milestone's counterpart, null when none), a `remove` without its
 * milestone.
 */
export async function copyResourceEvents(tx: Db, tables: NotesTables, fromIssueId: number, toIssueId: number, milestoneFor: (id: number) => number | null): Promise<void> {
  const { resourceStateEvents: rse, resourceLabelEvents: rle, resourceMilestoneEvents: rme, resourceWeightEvents: rwe, resourceIterationEvents: rie } = tables;
  const strip = <R extends { id: number; issueId: number | null }>({ id: _id, issueId: _issue, ...rest }: R) => ({ ...rest, issueId: toIssueId });
  // One after another: a transaction's client runs one query at a time.
  const states = await tx.select().from(rse).where(eq(rse.issueId, fromIssueId)).orderBy(asc(rse.id));
  const labels = await tx.select().from(rle).where(eq(rle.issueId, fromIssueId)).orderBy(asc(rle.id));
  const milestones = await tx.select().from(rme).where(eq(rme.issueId, fromIssueId)).orderBy(asc(rme.id));
  const weights = await tx.select().from(rwe).where(eq(rwe.issueId, fromIssueId)).orderBy(asc(rwe.id));
  const iterations = await tx.select().from(rie).where(eq(rie.issueId, fromIssueId)).orderBy(asc(rie.id));
  const copiedMilestones = milestones.flatMap((e): (typeof rme.$inferInsert)[] => {
    if (e.action === "remove") return [{ ...strip(e), milestoneId: null }];
    const target = e.milestoneId === null ? null : milestoneFor(e.milestoneId);
    return target === null ? [] : [{ ...strip(e), milestoneId: target }];
  });
  if (states.length) await tx.insert(rse).values(states.map(strip));
  if (labels.length) await tx.insert(rle).values(labels.map(strip));
  if (copiedMilestones.length) await tx.insert(rme).values(copiedMilestones);
  if (weights.length) await tx.insert(rwe).values(weights.map(strip));
  if (iterations.length) await tx.insert(rie).values(iterations.map(strip));
}

const anyOf = (ids: number[]) => sql`ANY(${sql.param(ids)}::int[])`;

/** The resource events of deleted resources of `type`, inside the deleting transaction. */
export async function removeResourceEvents(tx: Db, tables: NotesTables, type: NoteableType, ids: number[]): Promise<void> {
  for (const family of Object.keys(EVENT_RESOURCES) as ResourceEventFamily[]) {
    if (!EVENT_RESOURCES[family].includes(type)) continue;
    await tx.delete(eventTable(tables, family)).where(sql`${eventColumn(tables, family, type)} = ${anyOf(ids)}`);
  }
}

/**
 * Deleted milestones take their events with them (GitLab's foreign key cascades), after their
 * resources recorded the removal: see clearDeletedMilestones of @collab/work-items.
 */
export async function removeMilestoneEvents(tx: Db, tables: NotesTables, milestoneIds: number[]): Promise<void> {
  if (!milestoneIds.length) return;
  const t = tables.resourceMilestoneEvents;
  await tx.delete(t).where(sql`${t.milestoneId} = ${anyOf(milestoneIds)}`);
}

/** Deleted labels' events stay, without their label (GitLab's foreign key nullifies it): answered with label null. */
export async function forgetDeletedLabels(tx: Db, tables: NotesTables, labelIds: number[]): Promise<void> {
  if (!labelIds.length) return;
  const t = tables.resourceLabelEvents;
  await tx.update(t).set({ labelId: null }).where(sql`${t.labelId} = ${anyOf(labelIds)}`);
}

/** A resource's events of one family, for the finders. */
export const eventsOf = (tables: NotesTables, family: ResourceEventFamily, type: NoteableType, id: number | null): SQL =>
  id === null || !EVENT_RESOURCES[family].includes(type) ? sql`false` : eq(eventColumn(tables, family, type), id);
