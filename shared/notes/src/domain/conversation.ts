import type { Db } from "@collab/db";
import { and, asc, eq, sql } from "drizzle-orm";
import type { NotesTables } from "../db/tables";
import type { NoteableType } from "../kind";
import { removeResourceEvents } from "./resource-events";
import { removeAwards } from "../award-emoji/award-emoji";
import { newDiscussionId, type NoteableTarget } from "./system-notes";

/** The state-events column pointing at a noteable of this type. */
export function stateEventColumn(tables: NotesTables, type: NoteableType) {
  const events = tables.resourceStateEvents;
  return type === "Issue" ? events.issueId : type === "Epic" ? events.epicId : events.mergeRequestId;
}

/**
 * Copies every note of one noteable onto another (a moved or cloned issue), each thread under a
 * new discussion id so it stays together; resolutions are not carried over. Answers how many user
 * (non-system) notes were copied, for the copy's user_notes_count.
 */
export async function copyNotes(tx: Db, tables: NotesTables, from: { type: NoteableType; id: number }, to: NoteableTarget): Promise<number> {
  const { notes } = tables;
  const original = await tx.select().from(notes).where(and(eq(notes.noteableType, from.type), eq(notes.noteableId, from.id))).orderBy(asc(notes.id));
  if (!original.length) return 0;
  const threads = new Map<string, string>();
  for (const n of original) if (!threads.has(n.discussionId)) threads.set(n.discussionId, newDiscussionId());
  // One multi-row INSERT: rows take their ids in this order, so the copies keep the original order.
  await tx.insert(notes).values(
    original.map((n) => ({
      noteableType: to.type,
      noteableId: to.id,
      projectId: to.projectId,
      authorId: n.authorId,
      body: n.body,
      system: n.system,
      internal: n.internal,
      type: n.type,
      discussionId: threads.get(n.discussionId)!,
      resolvable: n.resolvable,
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
    })),
  );
  return original.filter((n) => !n.system).length;
}

/** The notes, awards, timelogs, state and other resource events (for kinds that have them) of deleted noteables, inside the deleting transaction. */
export async function removeConversation(tx: Db, tables: NotesTables, type: NoteableType, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const { notes, timelogs } = tables;
  await removeAwards(tx, tables, type, ids);
  await tx.delete(notes).where(and(eq(notes.noteableType, type), sql`${notes.noteableId} = ANY(${sql.param(ids)}::int[])`));
  // Snippets have no states, hence no state events.
  if (type === "Snippet") return;
  if (type === "Issue" || type === "MergeRequest")
    await tx.delete(timelogs).where(sql`${type === "Issue" ? timelogs.issueId : timelogs.mergeRequestId} = ANY(${sql.param(ids)}::int[])`);
  await tx.delete(tables.resourceStateEvents).where(sql`${stateEventColumn(tables, type)} = ANY(${sql.param(ids)}::int[])`);
  await removeResourceEvents(tx, tables, type, ids);
}

/** Every note, award and timelog of a removed project and its iid sequences (its noteables' state events go with them: removeConversation). */
export async function removeProjectNotes(tx: Db, tables: NotesTables, projectId: number): Promise<void> {
  await tx.delete(tables.awardEmoji).where(sql`${tables.awardEmoji.projectId} = ${projectId}`);
  await tx.delete(tables.timelogs).where(sql`${tables.timelogs.projectId} = ${projectId}`);
  await tx.delete(tables.notes).where(sql`${tables.notes.projectId} = ${projectId}`);
  await tx.delete(tables.internalIds).where(sql`${tables.internalIds.projectId} = ${projectId}`);
}
