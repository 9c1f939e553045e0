import { notFound, type Ctx } from "@collab/core";
import { openScratchDatabase, type Announcement, type Database, type Db } from "@collab/db";
import { eq, sql } from "drizzle-orm";
import { Errors } from "moleculer";
import path from "node:path";
import { pipelines, pipelineSchedules } from "../db/schema";
import { tick as runTick } from "./schedules";
import { Repositories } from "@collab/repositories-contract";
import { Runners } from "@collab/runners-contract";

/** The scheduler pass against the service's migrated tables, with repositories' ref lookup stood in for. */
let database: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("runners-schedules"));
  await database.migrate({ folder: path.join(__dirname, "../../drizzle"), table: "__migrations_runners" });
});
afterAll(() => dispose?.());
beforeEach(async () => {
  announced = [];
  await database.db.execute(sql`TRUNCATE runners.pipeline_schedules, runners.pipelines, runners.jobs RESTART IDENTITY CASCADE`);
});

/** A bus whose repositories.refs.resolve answers with `answer` (or throws it). */
const bus = (answer: () => unknown) =>
  ({
    call: async (action: string) => {
      if (action !== Repositories.refs.resolve.name) throw new Error(`unexpected call ${action}`);
      return answer();
    },
  }) as unknown as { call: Ctx<unknown>["call"] };
/** The events a pass announces, in the pass's transaction as the service's bus writes them. */
let announced: Announcement[] = [];
const events = {
  transact: <T>(change: (tx: Db) => Promise<T>, announce: (result: T) => Announcement[]) =>
    database.db.transaction(async (tx) => {
      const result = await change(tx);
      announced.push(...announce(result));
      return result;
    }),
};
const tick = (db: Db, b: { call: Ctx<unknown>["call"] }) => runTick(db, b, events);
const main = { status: "ok", kind: "branch", name: "main", full_ref: "refs/heads/main", sha: "a".repeat(40) };
const noAnswer = () => {
  throw new Errors.RequestTimeoutError({ action: Repositories.refs.resolve.name, nodeID: "repositories-1" });
};

async function dueSchedule(): Promise<number> {
  const [row] = await database.db
    .insert(pipelineSchedules)
    .values({ projectId: 1, description: "nightly", ref: "refs/heads/main", cron: "0 3 * * *", nextRunAt: new Date(Date.now() - 60_000), ownerId: 7 })
    .returning();
  return row.id;
}
const scheduleRow = async (id: number) => (await database.db.select().from(pipelineSchedules).where(eq(pipelineSchedules.id, id)))[0];
const pipelinesOf = (id: number) => database.db.select().from(pipelines).where(eq(pipelines.scheduleId, id));

test("a ref lookup that gets no answer leaves the schedule due, and a later pass fires it once", async () => {
  const id = await dueSchedule();
  const dueAt = (await scheduleRow(id)).nextRunAt;

  expect(await tick(database.db, bus(noAnswer))).toEqual([]);
  expect((await scheduleRow(id)).nextRunAt).toEqual(dueAt);
  expect(await pipelinesOf(id)).toEqual([]);

  const fired = await tick(database.db, bus(() => main));
  expect(fired).toHaveLength(1);
  expect(await pipelinesOf(id)).toEqual([expect.objectContaining({ id: fired[0], ref: "main", source: "schedule", userId: 7 })]);
  // Its job is announced pending, with the pipeline, in the pass's transaction.
  expect(announced).toEqual([[Runners.events.jobStatusChanged.name, expect.objectContaining({ pipeline_id: fired[0], status: "pending", sha: "a".repeat(40), runner: null })]]);
  expect((await scheduleRow(id)).nextRunAt.getTime()).toBeGreaterThan(Date.now());
  expect(await tick(database.db, bus(() => main))).toEqual([]);
});

test("an answer that there is nothing to run (the ref names nothing, the project is gone) skips the run and advances the schedule", async () => {
  const missing = await dueSchedule();
  expect(await tick(database.db, bus(() => ({ status: "missing" })))).toEqual([]);
  expect((await scheduleRow(missing)).nextRunAt.getTime()).toBeGreaterThan(Date.now());

  const gone = await dueSchedule();
  expect(
    await tick(
      database.db,
      bus(() => {
        throw notFound("Project");
      }),
    ),
  ).toEqual([]);
  expect((await scheduleRow(gone)).nextRunAt.getTime()).toBeGreaterThan(Date.now());
  expect(await database.db.select().from(pipelines)).toEqual([]);
});
