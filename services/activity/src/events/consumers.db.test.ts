import type { EventContract } from "@collab/core";
import { openScratchDatabase, type Database } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { Repositories } from "@collab/repositories-contract";
import { Snippets } from "@collab/snippets-contract";
import { asc } from "drizzle-orm";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { EventFilterParams } from "@collab/activity-contract";
import { events } from "../db/schema";
import { consumers, derivedId, pushData } from "./consumers";
import { findEvents } from "./events.finder";

/** The consumers on a scratch database with this service's migration: what each domain event records. */
let database: Database;
let dispose: () => Promise<void>;
const at = "2026-01-02T03:04:05.000Z";

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("activity-consumers"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_activity_test" });
}, 120_000);
afterAll(() => dispose?.());
beforeEach(() => database.db.delete(events));

/** Delivers a payload of a producer's event (its contract entry) to this service's consumer of it. */
async function deliver(entry: EventContract, payload: unknown, id = randomUUID()) {
  const name = entry.name;
  const c = consumers(() => {
    throw new Error("these events need no bus call");
  })[name];
  const parsed = c.schema.safeParse(payload);
  if (!parsed.success) throw new Error(`invalid ${name} payload`);
  await database.db.transaction((tx) => c.handle(parsed.data, tx, { id, name, occurredAt: at }));
}
const rows = () => database.db.select().from(events).orderBy(asc(events.id));

const issue = { id: 7, iid: 3, project_id: 1, actor_id: 2, title: "Bug", confidential: true };
const mr = { id: 9, iid: 4, project_id: 1, actor_id: 2, title: "MR", source_branch: "f", target_branch: "main", state: "merged" };
const note = {
  id: 11, noteable_type: "Issue", noteable_id: 7, noteable_iid: 3, noteable_title: "Bug", noteable_confidential: true,
  project_id: 1, actor_id: 2, author_id: 2, body: "hi", internal: true, system: false, discussion_id: "d", created_at: at,
};

it("records issue and merge request actions with their target, once per event id", async () => {
  const id = randomUUID();
  await deliver(Issues.events.issueOpened, issue, id);
  await deliver(Issues.events.issueOpened, issue, id);
  await deliver(MergeRequests.events.mergeRequestMerged, mr);
  await deliver(MergeRequests.events.mergeRequestApproved, { id: 9, iid: 4, project_id: 1, actor_id: 5, title: "MR" });
  const r = await rows();
  expect(r.map((e) => [e.action, e.targetType, e.targetId, e.targetIid, e.targetTitle, e.authorId])).toEqual([
    ["created", "Issue", 7, 3, "Bug", 2],
    ["merged", "MergeRequest", 9, 4, "MR", 2],
    ["approved", "MergeRequest", 9, 4, "MR", 5],
  ]);
  expect(r[0]).toMatchObject({ confidential: true, createdAt: new Date(at) });
});

it("records comments with a snapshot, skips system notes, follows edits and deletions", async () => {
  await deliver(Issues.events.noteCreated, note);
  await deliver(Issues.events.noteCreated, { ...note, id: 12, system: true });
  await deliver(Issues.events.noteUpdated, { ...note, body: "edited" });
  let r = await rows();
  expect(r).toHaveLength(1);
  expect(r[0]).toMatchObject({ action: "commented", targetType: "Note", targetId: 11, targetTitle: "Bug", confidential: true, internal: true });
  expect(r[0].note).toMatchObject({ id: 11, body: "edited", noteable_type: "Issue", noteable_iid: 3, author_id: 2 });
  await deliver(Issues.events.noteDeleted, note);
  r = await rows();
  expect(r).toEqual([]);
});

it("follows an issue's title and confidentiality on its events and its comments' events", async () => {
  await deliver(Issues.events.issueOpened, { ...issue, confidential: false });
  await deliver(Issues.events.noteCreated, { ...note, noteable_confidential: false });
  await deliver(Issues.events.issueUpdated, { ...issue, title: "Renamed", confidential: true, changes: ["title", "confidential"] });
  expect((await rows()).map((e) => [e.targetType, e.targetTitle, e.confidential])).toEqual([
    ["Issue", "Renamed", true],
    ["Note", "Renamed", true],
  ]);
});

it("drops a deleted issue's events and its comments' events, and a deleted project's events", async () => {
  await deliver(Issues.events.issueOpened, issue);
  await deliver(Issues.events.noteCreated, note);
  await deliver(Issues.events.issueOpened, { ...issue, id: 8, iid: 4 });
  await deliver(Issues.events.issueDeleted, issue);
  expect((await rows()).map((e) => e.targetId)).toEqual([8]);
  await deliver(Namespaces.events.projectCreated, { projectId: 2, userId: 1, name: "p", namespaceId: 3 });
  await deliver(Namespaces.events.projectDeleted, { projectId: 1 });
  expect((await rows()).map((e) => [e.projectId, e.action, e.targetType])).toEqual([[2, "created", null]]);
});

