import { openScratchDatabase, type Database } from "@collab/db";
import { EventFilterParams } from "@collab/activity-contract";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { events, type NewEvent } from "../db/schema";
import { findEvents, type EventScope } from "./events.finder";

/** The finder's SQL on a scratch database: which events a scope reaches before a page is redacted. */
let database: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("activity-finder"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_activity_test" });
  const row = (over: Partial<NewEvent>): NewEvent => ({ sourceEventId: randomUUID(), authorId: 2, action: "created", ...over });
  await database.db.insert(events).values([
    row({ projectId: 1, targetType: "Issue", targetId: 7 }),
    row({ projectId: 1, targetType: "Issue", targetId: 8, confidential: true }),
    row({ projectId: 3, targetType: "Issue", targetId: 9 }),
    row({ projectId: null, groupId: 5, targetType: "Epic", targetId: 21, confidential: true }),
    row({ projectId: null, groupId: 6, targetType: "Note", targetId: 31, action: "commented", internal: true }),
    row({ projectId: null, groupId: 6, targetType: "Epic", targetId: 22, authorId: 4 }),
  ]);
}, 120_000);
afterAll(() => dispose?.());

const find = async (scope: Partial<EventScope>, filters: Record<string, string> = {}) => {
  const { rows, total } = await findEvents(database.db, { readable: [1], reporter: [], callerId: 9, ...scope }, EventFilterParams.parse({ sort: "asc", ...filters }));
  return { targets: rows.map((e) => `${e.targetType}${e.targetId}`), total };
};

it("keeps groups' events out unless asked, and every group's in when asked (the page decides who sees them)", async () => {
  expect(await find({})).toEqual({ targets: ["Issue7"], total: 1 });
  expect(await find({ groupEvents: true })).toEqual({ targets: ["Issue7", "Epic21", "Note31", "Epic22"], total: 4 });
  expect((await find({ groupEvents: true, authorId: 4 })).targets).toEqual(["Epic22"]);
  expect((await find({ groupEvents: true, reporter: [1] })).targets).toEqual(["Issue7", "Issue8", "Epic21", "Note31", "Epic22"]);
});

it("lets administrators' project scope reach every project but no group without groupEvents", async () => {
  expect((await find({ readable: "all", reporter: "all" })).targets).toEqual(["Issue7", "Issue8", "Issue9"]);
  expect((await find({ readable: "all", reporter: "all", groupEvents: true })).total).toBe(6);
});

it("filters groups' events by target type and action like the others", async () => {
  expect((await find({ groupEvents: true }, { target_type: "epic" })).targets).toEqual(["Epic21", "Epic22"]);
  expect((await find({ groupEvents: true }, { action: "commented" })).targets).toEqual(["Note31"]);
  expect((await find({ groupEvents: true, hidden: { Issue: [1], MergeRequest: [], Snippet: [] } })).targets).toEqual(["Epic21", "Note31", "Epic22"]);
});
