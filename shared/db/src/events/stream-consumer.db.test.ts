import { sql } from "drizzle-orm";
import { pgSchema } from "drizzle-orm/pg-core";
import type { ServiceBroker } from "moleculer";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Database } from "../database";
import type { ServiceKit } from "../service";
import { openScratchDatabase } from "../testing";
import { applyFromStream, consumer, REDELIVERY_DELAYS_MS, type StreamMessage } from "./consumers";
import type { EventEnvelope } from "./envelope";
import { eventTables } from "./tables";

// How a consumer answers JetStream (applyFromStream): acknowledged once applied, asked again later
// by a growing delay when it fails, set aside as a dead letter only after the last delay, and
// never acknowledged when that fails. JetStream's message and the dead-letter stream are stand-ins
// with the same methods; the database is real.
const tables = eventTables(pgSchema("stream_consumer"));
let database: Database;
let dispose: () => Promise<void>;
let failing = false;
const published: { subject: string; letter: { service: string; event: EventEnvelope; deliveries: number; error: string } }[] = [];
let deadLetterStoreDown = false;

const adapter = {
  connected: true,
  client: {
    async publish(subject: string, data: Uint8Array) {
      if (deadLetterStoreDown) throw new Error("no JetStream");
      published.push({ subject, letter: JSON.parse(Buffer.from(data).toString("utf8")) });
      return { seq: published.length, duplicate: false };
    },
  },
  manager: { streams: { add: async () => ({}) } },
};
const broker = { channelAdapter: adapter } as unknown as ServiceBroker;
const logger = { warn: () => undefined, error: () => undefined, info: () => undefined, debug: () => undefined };
const kit = () => ({ db: database.db, database, broker, logger, config: {} }) as unknown as ServiceKit;
const things = consumer(z.object({ n: z.number() }), async (p, tx) => {
  if (failing) throw new Error("database unavailable");
  await tx.execute(sql`INSERT INTO stream_consumer.things (n) VALUES (${p.n})`);
});

function message(delivery: number) {
  const calls: string[] = [];
  const msg: StreamMessage = {
    info: { redeliveryCount: delivery },
    ack: () => void calls.push("ack"),
    nak: (ms?: number) => void calls.push(`nak ${ms}`),
    working: () => undefined,
  };
  return { msg, calls };
}
const event = (n: number): EventEnvelope => ({ id: randomUUID(), name: "demo.thing.happened", occurredAt: new Date().toISOString(), payload: { n } });
const rows = async () => (await database.db.execute<{ n: number }>(sql`SELECT n FROM stream_consumer.things ORDER BY n`)).rows.map((r) => r.n);

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("stream-consumer"));
  for (const ddl of [
    "CREATE SCHEMA stream_consumer",
    "CREATE TABLE stream_consumer.processed_events (event_id uuid PRIMARY KEY, name text NOT NULL, processed_at timestamptz NOT NULL DEFAULT now())",
    "CREATE TABLE stream_consumer.things (n integer NOT NULL)",
  ])
    await database.db.execute(sql.raw(ddl));
});
afterAll(() => dispose?.());
beforeEach(() => {
  failing = false;
  deadLetterStoreDown = false;
  published.length = 0;
});

test("applied: acknowledged, and a redelivery of it changes nothing", async () => {
  const e = event(1);
  const first = message(1);
  await applyFromStream(kit(), tables, "demo", things, e, first.msg);
  expect(first.calls).toEqual(["ack"]);
  const again = message(2);
  await applyFromStream(kit(), tables, "demo", things, e, again.msg);
  expect(again.calls).toEqual(["ack"]);
  expect(await rows()).toEqual([1]);
});

test("a failure is asked again after its delivery's delay, for about 27 minutes in all", async () => {
  failing = true;
  for (const [i, delay] of REDELIVERY_DELAYS_MS.entries()) {
    const m = message(i + 1);
    await applyFromStream(kit(), tables, "demo", things, event(2), m.msg);
    expect(m.calls).toEqual([`nak ${delay}`]);
  }
  expect(REDELIVERY_DELAYS_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(20 * 60_000);
  expect(published).toEqual([]);
}, 60_000);

test("after the last retry it is stored as a dead letter, and acknowledged only then", async () => {
  failing = true;
  const e = event(3);
  const last = message(REDELIVERY_DELAYS_MS.length + 1);
  await applyFromStream(kit(), tables, "demo", things, e, last.msg);
  expect(last.calls).toEqual(["ack"]);
  expect(published).toEqual([
    { subject: "collab-dead-letter.demo.demo.thing.happened", letter: expect.objectContaining({ service: "demo", event: e, deliveries: REDELIVERY_DELAYS_MS.length + 1, error: "database unavailable" }) },
  ]);
});

test("when the dead letter cannot be stored, the event is not acknowledged: it comes again", async () => {
  failing = true;
  deadLetterStoreDown = true;
  const m = message(REDELIVERY_DELAYS_MS.length + 1);
  await applyFromStream(kit(), tables, "demo", things, event(4), m.msg);
  expect(m.calls).toEqual(["nak 60000"]);
});
