import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import type { ListNotesParams } from "../api/notes.params";
import { notes, resourceStateEvents, type NoteRow, type StateEventRow } from "../db/schema";

export interface NoteVisibility {
  /** Internal notes are hidden below Reporter. */
  internal: boolean;
}

const noteableIs = (type: string, id: number) => and(eq(notes.noteableType, type), eq(notes.noteableId, id))!;
const visible = (v: NoteVisibility): SQL | undefined => (v.internal ? undefined : eq(notes.internal, false));

/** Notes API list: comments and system notes, not the replies inside threads. */
export async function findNotes(db: Db, type: string, id: number, p: ListNotesParams, v: NoteVisibility): Promise<{ rows: NoteRow[]; total: number }> {
  const where: (SQL | undefined)[] = [noteableIs(type, id), visible(v), or(sql`${notes.type} IS NULL`, ne(notes.type, "DiscussionNote"))];
  if (p.activity_filter === "only_comments") where.push(eq(notes.system, false));
  if (p.activity_filter === "only_activity") where.push(eq(notes.system, true));
  const condition = and(...where);
  const dir = p.sort === "asc" ? asc : desc;
  const column = p.order_by === "updated_at" ? notes.updatedAt : notes.createdAt;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(notes).where(condition).orderBy(dir(column), dir(notes.id)).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(notes).where(condition),
  ]);
  return { rows, total };
}

export async function findNote(db: Db, type: string, id: number, noteId: number, v: NoteVisibility): Promise<NoteRow | undefined> {
  const [row] = await db.select().from(notes).where(and(noteableIs(type, id), eq(notes.id, noteId), visible(v)));
  return row;
}

/** Threads of a noteable, oldest first, paginated by thread; two queries whatever the page holds. */
export async function findDiscussions(
  db: Db,
  type: string,
  id: number,
  page: { page: number; per_page: number },
  v: NoteVisibility,
): Promise<{ threads: { id: string; notes: NoteRow[] }[]; total: number }> {
  const condition = and(noteableIs(type, id), visible(v));
  const firstAt = sql<Date>`min(${notes.createdAt})`;
  const firstId = sql<number>`min(${notes.id})`;
  const [ids, [{ total }]] = await Promise.all([
    db.select({ id: notes.discussionId }).from(notes).where(condition).groupBy(notes.discussionId).orderBy(asc(firstAt), asc(firstId)).limit(page.per_page).offset(offsetOf(page)),
    db.select({ total: sql<number>`count(DISTINCT ${notes.discussionId})::int` }).from(notes).where(condition),
  ]);
  const discussionIds = ids.map((r) => r.id);
  const rows = discussionIds.length
    ? await db.select().from(notes).where(and(condition, inArray(notes.discussionId, discussionIds))).orderBy(asc(notes.createdAt), asc(notes.id))
    : [];
  return { threads: discussionIds.map((d) => ({ id: d, notes: rows.filter((n) => n.discussionId === d) })), total };
}

export async function findDiscussion(db: Db, type: string, id: number, discussionId: string, v: NoteVisibility): Promise<NoteRow[]> {
  return db
    .select()
    .from(notes)
    .where(and(noteableIs(type, id), eq(notes.discussionId, discussionId), visible(v)))
    .orderBy(asc(notes.createdAt), asc(notes.id));
}

export async function findStateEvents(db: Db, issueId: number, page: { page: number; per_page: number }): Promise<{ rows: StateEventRow[]; total: number }> {
  const condition = eq(resourceStateEvents.issueId, issueId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(resourceStateEvents).where(condition).orderBy(asc(resourceStateEvents.id)).limit(page.per_page).offset(offsetOf(page)),
    db.select({ total: count() }).from(resourceStateEvents).where(condition),
  ]);
  return { rows, total };
}

export async function findStateEvent(db: Db, issueId: number, eventId: number): Promise<StateEventRow | undefined> {
  const [row] = await db.select().from(resourceStateEvents).where(and(eq(resourceStateEvents.issueId, issueId), eq(resourceStateEvents.id, eventId)));
  return row;
}
