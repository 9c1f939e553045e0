import { announce, eventContract } from "@collab/core";
import { sql } from "drizzle-orm";
import { pgSchema } from "drizzle-orm/pg-core";
import type { ServiceBroker } from "moleculer";
import { z } from "zod";
import { type Database } from "../database";
import { openScratchDatabase } from "../testing";
import type { ServiceKit } from "../service";
import { applyEvents, consumersOf, observeEvents, on, registerLocalConsumer, unregisterLocalConsumers } from "./consumers";
import type { EventEnvelope } from "./envelope";
import { startRelay, type Relay } from "./outbox";
import { eventTables } from "./tables";

// The embedded relay end to end on a scratch PostgreSQL database: a producing service's outbox, a consuming service's
// processed_events and the table its consumer writes, on one broker (a plain object is enough:
// the relay hands events to the consumers registered on it).
const producer = eventTables(pgSchema("relay_producer"));
const consumerTables = eventTables(pgSchema("relay_consumer"));

let database: Database;
let dispose: () => Promise<void>;
let relay: Relay;
const broker = {} as ServiceBroker;
const warnings: string[] = [];
const logger = { warn: (_o: object, m: string) => warnings.push(m), error: (_o: object, m: string) => warnings.push(m), info: () => undefined, debug: () => undefined };
const kit = (tables: "producer" | "consumer") =>
  ({ db: database.db, database, broker, logger, config: {}, baseUrl: "http://collab.test", events: tables === "producer" ? relay : undefined }) as unknown as ServiceKit;

/** The producer's event, as its contract would declare it. */
const Happened = eventContract("demo.thing.happened", () => z.object({ n: z.number() }));

const applied: { id: string; n: number }[] = [];
const consumers = consumersOf("consumer", [
  on(Happened, async (p, tx, event) => {
    if (p.n < 0) throw new Error("negative");
    await tx.execute(sql`INSERT INTO relay_consumer.things (event_id, n) VALUES (${event.id}, ${p.n})`);
    applied.push({ id: event.id, n: p.n });
  }),
]);

beforeAll(async () => {
  ({ database, dispose } = await openScratchDatabase("relay"));
  for (const schema of ["relay_producer", "relay_consumer"])
    for (const ddl of [
      `CREATE SCHEMA ${schema}`,
      `CREATE TABLE ${schema}.outbox (id bigserial PRIMARY KEY, event_id uuid NOT NULL UNIQUE, name text NOT NULL, payload jsonb NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(), claimed_until timestamptz, attempts integer NOT NULL DEFAULT 0, last_error text)`,
      `CREATE TABLE ${schema}.processed_events (event_id uuid PRIMARY KEY, name text NOT NULL, processed_at timestamptz NOT NULL DEFAULT now())`,
    ])
      await database.db.execute(sql.raw(ddl));
  await database.db.execute(sql`CREATE TABLE relay_consumer.things (event_id uuid NOT NULL, n integer NOT NULL)`);
  const consuming = kit("consumer");
  registerLocalConsumer(broker, "consumer", Happened.name, (events) => applyEvents(consuming, consumerTables, consumers, events));
}, 60_000);

afterAll(async () => {
  unregisterLocalConsumers(broker, "consumer");
  await dispose?.();
});

beforeEach(async () => {
  relay = startRelay(kit("producer"), producer, 0);
  applied.length = 0;
  warnings.length = 0;
  await database.db.execute(sql`TRUNCATE relay_producer.outbox, relay_consumer.processed_events, relay_consumer.things`);
});
afterEach(() => relay.stop());

const outboxRows = async () => (await database.db.execute<{ name: string; attempts: number; last_error: string | null }>(sql`SELECT name, attempts, last_error FROM relay_producer.outbox ORDER BY id`)).rows;
const things = async () => (await database.db.execute<{ n: number }>(sql`SELECT n FROM relay_consumer.things ORDER BY n`)).rows.map((r) => r.n);

