import { offsetOf } from "@collab/core";
import { pageTotal, preparedByShape, totalColumn, type Db } from "@collab/db";
import { and, asc, count, desc, eq, getTableColumns, inArray, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { getTableConfig } from "drizzle-orm/pg-core";
import type { ListNotesFilters } from "@collab/notes-contract";
import type { NoteRow, NotesTables, StateEventRow } from "../db/tables";
import type { NoteableType } from "../kind";
import { stateEventColumn } from "../domain/conversation";

export interface NoteVisibility {
  /** Internal notes are hidden below Reporter. */
  internal: boolean;
}

/** One noteable's notes: the tables, the noteable's type and id (or, for a commit, its project and sha). */
export interface NoteableScope {
  tables: NotesTables;
  type: NoteableType;
  id: number | null;
  commit?: { projectId: number; sha: string };
}

const noteableIs = ({ tables: { notes }, type, id, commit }: NoteableScope) =>
  commit
    ? and(eq(notes.noteableType, type), eq(notes.projectId, commit.projectId), eq(notes.commitId, commit.sha))!
    : and(eq(notes.noteableType, type), id === null ? isNull(notes.noteableId) : eq(notes.noteableId, id))!;
const visible = ({ tables: { notes } }: NoteableScope, v: NoteVisibility): SQL | undefined => (v.internal ? undefined : eq(notes.internal, false));

/** What the text of a notes list depends on; everything else is a parameter. */
interface NotesListShape {
  notes: NotesTables["notes"];
  internal: boolean;
  activity: ListNotesFilters["activity_filter"];
  sort: ListNotesFilters["sort"];
  orderBy: ListNotesFilters["order_by"];
}

/** Comments and system notes of one noteable, not the replies inside threads ($type, $id). */
function listCondition({ notes, internal, activity }: NotesListShape): SQL {
  const where: (SQL | undefined)[] = [
    eq(notes.noteableType, sql.placeholder("type")),
    eq(notes.noteableId, sql.placeholder("id")),
    internal ? undefined : eq(notes.internal, false),
    or(sql`${notes.type} IS NULL`, ne(notes.type, "DiscussionNote")),
  ];
  if (activity === "only_comments") where.push(eq(notes.system, false));
  if (activity === "only_activity") where.push(eq(notes.system, true));
  return and(...where)!;
}

// Every notes list of every service runs through these: prepared once per shape and database.
const schemas = new WeakMap<NotesTables["notes"], string>();
/** The notes table's schema, looked up once per table (getTableConfig rebuilds its whole config). */
const schemaOf = (notes: NotesTables["notes"]) => {
  let schema = schemas.get(notes);
  if (schema === undefined) schemas.set(notes, (schema = getTableConfig(notes).schema ?? "public"));
  return schema;
};
const listKey = (x: NotesListShape) => `${schemaOf(x.notes)}|${x.internal}|${x.activity}|${x.sort}|${x.orderBy}`;
const notesPage = preparedByShape(listKey, (db, x, name) => {
  const dir = x.sort === "asc" ? asc : desc;
  const column = x.orderBy === "updated_at" ? x.notes.updatedAt : x.notes.createdAt;
  return db
    .select({ ...getTableColumns(x.notes), listTotal: totalColumn(db.select({ total: count() }).from(x.notes).where(listCondition(x))) })
    .from(x.notes)
    .where(listCondition(x))
    .orderBy(dir(column), dir(x.notes.id))
    .limit(sql.placeholder("limit"))
    .offset(sql.placeholder("offset"))
    .prepare(`${name}_page`);
});
const notesCount = preparedByShape(listKey, (db, x, name) => db.select({ total: count() }).from(x.notes).where(listCondition(x)).prepare(`${name}_count`));

/** Notes API list: comments and system notes, not the replies inside threads. */
export async function findNotes(db: Db, s: NoteableScope, p: ListNotesFilters, v: NoteVisibility): Promise<{ rows: NoteRow[]; total: number }> {
  const shape: NotesListShape = { notes: s.tables.notes, internal: v.internal, activity: p.activity_filter, sort: p.sort, orderBy: p.order_by };
  const key = { type: s.type, id: s.id };
  // One noteable's notes are few: their count rides with the page (one round trip, not two).
  const offset = offsetOf(p);
  const rows = await notesPage(db, shape, { ...key, limit: p.per_page, offset });
  const total = await pageTotal(rows, offset, async () => (await notesCount(db, shape, key))[0].total);
  return { rows, total };
}

export async function findNote(db: Db, s: NoteableScope, noteId: number, v: NoteVisibility): Promise<NoteRow | undefined> {
  const [row] = await db.select().from(s.tables.notes).where(and(noteableIs(s), eq(s.tables.notes.id, noteId), visible(s, v)));
  return row;
}

/** Every note of a noteable, thread notes and system notes too, oldest first (GitLab's commit comments list). */
export async function findAllNotes(db: Db, s: NoteableScope, page: { page: number; per_page: number }, v: NoteVisibility): Promise<{ rows: NoteRow[]; total: number }> {
  const { notes } = s.tables;
  const condition = and(noteableIs(s), visible(s, v));
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(notes).where(condition).orderBy(asc(notes.createdAt), asc(notes.id)).limit(page.per_page).offset(offsetOf(page)),
    db.select({ total: count() }).from(notes).where(condition),
  ]);
  return { rows, total };
}

