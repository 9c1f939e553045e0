import { errorBodyOf, notFound } from "@collab/core";
import { type ProjectAccess } from "@collab/work-items";
import { openScratchDatabase, type Database, type EventBus, type ServiceKit } from "@collab/db";
import { sql } from "drizzle-orm";
import { pgSchema } from "drizzle-orm/pg-core";
import type { ActionSchema } from "moleculer";
import { notesTables } from "../db/tables";
import { mayResolve } from "../domain/resolution";
import { noteEventContracts } from "@collab/core";
import type { LoadedNoteable, NoteableKind } from "../kind";
import { notesActions } from "./index";
import { noteContract, unresolvableNoteContract } from "@collab/notes-contract";

/**
 * The resolution endpoints through the shared actions, with a resolvable kind of the test's own
 * (a merge request authored by user 2) on a scratch database. Roles: 1 Developer, 2 the merge
 * request's author (Guest), 3 a Guest who writes a thread, 4 a Reporter.
 */
const schema = pgSchema("notes_resolution_test");
const tables = notesTables(schema);
const roles = new Map([
  [1, 30],
  [2, 10],
  [3, 10],
  [4, 20],
]);
const mergeRequest = { id: 1, iid: 4, projectId: 1, discussionLocked: null, authorId: 2 };

const kindOf = (resolvable: boolean): NoteableKind => ({
  noteableType: resolvable ? "MergeRequest" : "Issue",
  pathParam: resolvable ? "merge_request_iid" : "issue_iid",
  tables,
  events: noteEventContracts("test"),
  resolvable,
  missing: () => notFound("Merge Request"),
  async load(_kit, ctx, _ref, iid, missing): Promise<LoadedNoteable> {
    if (iid !== mergeRequest.iid) throw missing();
    const caller = (ctx.meta as { caller?: LoadedNoteable["caller"] }).caller ?? null;
    return { noteable: mergeRequest, caller, role: caller ? (roles.get(caller.id) ?? 0) : 0, access: { project: { id: 1 } } as unknown as ProjectAccess };
  },
  bumpUserNotesCount: async () => undefined,
  can: {
    comment: (l) => l.caller !== null,
    seeInternalNotes: (l) => l.role >= 20,
    setTimestamps: () => false,
    resolve: (l, note) => mayResolve({ role: l.role, callerId: l.caller?.id ?? null, noteableAuthorId: l.noteable.authorId, noteAuthorId: note?.authorId }),
  },
});

let database: Database;
let dispose: () => Promise<void>;
let mr: Record<string, ActionSchema>;
let issue: Record<string, ActionSchema>;

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("notes-resolution"));
  const { generateDrizzleJson, generateMigration } = await import("drizzle-kit/api");
  for (const statement of await generateMigration(generateDrizzleJson({}), generateDrizzleJson({ schema, ...tables })))
    await database.db.execute(sql.raw(statement));
  // These tests are about resolution rules: the events the actions announce are not kept.
  const events: EventBus = { publish: async () => undefined, flush: async () => undefined, transact: (change) => database.db.transaction(change), announced: (write) => write };
  const kit = { db: database.db, events } as ServiceKit;
  mr = notesActions(kit, kindOf(true), noteContract("test", "merge_request_iid"));
  issue = notesActions(kit, kindOf(false), unresolvableNoteContract("test", "issue_iid"));
}, 120_000);

afterAll(() => dispose?.());

/** Calls an action's handler as the given user, with params as its schema would have parsed them. */
function call(actions: Record<string, ActionSchema>, name: string, userId: number, params: Record<string, unknown>) {
  const ctx = {
    params: { id: "1", merge_request_iid: 4, issue_iid: 4, ...params },
    meta: { caller: { id: userId, username: `u${userId}`, admin: false } },
    call: async (_action: string, p: { ids: number[] }) => p.ids.map((id) => ({ id, username: `u${id}` })),
    emit: () => undefined,
  };
  return (actions[name].handler as (c: unknown) => Promise<Record<string, unknown>>)(ctx);
}
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e) => errorBodyOf(e));