async function publish(...ns: number[]) {
  await Promise.all(ns.map((n) => relay.transact(async () => n, (x) => [announce(Happened, { n: x })])));
}

test("a change's event is written with it and applied by the consumer after the answer; the outbox is emptied", async () => {
  const seen: EventEnvelope[] = [];
  const unobserve = observeEvents(broker, (e) => seen.push(e));
  try {
    const answer = await relay.transact(async () => "done", () => [announce(Happened, { n: 1 })]);
    expect(answer).toBe("done");
    await relay.flush();
    expect(await things()).toEqual([1]);
    expect(await outboxRows()).toEqual([]);
    expect(seen.map((e) => [e.name, e.payload])).toEqual([[Happened.name, { n: 1 }]]);
  } finally {
    unobserve();
  }
});

test("a batch is applied in order, once; one event that fails stays in the outbox and holds back only itself", async () => {
  await publish(1, 2, -3, 4);
  await relay.flush();
  expect(await things()).toEqual([1, 2, 4]);
  expect(applied.map((a) => a.n)).toEqual(expect.arrayContaining([1, 2, 4]));
  expect(await outboxRows()).toEqual([{ name: Happened.name, attempts: 1, last_error: "a consumer could not apply it" }]);
}, 20_000);

test("an event delivered twice is applied once", async () => {
  const event: EventEnvelope = { id: "0e6f8a8e-4a4b-4d0c-9d8e-2b6c1f3e5a71", name: Happened.name, occurredAt: new Date().toISOString(), payload: { n: 7 } };
  const consuming = kit("consumer");
  expect(await applyEvents(consuming, consumerTables, consumers, [event, { ...event, id: "5b1c2d3e-0000-4000-8000-000000000001", payload: { n: 8 } }])).toEqual(new Set());
  expect(await applyEvents(consuming, consumerTables, consumers, [event])).toEqual(new Set());
  expect(await things()).toEqual([7, 8]);
});

test("an invalid payload is dropped with a warning, not retried", async () => {
  const consuming = kit("consumer");
  const bad: EventEnvelope = { id: "9d4c2a1b-1111-4000-8000-000000000002", name: Happened.name, occurredAt: new Date().toISOString(), payload: { n: "x" } };
  const good = { ...bad, id: "9d4c2a1b-1111-4000-8000-000000000003", payload: { n: 5 } };
  expect(await applyEvents(consuming, consumerTables, consumers, [bad, good])).toEqual(new Set());
  expect(await things()).toEqual([5]);
  expect(warnings).toContain("dropped an event with an invalid payload");
});

test("an event its consumer does not want (Consumer.wanted) is done without a transaction or a processed_events row", async () => {
  const handled: number[] = [];
  const picky = consumersOf("consumer", [
    on(
      Happened,
      (s) => s,
      async (p, tx, event) => {
        handled.push(p.n);
        await tx.execute(sql`INSERT INTO relay_consumer.things (event_id, n) VALUES (${event.id}, ${p.n})`);
      },
      async (p) => p.n % 2 === 0,
    ),
  ]);
  const at = new Date().toISOString();
  const events: EventEnvelope[] = [1, 2, 3, 4].map((n) => ({ id: `7a0c2a1b-2222-4000-8000-00000000000${n}`, name: Happened.name, occurredAt: at, payload: { n } }));
  expect(await applyEvents(kit("consumer"), consumerTables, picky, events)).toEqual(new Set());
  expect(handled).toEqual([2, 4]);
  expect(await things()).toEqual([2, 4]);
  const processed = (await database.db.execute<{ event_id: string }>(sql`SELECT event_id FROM relay_consumer.processed_events ORDER BY event_id`)).rows.map((r) => r.event_id);
  expect(processed).toEqual([events[1].id, events[3].id]);
  // None wanted: nothing written at all.
  expect(await applyEvents(kit("consumer"), consumerTables, picky, [events[0]])).toEqual(new Set());
  expect(handled).toEqual([2, 4]);
});
