import { nextIid, openScratchDatabase, trackIid, type Database, type Db } from "@collab/db";
import { sql } from "drizzle-orm";
import { pgSchema } from "drizzle-orm/pg-core";
import { notesTables } from "../db/tables";
import { countUnresolvedThreads, findDiscussion, findNotes, findStateEvents, userNoteCounts } from "../finders/notes.finder";
import type { NoteableType } from "../kind";
import { createNote, deleteNote, replyToDiscussion, type NoteWriteKind } from "./notes";
import { setResolved } from "./resolution";
import { removeConversation } from "./conversation";
import { recordStateEvent } from "./state-events";
import { addSystemNote } from "./system-notes";

/**
 * The write side on a schema of its own (as the merge requests service will have), on a
 * scratch database: the tables come from the factory, their DDL from drizzle-kit.
 */
const schema = pgSchema("notes_write_side_test");
const tables = notesTables(schema);
const counts = new Map<number, number>();
const kindOf = (noteableType: NoteableType, resolvable: boolean): NoteWriteKind => ({
  noteableType,
  tables,
  resolvable,
  bumpUserNotesCount: async (_tx: Db, id: number, delta: number) => counts.set(id, (counts.get(id) ?? 0) + delta),
});
const mr = kindOf("MergeRequest", true);
const issue = kindOf("Issue", false);
const epic = kindOf("Epic", false);
const noteable = (id: number) => ({ id, projectId: 1 });
const scope = (id: number, type: NoteableType = "MergeRequest") => ({ tables, type, id });
const visibleToAll = { internal: true };

let database: Database;
let dispose: () => Promise<void>;
let db: Db;

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("notes-write-side"));
  db = database.db;
  const { generateDrizzleJson, generateMigration } = await import("drizzle-kit/api");
  const ddl = await generateMigration(generateDrizzleJson({}), generateDrizzleJson({ schema, ...tables }));
  for (const statement of ddl) await db.execute(sql.raw(statement));
}, 120_000);

afterAll(() => dispose?.());

describe("notes on a resolvable kind", () => {
  test("thread notes are resolvable, standalone comments are not", async () => {
    const thread = await createNote(db, mr, noteable(1), { body: "a thread", authorId: 7, internal: false, type: "DiscussionNote" });
    const comment = await createNote(db, mr, noteable(1), { body: "a comment", authorId: 7, internal: false, type: null });
    expect(thread.resolvable).toBe(true);
    expect(comment.resolvable).toBe(false);
    expect(counts.get(1)).toBe(2);
  });

  test("replying to a comment makes a resolvable thread of it", async () => {
    const comment = await createNote(db, mr, noteable(2), { body: "c", authorId: 7, internal: false, type: null });
    const reply = await replyToDiscussion(db, mr, noteable(2), [comment], { body: "r", authorId: 8, internal: false });
    const thread = await findDiscussion(db, scope(2), comment.discussionId, visibleToAll);
    expect(thread.map((n) => [n.type, n.resolvable])).toEqual([
      ["DiscussionNote", true],
      ["DiscussionNote", true],
    ]);
    expect(reply.resolvedAt).toBeNull();
  });

  test("resolving a thread resolves its notes; replies to a resolved thread are born resolved; unresolving reopens it", async () => {
    const first = await createNote(db, mr, noteable(3), { body: "t", authorId: 7, internal: false, type: "DiscussionNote" });
    await addSystemNote(db, tables, { type: "MergeRequest", id: 3, projectId: 1 }, 7, "changed the description");
    expect(await countUnresolvedThreads(db, scope(3))).toBe(1);

    const resolved = await setResolved(db, tables, [first], true, 9);
    expect(resolved[0]).toMatchObject({ resolvedById: 9 });
    expect(await countUnresolvedThreads(db, scope(3))).toBe(0);

    const thread = await findDiscussion(db, scope(3), first.discussionId, visibleToAll);
    const reply = await replyToDiscussion(db, mr, noteable(3), thread, { body: "late", authorId: 8, internal: false });
    expect(reply).toMatchObject({ resolvable: true, resolvedById: 8 });
    expect(reply.resolvedAt).not.toBeNull();

    const all = await findDiscussion(db, scope(3), first.discussionId, visibleToAll);
    const reopened = await setResolved(db, tables, all, false, 9);
    expect(reopened.every((n) => n.resolvedAt === null && n.resolvedById === null)).toBe(true);
    expect(await countUnresolvedThreads(db, scope(3))).toBe(1);
  });

  test("user note counts leave system notes out; deleting a note moves the counter back", async () => {
    const note = await createNote(db, mr, noteable(4), { body: "x", authorId: 7, internal: false, type: null });
    await addSystemNote(db, tables, { type: "MergeRequest", id: 4, projectId: 1 }, 7, "s");
    expect((await userNoteCounts(db, tables, "MergeRequest", [3, 4, 99])).get(4)).toBe(1);
    await deleteNote(db, mr, noteable(4), note);
    expect(counts.get(4)).toBe(0);
  });
});