type Note = { id: number; resolvable: boolean; resolved?: boolean; resolved_by?: { id: number } | null };
type Discussion = { id: string; notes: Note[] };

test("the resolve action exists only for resolvable kinds", () => {
  expect(mr["discussions.resolve"]).toBeDefined();
  expect(issue["discussions.resolve"]).toBeUndefined();
});

test("one note: its author or a Developer may resolve it, a Reporter may not", async () => {
  const thread = (await call(mr, "discussions.create", 3, { body: "please rename" })) as unknown as Discussion;
  const noteId = thread.notes[0].id;
  const ref = { discussion_id: thread.id, note_id: noteId };
  expect(thread.notes[0]).toMatchObject({ resolvable: true, resolved: false, resolved_by: null });

  expect((await failure(call(mr, "discussions.updateNote", 4, { ...ref, resolved: true })))?.status).toBe(403);
  const resolved = (await call(mr, "discussions.updateNote", 3, { ...ref, resolved: true })) as unknown as Note;
  expect(resolved).toMatchObject({ resolved: true, resolved_by: { id: 3 } });
  const reopened = (await call(mr, "discussions.updateNote", 1, { ...ref, resolved: false })) as unknown as Note;
  expect(reopened).toMatchObject({ resolved: false, resolved_by: null });
});

test("a whole thread: the merge request's author or a Developer, not the thread's own author", async () => {
  const thread = (await call(mr, "discussions.create", 3, { body: "t" })) as unknown as Discussion;
  await call(mr, "discussions.reply", 1, { discussion_id: thread.id, body: "r" });

  expect((await failure(call(mr, "discussions.resolve", 3, { discussion_id: thread.id, resolved: true })))?.status).toBe(403);
  const resolved = (await call(mr, "discussions.resolve", 2, { discussion_id: thread.id, resolved: true })) as unknown as Discussion;
  expect(resolved.notes.map((n) => [n.resolved, n.resolved_by?.id])).toEqual([
    [true, 2],
    [true, 2],
  ]);
  const reopened = (await call(mr, "discussions.resolve", 1, { discussion_id: thread.id, resolved: false })) as unknown as Discussion;
  expect(reopened.notes.every((n) => n.resolved === false)).toBe(true);
});

test("comments are not resolvable: 400 for the note, 403 for its thread", async () => {
  const comment = (await call(mr, "notes.create", 1, { body: "c" })) as unknown as Note;
  const list = (await call(mr, "discussions.list", 1, { page: 1, per_page: 100 })) as unknown as { items: Discussion[] };
  const its = list.items.find((d) => d.notes.some((n) => n.id === comment.id))!;
  expect(comment.resolvable).toBe(false);
  expect(comment).not.toHaveProperty("resolved");
  expect(await failure(call(mr, "discussions.updateNote", 1, { discussion_id: its.id, note_id: comment.id, resolved: true }))).toEqual({
    status: 400,
    body: { message: "400 Bad request - Note is not resolvable" },
  });
  expect((await failure(call(mr, "discussions.resolve", 1, { discussion_id: its.id, resolved: true })))?.status).toBe(403);
});

test("a kind without resolvable threads answers 400 to every resolution, even a Developer's", async () => {
  const thread = (await call(issue, "discussions.create", 1, { body: "t" })) as unknown as Discussion;
  expect(thread.notes[0].resolvable).toBe(false);
  expect(await failure(call(issue, "discussions.updateNote", 1, { discussion_id: thread.id, note_id: thread.notes[0].id, resolved: true }))).toEqual({
    status: 400,
    body: { message: "400 Bad request - Note is not resolvable" },
  });
});

test("a missing noteable is the kind's 404", async () => {
  expect(await failure(call(mr, "discussions.resolve", 1, { merge_request_iid: 5, discussion_id: "x", resolved: true }))).toEqual({
    status: 404,
    body: { message: "404 Merge Request Not Found" },
  });
});
