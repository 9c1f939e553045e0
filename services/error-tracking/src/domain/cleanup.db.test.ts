import { openScratchDatabase, type Database } from "@collab/db";
import path from "node:path";
import { clientKeys, errorEvents, settings } from "../db/schema";
import { removeProjectData } from "./cleanup";

/** The project-deletion consumer against the service's own migrated tables (a scratch database). */
let database: Database;
let dispose: () => Promise<void>;

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("error-tracking-cleanup"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_error-tracking" });
});
afterAll(() => dispose?.());

test("removes the project's setting, keys and events, in its transaction, and nothing of other projects; repeating removes nothing", async () => {
  const db = database.db;
  await db.insert(settings).values([{ projectId: 1, enabled: true }, { projectId: 2, enabled: true }]);
  await db.insert(clientKeys).values([{ projectId: 1, publicKey: "glet_1" }, { projectId: 2, publicKey: "glet_2" }]);
  const event = { eventId: "0123456789abcdef0123456789abcdef", occurredAt: new Date(), payload: {} };
  await db.insert(errorEvents).values([{ projectId: 1, ...event }, { projectId: 2, ...event }]);

  expect(await db.transaction((tx) => removeProjectData({ projectId: 1 }, tx))).toBe(3);
  expect(await db.transaction((tx) => removeProjectData({ projectId: 1 }, tx))).toBe(0);
  expect((await db.select().from(settings)).map((r) => r.projectId)).toEqual([2]);
  expect((await db.select().from(clientKeys)).map((r) => r.projectId)).toEqual([2]);
  expect((await db.select().from(errorEvents)).map((r) => r.projectId)).toEqual([2]);
});