describe("notes on a kind without resolvable threads", () => {
  test("nothing is resolvable", async () => {
    const thread = await createNote(db, issue, noteable(5), { body: "t", authorId: 7, internal: false, type: "DiscussionNote" });
    expect(thread.resolvable).toBe(false);
    expect(await countUnresolvedThreads(db, scope(5, "Issue"))).toBe(0);
  });
});

describe("notes on a group's noteable (an epic: no project)", () => {
  const epicNoteable = (id: number) => ({ id, projectId: null });
  const listAll = { page: 1, per_page: 20, sort: "asc", order_by: "created_at", activity_filter: "all_notes" } as const;

  test("its notes have no project and are the epic's alone, not an issue's with the same id", async () => {
    const note = await createNote(db, epic, epicNoteable(20), { body: "on the epic", authorId: 7, internal: false, type: null });
    await createNote(db, issue, noteable(20), { body: "on the issue", authorId: 7, internal: false, type: null });
    expect(note).toMatchObject({ noteableType: "Epic", noteableId: 20, projectId: null });
    const { rows } = await findNotes(db, scope(20, "Epic"), listAll, visibleToAll);
    expect(rows.map((n) => n.body)).toEqual(["on the epic"]);
  });

  test("its state events go through epic_id and leave with its conversation", async () => {
    await recordStateEvent(db, tables, { userId: 7, epicId: 21, state: "closed" });
    await recordStateEvent(db, tables, { userId: 7, issueId: 21, state: "closed" });
    await createNote(db, epic, epicNoteable(21), { body: "bye", authorId: 7, internal: false, type: null });
    const { rows } = await findStateEvents(db, scope(21, "Epic"), { page: 1, per_page: 20 });
    expect(rows.map((e) => [e.epicId, e.issueId, e.state])).toEqual([[21, null, "closed"]]);

    await db.transaction((tx) => removeConversation(tx, tables, "Epic", [21]));
    expect((await findStateEvents(db, scope(21, "Epic"), { page: 1, per_page: 20 })).total).toBe(0);
    expect((await findNotes(db, scope(21, "Epic"), listAll, visibleToAll)).total).toBe(0);
    // The issue with the same id keeps its own.
    expect((await findStateEvents(db, scope(21, "Issue"), { page: 1, per_page: 20 })).total).toBe(1);
  });
});

describe("state events and iids", () => {
  test("state events are found through the noteable's own column", async () => {
    await recordStateEvent(db, tables, { userId: 7, mergeRequestId: 6, state: "merged" });
    await recordStateEvent(db, tables, { userId: 7, issueId: 6, state: "closed" });
    const { rows, total } = await findStateEvents(db, scope(6), { page: 1, per_page: 20 });
    expect(total).toBe(1);
    expect(rows[0]).toMatchObject({ mergeRequestId: 6, issueId: null, state: "merged" });
  });

  test("iids count per project and usage; an explicit one moves the sequence past it", async () => {
    expect(await nextIid(db, tables.internalIds, 1, "merge_requests")).toBe(1);
    expect(await nextIid(db, tables.internalIds, 1, "merge_requests")).toBe(2);
    expect(await nextIid(db, tables.internalIds, 2, "merge_requests")).toBe(1);
    await trackIid(db, tables.internalIds, 1, "merge_requests", 10);
    expect(await nextIid(db, tables.internalIds, 1, "merge_requests")).toBe(11);
  });
});
