import { Issues } from "@collab/issues-contract";
import { addMember, apiClient, createUser, eventually, watchEvents, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { sql } from "drizzle-orm";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";
import { groupWithRoles, outcome, ROLES, tableOf, type Table } from "./group-roles";

/**
 * Comments, threads and state events on a group's epics (GitLab Premium) through the real
 * @gitbeaker/rest client: EpicNotes, EpicDiscussions and EpicStateEvents name the epic by its id
 * (not its iid), as GitLab's notes helpers do. Raw HTTP checks what gitbeaker hides: who may do
 * what on a private and a public group, internal notes, and ids of another epic or group.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("epic-notes");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

interface Epic {
  id: number;
  iid: number;
}

async function createEpic(groupId: number, extra: Record<string, unknown> = {}): Promise<Epic> {
  const res = await root.post(`/groups/${groupId}/epics`, { json: { title: "Roadmap", ...extra } });
  expect(res.status).toBe(201);
  return res.body as Epic;
}

async function createGroup(path: string, visibility: "private" | "public" = "private"): Promise<number> {
  const res = await root.post("/groups", { json: { name: path, path, visibility } });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

test("an epic's conversation with @gitbeaker/rest: notes, threads and state events", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const bob = await createGitbeakerUser(app, "bob");
  const groupId = await createGroup("platform");
  await addMember(app, "groups", groupId, alice.id, 50);
  await addMember(app, "groups", groupId, bob.id, 20);
  // Another group's epic first, so this one's id and iid differ.
  await createEpic(await createGroup("elsewhere"), { title: "Elsewhere" });
  const epic = await alice.gl.Epics.create(groupId, "Launch billing v2");
  expect([epic.iid, epic.id]).toEqual([1, 2]);

  // Notes: create, list, show, edit, delete.
  const note = await bob.gl.EpicNotes.create(groupId, epic.id, "Can we ship in March?");
  expect(note).toMatchObject({
    body: "Can we ship in March?",
    noteable_type: "Epic",
    noteable_id: epic.id,
    noteable_iid: epic.iid,
    project_id: null,
    type: null,
    system: false,
    internal: false,
    confidential: false,
    author: { username: "bob" },
  });
  const second = await alice.gl.EpicNotes.create(groupId, epic.id, "Yes, if invoices land");
  expect((await bob.gl.EpicNotes.all(groupId, epic.id)).map((n) => n.body)).toEqual(["Yes, if invoices land", "Can we ship in March?"]);
  expect((await bob.gl.EpicNotes.all(groupId, epic.id, { sort: "asc" })).map((n) => n.id)).toEqual([note.id, second.id]);
  expect(await alice.gl.EpicNotes.show(groupId, epic.id, note.id)).toMatchObject({ id: note.id, body: "Can we ship in March?" });
  expect(await bob.gl.EpicNotes.edit(groupId, epic.id, note.id, { body: "Can we ship in April?" })).toMatchObject({ body: "Can we ship in April?" });
  // Only the author edits; an Owner deletes anyone's comment, a Reporter only their own.
  expect(await failureStatus(alice.gl.EpicNotes.edit(groupId, epic.id, note.id, { body: "hijacked" }))).toBe(403);
  expect(await failureStatus(bob.gl.EpicNotes.remove(groupId, epic.id, second.id))).toBe(403);
  await alice.gl.EpicNotes.remove(groupId, epic.id, note.id);
  expect((await bob.gl.EpicNotes.all(groupId, epic.id)).map((n) => n.id)).toEqual([second.id]);
  expect((await root.get(`/groups/${groupId}/epics/${epic.id}/notes/${note.id}`)).body).toEqual({ message: "404 Note Not Found" });

  // Threads: start, reply, show, edit and delete a reply; not resolvable.
  const thread = await alice.gl.EpicDiscussions.create(groupId, epic.id, "Scope for v2");
  expect(thread).toMatchObject({ individual_note: false, notes: [{ type: "DiscussionNote", body: "Scope for v2", resolvable: false, noteable_type: "Epic", project_id: null }] });
  const reply = await bob.gl.EpicDiscussions.addNote(groupId, epic.id, thread.id, "Invoices and refunds");
  expect(reply).toMatchObject({ type: "DiscussionNote", body: "Invoices and refunds", author: { username: "bob" } });
  expect((await bob.gl.EpicDiscussions.show(groupId, epic.id, thread.id)).notes.map((n) => n.body)).toEqual(["Scope for v2", "Invoices and refunds"]);
  expect(await bob.gl.EpicDiscussions.editNote(groupId, epic.id, thread.id, reply.id, { body: "Invoices only" })).toMatchObject({ body: "Invoices only" });
  const threads = await bob.gl.EpicDiscussions.all(groupId, epic.id);
  expect(threads.map((t) => [t.individual_note, t.notes.length])).toEqual([
    [true, 1],
    [false, 2],
  ]);
  const resolve = await root.put(`/groups/${groupId}/epics/${epic.id}/discussions/${thread.id}`, { json: { resolved: true } });
  expect(resolve.status).toBe(404);
  expect(await failureStatus(bob.gl.EpicDiscussions.editNote(groupId, epic.id, thread.id, reply.id, { resolved: true }))).toBe(400);
  await bob.gl.EpicDiscussions.removeNote(groupId, epic.id, thread.id, reply.id);
  expect((await bob.gl.EpicDiscussions.show(groupId, epic.id, thread.id)).notes.map((n) => n.body)).toEqual(["Scope for v2"]);

  // State events: each close and reopen, in order, by id; the initial state is not recorded.
  expect(await alice.gl.EpicStateEvents.all(groupId, epic.id)).toEqual([]);
  await alice.gl.Epics.edit(groupId, epic.iid, { stateEvent: "close" });
  await bob.gl.Epics.edit(groupId, epic.iid, { stateEvent: "reopen" });
  // Reopening an open epic changes nothing, so records nothing.
  await bob.gl.Epics.edit(groupId, epic.iid, { stateEvent: "reopen" });
  const events = await bob.gl.EpicStateEvents.all(groupId, epic.id);
  expect(events.map((e) => [e.state, e.user.username, e.resource_type, e.resource_id])).toEqual([
    ["closed", "alice", "Epic", epic.id],
    ["reopened", "bob", "Epic", epic.id],
  ]);
  expect(await bob.gl.EpicStateEvents.show(groupId, epic.id, events[1].id)).toMatchObject({ id: events[1].id, state: "reopened", resource_type: "Epic" });
  expect(Object.keys(events[0]).sort()).toEqual(["created_at", "id", "resource_id", "resource_type", "state", "user"]);
});

test("each comment written, edited and deleted is announced as an epic note event of the group", async () => {
  const groupId = await createGroup("platform");
  const epic = await createEpic(groupId, { title: "Launch", confidential: true });
  const watch = await watchEvents(app, [Issues.events.epicNoteCreated, Issues.events.epicNoteUpdated, Issues.events.epicNoteDeleted]);
  const N = `/groups/${groupId}/epics/${epic.id}/notes`;
  const note = await root.post(N, { json: { body: "first", internal: true } });
  expect(note.status).toBe(201);
  expect((await root.put(`${N}/${note.body.id}`, { json: { body: "first, edited" } })).status).toBe(200);
  // An edit that changes nothing announces nothing.
  expect((await root.put(`${N}/${note.body.id}`, { json: { body: "first, edited" } })).status).toBe(200);
  expect((await root.delete(`${N}/${note.body.id}`)).status).toBe(204);
  await eventually(() => expect(watch.seen).toHaveLength(3));
  await watch.stop();
  expect(watch.seen.map((e) => [e.event, e.payload.body])).toEqual([
    [Issues.events.epicNoteCreated.name, "first"],
    [Issues.events.epicNoteUpdated.name, "first, edited"],
    [Issues.events.epicNoteDeleted.name, "first, edited"],
  ]);
  expect(watch.seen[0].payload).toMatchObject({
    id: note.body.id,
    noteable_type: "Epic",
    noteable_id: epic.id,
    noteable_iid: epic.iid,
    project_id: null,
    group_id: groupId,
    internal: true,
    system: false,
    noteable_title: "Launch",
    noteable_confidential: true,
  });
});

test("the notes rate limit (notes_create_limit) counts comments and new threads on epics", async () => {
  const groupId = await createGroup("platform");
  const epic = await createEpic(groupId);
  const alice = await createUser(app, "alice");
  await addMember(app, "groups", groupId, alice.id, 30);
  expect((await root.put("/application/settings", { json: { notes_create_limit: 1 } })).status).toBe(200);
  const E = `/groups/${groupId}/epics/${epic.id}`;
  expect((await alice.api.post(`${E}/notes`, { json: { body: "one" } })).status).toBe(201);
  const second = await alice.api.post(`${E}/discussions`, { json: { body: "two" } });
  expect(second).toMatchObject({ status: 429, body: { message: { error: "This endpoint has been requested too many times. Try again later." } } });
  expect((await alice.api.get(`${E}/notes`)).body.map((n: { body: string }) => n.body)).toEqual(["one"]);
});

test("system notes are listed but immutable, even for the group's owner and administrators", async () => {
  const groupId = await createGroup("platform");
  const epic = await createEpic(groupId);
  const owner = await createUser(app, "olga");
  await addMember(app, "groups", groupId, owner.id, 50);
  // No endpoint writes a system note on an epic yet: one is set up as GitLab would record a change.
  const [row] = (
    await app.database.db.execute(
      sql`INSERT INTO issues.notes (noteable_type, noteable_id, project_id, author_id, body, system, discussion_id) VALUES ('Epic', ${epic.id}, NULL, ${owner.id}, 'changed the description', true, 'system-note-1') RETURNING id`,
    )
  ).rows as { id: number }[];
  const N = `/groups/${groupId}/epics/${epic.id}/notes`;
  expect((await owner.api.get(`${N}?activity_filter=only_activity`)).body).toMatchObject([{ id: row.id, system: true, project_id: null }]);
  for (const api of [owner.api, root]) {
    expect((await api.put(`${N}/${row.id}`, { json: { body: "rewritten" } })).status).toBe(403);
    expect((await api.delete(`${N}/${row.id}`)).status).toBe(403);
  }
  expect((await root.get(`${N}/${row.id}`)).body.body).toBe("changed the description");
});

test("deleting an epic deletes its notes and state events, not another epic's", async () => {
  const groupId = await createGroup("platform");
  const doomed = await createEpic(groupId, { title: "Doomed" });
  const kept = await createEpic(groupId, { title: "Kept" });
  for (const epic of [doomed, kept]) {
    expect((await root.post(`/groups/${groupId}/epics/${epic.id}/notes`, { json: { body: "a remark" } })).status).toBe(201);
    expect((await root.put(`/groups/${groupId}/epics/${epic.iid}`, { json: { state_event: "close" } })).status).toBe(200);
  }
  expect((await root.delete(`/groups/${groupId}/epics/${doomed.iid}`)).status).toBe(204);
  const { rows } = await app.database.db.execute(
    sql`SELECT (SELECT count(*)::int FROM issues.notes WHERE noteable_type = 'Epic' AND noteable_id = ${doomed.id}) AS notes, (SELECT count(*)::int FROM issues.resource_state_events WHERE epic_id = ${doomed.id}) AS events`,
  );
  expect(rows).toEqual([{ notes: 0, events: 0 }]);
  expect((await root.get(`/groups/${groupId}/epics/${kept.id}/notes`)).body).toHaveLength(1);
  expect((await root.get(`/groups/${groupId}/epics/${kept.id}/resource_state_events`)).body).toHaveLength(1);
});

test("created_at is kept from the group's owners (set_note_created_at) and silently ignored from others", async () => {
  const groupId = await createGroup("platform");
  const epic = await createEpic(groupId);
  const owner = await createUser(app, "olga");
  const reporter = await createUser(app, "rita");
  await addMember(app, "groups", groupId, owner.id, 50);
  await addMember(app, "groups", groupId, reporter.id, 20);
  const N = `/groups/${groupId}/epics/${epic.id}/notes`;
  const past = "2020-02-03T04:05:06Z";
  const startedAt = Date.now() - 1000;
  const backdated = await owner.api.post(N, { json: { body: "backdated", created_at: past } });
  expect([backdated.status, backdated.body.created_at]).toEqual([201, "2020-02-03T04:05:06.000Z"]);
  const ignored = await reporter.api.post(N, { json: { body: "not backdated", created_at: past } });
  expect(ignored.status).toBe(201);
  expect(Date.parse(ignored.body.created_at)).toBeGreaterThanOrEqual(startedAt);
});

test("a note's limits: blank and too long bodies are refused, nothing is written", async () => {
  const groupId = await createGroup("platform");
  const epic = await createEpic(groupId);
  const N = `/groups/${groupId}/epics/${epic.id}/notes`;
  expect(await root.post(N, { json: { body: " " } }).then((r) => [r.status, r.body])).toEqual([400, { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' }]);
  const long = await root.post(N, { json: { body: "x".repeat(1_000_001) } });
  expect([long.status, long.body.message]).toEqual([400, '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}']);
  expect(await root.post(N, { json: {} }).then((r) => r.status)).toBe(400);
  expect((await root.get(N)).body).toEqual([]);
});

test("ids in the path are looked up inside their parent: another epic's note, another group's epic, an iid → 404", async () => {
  const groupId = await createGroup("platform");
  const otherGroupId = await createGroup("marketing");
  const first = await createEpic(groupId, { title: "First" });
  const second = await createEpic(groupId, { title: "Second" });
  const foreign = await createEpic(otherGroupId, { title: "Foreign" });
  const E = (g: number, e: number) => `/groups/${g}/epics/${e}`;
  const note = (await root.post(`${E(groupId, first.id)}/notes`, { json: { body: "on the first" } })).body as { id: number };
  const thread = (await root.post(`${E(groupId, first.id)}/discussions`, { json: { body: "thread on the first" } })).body as { id: string; notes: { id: number }[] };
  expect(await root.put(E(groupId, first.iid), { json: { state_event: "close" } }).then((r) => r.status)).toBe(200);
  const [event] = (await root.get(`${E(groupId, first.id)}/resource_state_events`)).body as { id: number }[];

  const answers = async (path: string, method: "get" | "put" | "delete" | "post" = "get") => {
    const res: ApiResponse = await root[method](path, method === "put" || method === "post" ? { json: { body: "x" } } : undefined);
    return [res.status, res.body?.message];
  };
  // Another epic of the same group does not own the note, thread or event.
  expect(await answers(`${E(groupId, second.id)}/notes/${note.id}`)).toEqual([404, "404 Note Not Found"]);
  expect(await answers(`${E(groupId, second.id)}/notes/${note.id}`, "put")).toEqual([404, "404 Note Not Found"]);
  expect(await answers(`${E(groupId, second.id)}/notes/${note.id}`, "delete")).toEqual([404, "404 Note Not Found"]);
  expect(await answers(`${E(groupId, second.id)}/discussions/${thread.id}`)).toEqual([404, "404 Discussion Not Found"]);
  expect(await answers(`${E(groupId, second.id)}/discussions/${thread.id}/notes`, "post")).toEqual([404, "404 Discussion Not Found"]);
  expect(await answers(`${E(groupId, second.id)}/discussions/${thread.id}/notes/${thread.notes[0].id}`)).toEqual([404, "404 Note Not Found"]);
  expect(await answers(`${E(groupId, second.id)}/resource_state_events/${event.id}`)).toEqual([404, "404 Not found"]);
  // An epic of another group, through this group's path.
  expect(await answers(`${E(groupId, foreign.id)}/notes`)).toEqual([404, "404 Epic Not Found"]);
  expect(await answers(`${E(groupId, foreign.id)}/notes`, "post")).toEqual([404, "404 Epic Not Found"]);
  expect(await answers(`${E(groupId, foreign.id)}/discussions`)).toEqual([404, "404 Epic Not Found"]);
  expect(await answers(`${E(groupId, foreign.id)}/resource_state_events`)).toEqual([404, "404 Epic Not Found"]);
  // The first epic's note through the other group (whose own epic has iid 1, the first's id: ids are not iids).
  expect(await answers(`${E(otherGroupId, first.id)}/notes/${note.id}`)).toEqual([404, "404 Epic Not Found"]);
  // An unknown epic id; the note itself is still there.
  expect(await answers(`${E(groupId, 999_999)}/notes`)).toEqual([404, "404 Epic Not Found"]);
  expect(await answers(`${E(groupId, first.id)}/notes/${note.id}`)).toEqual([200, undefined]);
});

test("a subgroup's epic is found through its ancestor group (GitLab's EpicsFinder looks into descendants), not the other way round", async () => {
  const parentId = await createGroup("platform");
  const sub = await root.post("/groups", { json: { name: "billing", path: "billing", parent_id: parentId } });
  expect(sub.status).toBe(201);
  const inSub = await createEpic(sub.body.id, { title: "Invoices" });
  const inParent = await createEpic(parentId, { title: "Roadmap" });
  const viaParent = await root.post(`/groups/${parentId}/epics/${inSub.id}/notes`, { json: { body: "from above" } });
  expect(viaParent.status).toBe(201);
  expect(viaParent.body).toMatchObject({ noteable_id: inSub.id, noteable_iid: inSub.iid, noteable_type: "Epic" });
  expect((await root.get(`/groups/${sub.body.id}/epics/${inSub.id}/notes`)).body.map((n: { body: string }) => n.body)).toEqual(["from above"]);
  const viaSub = await root.get(`/groups/${sub.body.id}/epics/${inParent.id}/notes`);
  expect([viaSub.status, viaSub.body]).toEqual([404, { message: "404 Epic Not Found" }]);
});

/** A group with one member per role, an open epic with a comment and an internal note by the owner, and a confidential epic. */
async function world(visibility: "private" | "public") {
  const { groupId, callers } = await groupWithRoles(app, root, visibility);
  const open = await createEpic(groupId, { title: "Roadmap" });
  const secret = await createEpic(groupId, { title: "Acquisition", confidential: true });
  const N = `/groups/${groupId}/epics/${open.id}/notes`;
  expect((await callers.owner.post(N, { json: { body: "public plan" } })).status).toBe(201);
  const internal = await callers.owner.post(N, { json: { body: "budget: 2M", internal: true } });
  expect([internal.status, internal.body.internal]).toEqual([201, true]);
  return { groupId, open, secret, callers };
}

const NO_GROUP = "404 Group Not Found";
const NO_EPIC = "404 Epic Not Found";
const FORBIDDEN = "403 Forbidden";
const UNAUTHORIZED = "401 Unauthorized";

const expected = {
  private: {
    list: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    /** How many of the two notes (one internal) each caller sees. */
    seen: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: 1, reporter: 2, developer: 2, maintainer: 2, owner: 2 },
    create: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: 201, reporter: 201, developer: 201, maintainer: 201, owner: 201 },
    /** Whether `internal: true` sticks (Planners and Reporters up) or is silently dropped. */
    internal: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: "public", reporter: "internal", developer: "internal", maintainer: "internal", owner: "internal" },
    confidential: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: NO_EPIC, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    deleteOthers: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: FORBIDDEN, reporter: FORBIDDEN, developer: FORBIDDEN, maintainer: 204, owner: 204 },
  },
  public: {
    list: { anonymous: UNAUTHORIZED, outsider: 200, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    seen: { anonymous: UNAUTHORIZED, outsider: 1, guest: 1, reporter: 2, developer: 2, maintainer: 2, owner: 2 },
    create: { anonymous: UNAUTHORIZED, outsider: 201, guest: 201, reporter: 201, developer: 201, maintainer: 201, owner: 201 },
    internal: { anonymous: UNAUTHORIZED, outsider: "public", guest: "public", reporter: "internal", developer: "internal", maintainer: "internal", owner: "internal" },
    confidential: { anonymous: UNAUTHORIZED, outsider: NO_EPIC, guest: NO_EPIC, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    deleteOthers: { anonymous: UNAUTHORIZED, outsider: FORBIDDEN, guest: FORBIDDEN, reporter: FORBIDDEN, developer: FORBIDDEN, maintainer: 204, owner: 204 },
  },
} satisfies Record<string, Record<string, Table>>;

describe.each(["private", "public"] as const)("a %s group", (visibility) => {
  test("who reads, comments on, marks internal and deletes notes of an epic", async () => {
    const { groupId, open, secret, callers } = await world(visibility);
    const E = `/groups/${groupId}/epics`;
    const N = `${E}/${open.id}/notes`;
    const want = expected[visibility];
    expect(await tableOf((r) => callers[r].get(N))).toEqual(want.list);

    const seen = {} as Table;
    for (const role of ROLES) {
      const res = await callers[role].get(N);
      seen[role] = res.status === 200 ? (res.body as unknown[]).length : outcome(res);
    }
    expect(seen).toEqual(want.seen);
    expect(await tableOf((r) => callers[r].get(`${E}/${open.id}/discussions`))).toEqual(want.list);

    expect(await tableOf((r) => callers[r].post(N, { json: { body: `from the ${r}` } }))).toEqual(want.create);
    const internal = {} as Table;
    for (const role of ROLES) {
      const res = await callers[role].post(N, { json: { body: `aside from the ${role}`, internal: true } });
      internal[role] = res.status === 201 ? (res.body.internal ? "internal" : "public") : outcome(res);
    }
    expect(internal).toEqual(want.internal);

    expect(await tableOf((r) => callers[r].get(`${E}/${secret.id}/notes`))).toEqual(want.confidential);
    expect(await tableOf((r) => callers[r].get(`${E}/${secret.id}/resource_state_events`))).toEqual(want.confidential);

    // Each role deletes a fresh comment of the owner's.
    const deleted = await tableOf(async (r) => {
      const mine = await callers.owner.post(N, { json: { body: `for the ${r} to delete` } });
      return callers[r].delete(`${N}/${mine.body.id}`);
    });
    expect(deleted).toEqual(want.deleteOthers);
  });
});

test("an internal thread stays internal: replies inherit it, Guests never see it", async () => {
  const groupId = await createGroup("platform");
  const reporter = await createUser(app, "rita");
  const guest = await createUser(app, "gus");
  await addMember(app, "groups", groupId, reporter.id, 20);
  await addMember(app, "groups", groupId, guest.id, 10);
  const epic = await createEpic(groupId);
  const D = `/groups/${groupId}/epics/${epic.id}/discussions`;
  const thread = await reporter.api.post(D, { json: { body: "pricing", internal: true } });
  expect([thread.status, thread.body.notes[0].internal]).toEqual([201, true]);
  const reply = await reporter.api.post(`${D}/${thread.body.id}/notes`, { json: { body: "agreed" } });
  expect([reply.status, reply.body.internal]).toEqual([201, true]);
  expect((await guest.api.get(D)).body).toEqual([]);
  expect(outcome(await guest.api.get(`${D}/${thread.body.id}`))).toBe("404 Discussion Not Found");
  expect(outcome(await guest.api.post(`${D}/${thread.body.id}/notes`, { json: { body: "me too" } }))).toBe("404 Discussion Not Found");
  // Changing a note's confidentiality afterwards is refused.
  const flip = await reporter.api.put(`/groups/${groupId}/epics/${epic.id}/notes/${reply.body.id}`, { json: { confidential: false } });
  expect(flip.status).toBe(400);
});