const epic = { id: 21, iid: 2, group_id: 5, actor_id: 2, title: "Roadmap", confidential: true };
const epicNote = { ...note, id: 31, noteable_type: "Epic", noteable_id: 21, noteable_iid: 2, noteable_title: "Roadmap", project_id: null, group_id: 5, internal: false };

it("records an epic's creation, closing, reopening and comments by group, once per event id, not its edits", async () => {
  const id = randomUUID();
  await deliver(Issues.events.epicOpened, epic, id);
  await deliver(Issues.events.epicOpened, epic, id);
  await deliver(Issues.events.epicClosed, epic);
  await deliver(Issues.events.epicReopened, epic);
  await deliver(Issues.events.epicUpdated, { ...epic, changes: ["description"] });
  const noteId = randomUUID();
  await deliver(Issues.events.epicNoteCreated, epicNote, noteId);
  await deliver(Issues.events.epicNoteCreated, epicNote, noteId);
  await deliver(Issues.events.epicNoteCreated, { ...epicNote, id: 32, system: true });
  const r = await rows();
  expect(r.map((e) => [e.action, e.targetType, e.targetId, e.targetIid, e.targetTitle, e.projectId, e.groupId, e.confidential])).toEqual([
    ["created", "Epic", 21, 2, "Roadmap", null, 5, true],
    ["closed", "Epic", 21, 2, "Roadmap", null, 5, true],
    ["reopened", "Epic", 21, 2, "Roadmap", null, 5, true],
    ["commented", "Note", 31, 31, "Roadmap", null, 5, true],
  ]);
  expect(r[3].note).toMatchObject({ id: 31, noteable_type: "Epic", noteable_id: 21, noteable_iid: 2, body: "hi" });
});

it("records an epic's events where no Events API listing reaches them, not even an administrator's", async () => {
  await deliver(Issues.events.epicOpened, epic);
  await deliver(Issues.events.epicClosed, epic);
  await deliver(Issues.events.epicNoteCreated, epicNote);
  await deliver(Issues.events.issueOpened, issue);
  expect(await rows()).toHaveLength(4);
  const listed = async (filters: Record<string, string>) => {
    const { rows: shown, total } = await findEvents(database.db, { readable: "all", reporter: "all", callerId: 1, authorId: 2 }, EventFilterParams.parse(filters));
    return { targets: shown.map((e) => `${e.targetType}${e.targetId}`), total };
  };
  expect(await listed({})).toEqual({ targets: ["Issue7"], total: 1 });
  expect(await listed({ target_type: "epic" })).toEqual({ targets: [], total: 0 });
  expect(await listed({ target_type: "note" })).toEqual({ targets: [], total: 0 });
});

it("follows an epic's title and confidentiality, and its comments' edits", async () => {
  await deliver(Issues.events.epicOpened, epic);
  await deliver(Issues.events.epicNoteCreated, epicNote);
  await deliver(Issues.events.epicUpdated, { ...epic, title: "Plan", confidential: false, changes: ["title", "confidential"] });
  await deliver(Issues.events.epicNoteUpdated, { ...epicNote, body: "edited", internal: true });
  // A merge request's note of the same id (ids count per service) is another comment.
  await deliver(MergeRequests.events.noteUpdated, { ...epicNote, noteable_type: "MergeRequest", project_id: 1, body: "not mine" });
  const r = await rows();
  expect(r.map((e) => [e.targetType, e.targetTitle, e.confidential, e.internal])).toEqual([
    ["Epic", "Plan", false, false],
    ["Note", "Plan", false, true],
  ]);
  expect(r[1].note?.body).toBe("edited");
});

it("drops a deleted epic's events and its comments' events, a deleted comment's, and a deleted group's", async () => {
  await deliver(Issues.events.epicOpened, epic);
  await deliver(Issues.events.epicNoteCreated, epicNote);
  await deliver(Issues.events.epicOpened, { ...epic, id: 22, iid: 3 });
  await deliver(Issues.events.epicNoteCreated, { ...epicNote, id: 33, noteable_id: 22, noteable_iid: 3 });
  await deliver(Issues.events.epicOpened, { ...epic, id: 23, iid: 1, group_id: 6 });
  await deliver(Issues.events.issueOpened, issue);
  await deliver(Issues.events.epicDeleted, epic);
  expect((await rows()).map((e) => [e.targetType, e.targetId])).toEqual([["Epic", 22], ["Note", 33], ["Epic", 23], ["Issue", 7]]);
  await deliver(MergeRequests.events.noteDeleted, { ...epicNote, id: 33, noteable_type: "MergeRequest", project_id: 1 });
  expect(await rows()).toHaveLength(4);
  await deliver(Issues.events.epicNoteDeleted, { ...epicNote, id: 33 });
  expect((await rows()).map((e) => e.targetId)).toEqual([22, 23, 7]);
  await deliver(Namespaces.events.groupDeleted, { groupIds: [5, 9] });
  expect((await rows()).map((e) => [e.groupId, e.targetId])).toEqual([[6, 23], [null, 7]]);
});

