import { openScratchDatabase, type Database } from "@collab/db";
import { EventFilterParams } from "@collab/activity-contract";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { events, type NewEvent } from "../db/schema";
import { findEvents, type EventScope } from "./events.finder";

/**
 * The finder's SQL on a scratch database: which events a scope reaches before a page is presented.
 * Groups' events (epics and comments on them, project_id null) are recorded but never listed: the
 * spec's Events API excludes epic events, for every caller.
 */
let database: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("activity-finder"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_activity_test" });
  const row = (over: Partial<NewEvent>): NewEvent => ({ sourceEventId: randomUUID(), authorId: 2, action: "created", ...over });
  const epicNote = (id: number, groupId: number) =>
    row({ projectId: null, groupId, targetType: "Note", targetId: id, action: "commented", note: { id, body: "hi", author_id: 2, created_at: "2026-01-01T00:00:00Z", system: false, noteable_id: 21, noteable_type: "Epic", noteable_iid: 2 } });
  await database.db.insert(events).values([
    row({ projectId: 1, targetType: "Issue", targetId: 7 }),
    row({ projectId: 1, targetType: "Issue", targetId: 8, confidential: true }),
    row({ projectId: 3, targetType: "Issue", targetId: 9 }),
    row({ projectId: null, groupId: 5, targetType: "Epic", targetId: 21 }),
    row({ projectId: null, groupId: 5, targetType: "Epic", targetId: 21, action: "closed" }),
    epicNote(31, 5),
    row({ projectId: null, groupId: 6, targetType: "Epic", targetId: 22, confidential: true }),
    { ...epicNote(32, 6), internal: true },
    row({ projectId: null, groupId: 6, targetType: "Epic", targetId: 23, authorId: 4 }),
  ]);
}, 120_000);
afterAll(() => dispose?.());

const find = async (scope: Partial<EventScope>, filters: Record<string, string> = {}) => {
  const { rows, total } = await findEvents(database.db, { readable: [1], reporter: [], callerId: 2, ...scope }, EventFilterParams.parse({ sort: "asc", ...filters }));
  return { targets: rows.map((e) => `${e.targetType}${e.targetId}`), total };
};

const admin: Partial<EventScope> = { readable: "all", reporter: "all", callerId: 1 };

it("lists readable projects' events and no group's, whoever authored them", async () => {
  expect(await find({})).toEqual({ targets: ["Issue7", "Issue8"], total: 2 });
  expect(await find({ callerId: 9 })).toEqual({ targets: ["Issue7"], total: 1 });
  expect(await find({ readable: [1, 3], authorId: 2 })).toEqual({ targets: ["Issue7", "Issue8", "Issue9"], total: 3 });
  expect(await find({ readable: [1, 3], authorId: 4 })).toEqual({ targets: [], total: 0 });
  expect(await find({ readable: [] })).toEqual({ targets: [], total: 0 });
});

it("lists no group's events to administrators either: every project, and projects only", async () => {
  expect(await find(admin)).toEqual({ targets: ["Issue7", "Issue8", "Issue9"], total: 3 });
  expect(await find({ ...admin, authorId: 4 })).toEqual({ targets: [], total: 0 });
  expect(await find({ ...admin, authorId: 2 }, { action: "commented" })).toEqual({ targets: [], total: 0 });
  expect(await find({ ...admin, authorId: 2 }, { target_type: "note" })).toEqual({ targets: [], total: 0 });
  expect(await find(admin, { action: "closed" })).toEqual({ targets: [], total: 0 });
});

it("accepts the epic target type and finds nothing, for anyone (counted as nothing too)", async () => {
  expect(await find(admin, { target_type: "epic" })).toEqual({ targets: [], total: 0 });
  expect(await find({ ...admin, authorId: 2 }, { target_type: "epic", per_page: "1", page: "2" })).toEqual({ targets: [], total: 0 });
  expect(await find({ readable: [1, 3] }, { target_type: "epic" })).toEqual({ targets: [], total: 0 });
  expect(await find({}, { target_type: "issue" })).toEqual({ targets: ["Issue7", "Issue8"], total: 2 });
});
