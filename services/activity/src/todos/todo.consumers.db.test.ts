import type { EventContract } from "@collab/core";
import { openScratchDatabase, type Database } from "@collab/db";
import { Accounts } from "@collab/accounts-contract";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { asc } from "drizzle-orm";
import type { ServiceBroker } from "moleculer";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { todos } from "../db/schema";
import { consumers } from "../events/consumers";

/**
 * The to-dos the issues' and merge requests' events make, on a scratch database, with accounts and
 * namespaces answered by a stub bus: users 1 (alice, the actor), 2 (bob, Developer), 3 (carol,
 * Guest), 4 (dave, no access).
 */
let database: Database;
let dispose: () => Promise<void>;
const at = "2026-01-02T03:04:05.000Z";
const users = [
  { id: 1, username: "alice", level: 40 },
  { id: 2, username: "bob", level: 30 },
  { id: 3, username: "carol", level: 10 },
  { id: 4, username: "dave", level: 0 },
];
const bus = {
  call: async (name: string, params: { usernames?: string[]; user_ids?: number[] }) => {
    if (name === Accounts.users.refs.name)
      return users.filter((u) => params.usernames?.includes(u.username)).map((u) => ({ id: u.id, username: u.username, name: u.username, state: "active", locked: false, avatar_url: null, web_url: "" }));
    if (name === Namespaces.access.levelsOnProject.name)
      return Object.fromEntries(users.filter((u) => params.user_ids?.includes(u.id)).map((u) => [u.id, { access_level: u.level, can_read: u.level > 0 }]));
    throw new Error(`unexpected call ${name}`);
  },
} as unknown as ServiceBroker;
const subscriptions = consumers(() => bus);

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("activity-todos"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_activity_test" });
}, 120_000);
afterAll(() => dispose?.());
beforeEach(() => database.db.delete(todos));

async function deliver(entry: EventContract, payload: unknown) {
  const c = subscriptions[entry.name];
  const parsed = c.schema.safeParse(payload);
  if (!parsed.success) throw new Error(`invalid ${entry.name} payload`);
  await database.db.transaction((tx) => c.handle(parsed.data, tx, { id: randomUUID(), name: entry.name, occurredAt: at }));
}
const rows = async () =>
  (await database.db.select().from(todos).orderBy(asc(todos.id))).map((t) => `${t.userId} ${t.action} ${t.targetType} ${t.state}${t.body ? ` "${t.body}"` : ""}`);

const issue = { id: 7, iid: 3, project_id: 1, actor_id: 1, title: "Bug", confidential: false };
const mr = { id: 9, iid: 4, project_id: 1, actor_id: 1, title: "MR", source_branch: "f", target_branch: "main", state: "opened" };
const note = {
  id: 11, noteable_type: "Issue", noteable_id: 7, noteable_iid: 3, noteable_title: "Bug", noteable_confidential: false, project_id: 1,
  actor_id: 2, author_id: 2, internal: false, system: false, discussion_id: "d", body: "@alice look", created_at: at,
};

test("assignment and mentions: for the others who may read the target, not the actor; a pending one is not made twice", async () => {
  await deliver(Issues.events.issueOpened, { ...issue, assignee_ids: [1, 2], description: "@carol see\ncc @bob @dave @alice @nobody" });
  expect(await rows()).toEqual(["2 assigned Issue pending", "3 directly_addressed Issue pending", "2 mentioned Issue pending"]);
  // The same assignment again (a redelivery by another path) adds nothing while it is pending.
  await deliver(Issues.events.issueUpdated, { ...issue, changes: ["assignees"], assignee_ids: [2] });
  // An edit mentions only those its previous text did not.
  await deliver(Issues.events.issueUpdated, { ...issue, changes: ["description"], description: "@carol see @bob", previous_description: "@carol see\ncc @bob" });
  expect(await rows()).toHaveLength(3);
});

test("a confidential issue's mentions reach Reporters and up only", async () => {
  await deliver(Issues.events.issueOpened, { ...issue, confidential: true, description: "@bob @carol" });
  expect(await rows()).toEqual(["2 directly_addressed Issue pending"]);
});

test("a comment resolves its author's pending to-dos on the target and mentions make new ones, with the note as body", async () => {
  await deliver(Issues.events.issueOpened, { ...issue, assignee_ids: [2] });
  await deliver(Issues.events.noteCreated, note);
  expect(await rows()).toEqual(["2 assigned Issue done", '1 directly_addressed Issue pending "@alice look"']);
  await deliver(Issues.events.noteCreated, { ...note, id: 12, system: true, author_id: 1, body: "@bob system" });
  expect(await rows()).toHaveLength(2);
});

test("merge requests: reviewers get review_requested; merging resolves the actor's; deleting removes them all", async () => {
  await deliver(MergeRequests.events.mergeRequestOpened, { ...mr, assignee_ids: [3], reviewer_ids: [2, 1], description: null });
  expect(await rows()).toEqual(["3 assigned MergeRequest pending", "2 review_requested MergeRequest pending"]);
  await deliver(MergeRequests.events.mergeRequestMerged, { ...mr, actor_id: 2, merge_commit_sha: null });
  expect(await rows()).toEqual(["3 assigned MergeRequest pending", "2 review_requested MergeRequest done"]);
  await deliver(MergeRequests.events.mergeRequestDeleted, mr);
  expect(await rows()).toEqual([]);
});

test("a deleted user's and a deleted project's to-dos go", async () => {
  await deliver(Issues.events.issueOpened, { ...issue, assignee_ids: [2, 3] });
  await deliver(Accounts.events.userDeleted, { userId: 2 });
  expect(await rows()).toEqual(["3 assigned Issue pending"]);
  await deliver(Namespaces.events.projectDeleted, { projectId: 1 });
  expect(await rows()).toEqual([]);
});
