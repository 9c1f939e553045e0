import { openScratchDatabase, type Database, type Db } from "@collab/db";
import { sql } from "drizzle-orm";
import { pgSchema } from "drizzle-orm/pg-core";
import { notesTables } from "../db/tables";
import { findResourceEvent, findResourceEvents } from "../finders/resource-events.finder";
import type { NoteableType } from "../kind";
import { removeConversation } from "./conversation";
import {
  copyResourceEvents,
  forgetDeletedLabels,
  recordIterationEvent,
  recordLabelEvents,
  recordMilestoneEvent,
  recordWeightEvent,
  removeMilestoneEvents,
  type ResourceEventFamily,
} from "./resource-events";
import { recordStateEvent } from "./state-events";

/** The resource events' write side and finder on a schema of their own, on a scratch database. */
const schema = pgSchema("resource_events_test");
const tables = notesTables(schema);
const scope = (id: number, type: NoteableType = "Issue") => ({ tables, type, id });
const page = { page: 1, per_page: 20 };

let database: Database;
let dispose: () => Promise<void>;
let db: Db;

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("resource-events"));
  db = database.db;
  const { generateDrizzleJson, generateMigration } = await import("drizzle-kit/api");
  const ddl = await generateMigration(generateDrizzleJson({}), generateDrizzleJson({ schema, ...tables }));
  for (const statement of ddl) await db.execute(sql.raw(statement));
}, 120_000);

afterAll(() => dispose?.());

const summary = async (family: ResourceEventFamily, id: number, type: NoteableType = "Issue") =>
  (await findResourceEvents(db, scope(id, type), family, page)).rows.map((e) => {
    const r = e as { action?: string; labelId?: number | null; milestoneId?: number | null; iterationId?: number | null; weight?: number | null };
    return [r.action ?? "weight", r.labelId ?? r.milestoneId ?? r.iterationId ?? r.weight ?? null];
  });

describe("recording", () => {
  test("one label event per label actually added or removed, none for labels kept", async () => {
    expect(await recordLabelEvents(db, tables, { issueId: 1 }, 7, { before: [], after: [10, 11, 11] })).toBe(2);
    expect(await recordLabelEvents(db, tables, { issueId: 1 }, 7, { before: [10, 11], after: [11, 10] })).toBe(0);
    expect(await recordLabelEvents(db, tables, { issueId: 1 }, 7, { before: [10, 11], after: [11, 12] })).toBe(2);
    expect(await summary("label", 1)).toEqual([
      ["add", 10],
      ["add", 11],
      ["add", 12],
      ["remove", 10],
    ]);
  });

  test("a milestone change records add (the new one) or remove (the old one), with the resource's state", async () => {
    expect(await recordMilestoneEvent(db, tables, { mergeRequestId: 2 }, 7, { before: null, after: 5, state: "opened" })).toBe(true);
    expect(await recordMilestoneEvent(db, tables, { mergeRequestId: 2 }, 7, { before: 5, after: 5, state: "opened" })).toBe(false);
    expect(await recordMilestoneEvent(db, tables, { mergeRequestId: 2 }, 7, { before: 5, after: 6, state: "opened" })).toBe(true);
    expect(await recordMilestoneEvent(db, tables, { mergeRequestId: 2 }, 7, { before: 6, after: null, state: "merged" })).toBe(true);
    const { rows, total } = await findResourceEvents(db, scope(2, "MergeRequest"), "milestone", page);
    expect(total).toBe(3);
    expect(rows.map((e) => [e.action, e.milestoneId, e.state])).toEqual([
      ["add", 5, "opened"],
      ["add", 6, "opened"],
      ["remove", 6, "merged"],
    ]);
  });

  test("weight and iteration changes of an issue; unchanged ones record nothing", async () => {
    expect(await recordWeightEvent(db, tables, 3, 7, { before: null, after: 2 })).toBe(true);
    expect(await recordWeightEvent(db, tables, 3, 7, { before: 2, after: 2 })).toBe(false);
    expect(await recordWeightEvent(db, tables, 3, 7, { before: 2, after: null })).toBe(true);
    expect(await recordIterationEvent(db, tables, 3, 7, { before: null, after: 40 })).toBe(true);
    expect(await recordIterationEvent(db, tables, 3, 7, { before: 40, after: null })).toBe(true);
    expect(await summary("weight", 3)).toEqual([
      ["weight", 2],
      ["weight", null],
    ]);
    expect(await summary("iteration", 3)).toEqual([
      ["add", 40],
      ["remove", 40],
    ]);
  });
});