/** Threads of a noteable, oldest first, paginated by thread; two queries whatever the page holds. */
export async function findDiscussions(
  db: Db,
  s: NoteableScope,
  page: { page: number; per_page: number },
  v: NoteVisibility,
): Promise<{ threads: { id: string; notes: NoteRow[] }[]; total: number }> {
  const { notes } = s.tables;
  const condition = and(noteableIs(s), visible(s, v));
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

export async function findDiscussion(db: Db, s: NoteableScope, discussionId: string, v: NoteVisibility): Promise<NoteRow[]> {
  const { notes } = s.tables;
  return db
    .select()
    .from(notes)
    .where(and(noteableIs(s), eq(notes.discussionId, discussionId), visible(s, v)))
    .orderBy(asc(notes.createdAt), asc(notes.id));
}

/**
 * Threads with something left to resolve (a resolvable note not yet resolved), for a merge
 * request's detailed_merge_status; internal notes count too, as in GitLab.
 */
export async function countUnresolvedThreads(db: Db, s: NoteableScope): Promise<number> {
  const { notes } = s.tables;
  const [{ total }] = await db
    .select({ total: sql<number>`count(DISTINCT ${notes.discussionId})::int` })
    .from(notes)
    .where(and(noteableIs(s), eq(notes.resolvable, true), isNull(notes.resolvedAt)));
  return total;
}

/** User (non-system) notes per noteable, for the noteables given; absent ones have none. */
export async function userNoteCounts(db: Db, tables: NotesTables, type: NoteableType, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const { notes } = tables;
  const rows = await db
    .select({ id: notes.noteableId, total: count() })
    .from(notes)
    .where(and(eq(notes.noteableType, type), inArray(notes.noteableId, ids), eq(notes.system, false)))
    .groupBy(notes.noteableId);
  return new Map(rows.map((r) => [r.id!, r.total]));
}

/** A noteable's state events; a commit (no id) has none. */
const stateEventsOf = (s: NoteableScope): SQL => (s.id === null ? sql`false` : eq(stateEventColumn(s.tables, s.type), s.id));

export async function findStateEvents(db: Db, s: NoteableScope, page: { page: number; per_page: number }): Promise<{ rows: StateEventRow[]; total: number }> {
  const events = s.tables.resourceStateEvents;
  const condition = stateEventsOf(s);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(events).where(condition).orderBy(asc(events.id)).limit(page.per_page).offset(offsetOf(page)),
    db.select({ total: count() }).from(events).where(condition),
  ]);
  return { rows, total };
}

export async function findStateEvent(db: Db, s: NoteableScope, eventId: number): Promise<StateEventRow | undefined> {
  const events = s.tables.resourceStateEvents;
  const [row] = await db.select().from(events).where(and(stateEventsOf(s), eq(events.id, eventId)));
  return row;
}

/** Who wrote each note the caller may see on a noteable, and what it says, oldest first (participants). */
export async function findParticipation(db: Db, s: NoteableScope, v: NoteVisibility): Promise<{ authorId: number; body: string }[]> {
  const { notes } = s.tables;
  return db.select({ authorId: notes.authorId, body: notes.body }).from(notes).where(and(noteableIs(s), visible(s, v))).orderBy(asc(notes.createdAt), asc(notes.id));
}