it("records no personal snippet's creation (GitLab records none) and no comment without a project or group", async () => {
  await deliver(Snippets.events.snippetCreated, { id: 41, project_id: null, actor_id: 2, title: "Mine", visibility: "public" });
  await deliver(Snippets.events.snippetCreated, { id: 42, project_id: 1, actor_id: 2, title: "Ours", visibility: "public" });
  await deliver(Snippets.events.noteCreated, { ...note, id: 51, noteable_type: "Snippet", noteable_id: 41, noteable_iid: null, project_id: null });
  expect((await rows()).map((e) => [e.targetType, e.targetId, e.projectId])).toEqual([["Snippet", 42, 1]]);
});

it("records project milestones (destroyed ones one by one) and project members joining and leaving", async () => {
  await deliver(Namespaces.events.milestoneCreated, { id: 1, iid: 1, title: "v1", projectId: 1, groupId: null, userId: 2 });
  await deliver(Namespaces.events.milestoneCreated, { id: 2, iid: 1, title: "g1", projectId: null, groupId: 5, userId: 2 });
  await deliver(Namespaces.events.milestoneDeleted, { milestoneIds: [1, 3], projectId: 1, groupId: null, userId: 2, milestones: [{ id: 1, iid: 1, title: "v1" }, { id: 3, iid: 2, title: "v2" }] });
  await deliver(Namespaces.events.memberAdded, { sourceType: "Project", sourceId: 1, projectId: 1, groupId: null, userId: 4, accessLevel: 30, actorId: 1 });
  await deliver(Namespaces.events.memberAdded, { sourceType: "Namespace", sourceId: 5, projectId: null, groupId: 5, userId: 4, accessLevel: 30, actorId: 1 });
  await deliver(Namespaces.events.memberRemoved, { sourceType: "Project", sourceId: 1, projectId: 1, groupId: null, userId: 4, accessLevel: 30, actorId: 1 });
  expect((await rows()).map((e) => [e.action, e.targetType, e.targetTitle, e.authorId])).toEqual([
    ["created", "Milestone", "v1", 2],
    ["destroyed", "Milestone", "v1", 2],
    ["destroyed", "Milestone", "v2", 2],
    ["joined", null, null, 4],
    ["left", null, null, 4],
  ]);
});

it("records branch and tag pushes with their push data", async () => {
  const sha = "a".repeat(40);
  const zero = "0".repeat(40);
  const long = `Add ${"x".repeat(80)}`;
  const commit = { id: sha, message: `${long}\n\nbody`, title: long, timestamp: at, url: `http://h/-/commit/${sha}`, author: { name: "A", email: "a@example.com" } };
  const pushed = { projectId: 1, userId: 2, userUsername: "ann" };
  await deliver(Repositories.events.branchPushed, { ...pushed, ref: "refs/heads/f", branch: "f", before: zero, after: sha, commits: [commit], totalCommitsCount: 2, commitCount: 2, commitTitle: long });
  await deliver(Repositories.events.branchPushed, { ...pushed, ref: "refs/heads/g", branch: "g", before: "b".repeat(40), after: sha, commits: [commit], totalCommitsCount: 1, commitCount: 1, commitTitle: "Fix" });
  await deliver(Repositories.events.tagPushed, { ...pushed, ref: "refs/tags/v1", tag: "v1", before: sha, after: zero, commits: [], totalCommitsCount: 0, commitTitle: "" });
  expect((await rows()).map((e) => e.pushData)).toEqual([
    { commit_count: 2, action: "created", ref_type: "branch", commit_from: null, commit_to: sha, ref: "f", commit_title: `${long.slice(0, 67)}...`, ref_count: null },
    { commit_count: 1, action: "pushed", ref_type: "branch", commit_from: "b".repeat(40), commit_to: sha, ref: "g", commit_title: "Fix", ref_count: null },
    { commit_count: 0, action: "removed", ref_type: "tag", commit_from: sha, commit_to: null, ref: "v1", commit_title: null, ref_count: null },
  ]);
});

it("derives distinct, stable ids for the records of one event", () => {
  const id = randomUUID();
  expect(derivedId(id, 1)).toBe(derivedId(id, 1));
  expect(derivedId(id, 1)).not.toBe(derivedId(id, 2));
  expect(derivedId(id, 1)).toMatch(/^[0-9a-f-]{36}$/);
  expect(pushData({ projectId: 1, branch: "m", before: "b".repeat(40), after: "c".repeat(40), userId: 1, totalCommitsCount: 1, commitTitle: "x" }, "branch").action).toBe("pushed");
});