describe("finding", () => {
  test("an event is found only under its own resource and type", async () => {
    await recordLabelEvents(db, tables, { epicId: 4 }, 7, { before: [], after: [20] });
    const [event] = (await findResourceEvents(db, scope(4, "Epic"), "label", page)).rows;
    expect(await findResourceEvent(db, scope(4, "Epic"), "label", event.id)).toMatchObject({ epicId: 4, labelId: 20, userId: 7 });
    expect(await findResourceEvent(db, scope(4, "Issue"), "label", event.id)).toBeUndefined();
    expect(await findResourceEvent(db, scope(5, "Epic"), "label", event.id)).toBeUndefined();
    // Families a resource does not record answer nothing, whatever the id.
    expect(await findResourceEvents(db, scope(4, "Epic"), "milestone", page)).toEqual({ rows: [], total: 0 });
  });

  test("pages oldest first with the total", async () => {
    await recordLabelEvents(db, tables, { issueId: 6 }, 7, { before: [], after: [1, 2, 3, 4, 5] });
    const second = await findResourceEvents(db, scope(6), "label", { page: 2, per_page: 2 });
    expect(second.total).toBe(5);
    expect(second.rows.map((e) => e.labelId)).toEqual([3, 4]);
  });
});

describe("copying and removing", () => {
  test("a copy takes the history: labels as they are, milestones only where the target has them", async () => {
    await recordStateEvent(db, tables, { issueId: 8, userId: 7, state: "closed" });
    await recordLabelEvents(db, tables, { issueId: 8 }, 7, { before: [], after: [30] });
    await recordMilestoneEvent(db, tables, { issueId: 8 }, 7, { before: null, after: 50, state: "opened" });
    await recordMilestoneEvent(db, tables, { issueId: 8 }, 7, { before: 50, after: 51, state: "opened" });
    await recordMilestoneEvent(db, tables, { issueId: 8 }, 7, { before: 51, after: null, state: "opened" });
    await recordWeightEvent(db, tables, 8, 7, { before: null, after: 3 });
    await copyResourceEvents(db, tables, 8, 9, (id) => (id === 51 ? 61 : null));
    expect(await summary("label", 9)).toEqual([["add", 30]]);
    expect(await summary("milestone", 9)).toEqual([
      ["add", 61],
      ["remove", null],
    ]);
    expect(await summary("weight", 9)).toEqual([["weight", 3]]);
    const [original] = (await findResourceEvents(db, scope(8), "label", page)).rows;
    const [copied] = (await findResourceEvents(db, scope(9), "label", page)).rows;
    expect(copied.createdAt).toEqual(original.createdAt);
    expect(copied.id).not.toBe(original.id);
    const states = await db.execute(sql`SELECT state FROM resource_events_test.resource_state_events WHERE issue_id = 9`);
    expect(states.rows).toEqual([{ state: "closed" }]);
  });

  test("a deleted resource loses its events; a deleted milestone takes its events along, a deleted label leaves them without it", async () => {
    await recordLabelEvents(db, tables, { issueId: 10 }, 7, { before: [], after: [1] });
    await recordWeightEvent(db, tables, 10, 7, { before: null, after: 1 });
    await recordMilestoneEvent(db, tables, { issueId: 11 }, 7, { before: null, after: 70, state: "opened" });
    await recordMilestoneEvent(db, tables, { issueId: 11 }, 7, { before: 70, after: 71, state: "opened" });
    await removeConversation(db, tables, "Issue", [10]);
    expect(await summary("label", 10)).toEqual([]);
    expect(await summary("weight", 10)).toEqual([]);
    await removeMilestoneEvents(db, tables, [70]);
    expect(await summary("milestone", 11)).toEqual([["add", 71]]);
    await recordLabelEvents(db, tables, { issueId: 12 }, 7, { before: [], after: [80, 81] });
    await forgetDeletedLabels(db, tables, [80]);
    expect(await summary("label", 12)).toEqual([
      ["add", null],
      ["add", 81],
    ]);
  });
});
