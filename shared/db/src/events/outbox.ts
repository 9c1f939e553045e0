import { randomUUID } from "node:crypto";
import { asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Announced } from "@collab/core";
import type { ServiceBroker } from "moleculer";
import type { Db } from "../database";
import { preparedQuery } from "../prepared";
import { getTableConfig } from "drizzle-orm/pg-core";
import type { ServiceKit } from "../service";
import { deliverLocally } from "./consumers";
import { eventSubject, type EventEnvelope } from "./envelope";
import type { EventTables } from "./tables";

const BATCH = 100;
/** How long a claimed row stays with the relay replica that took it, should that replica die. */
const LEASE = sql`now() + interval '30 seconds'`;
const KEEP_PROCESSED_DAYS = 7;

/** A service's side of durable events: write them with the change, hand them over after the commit. */
export interface EventBus {
  /**
   * Hands over the events this process has written, resolving once they have been through a pass
   * (at once when there are none). Without it the relay's timer still delivers
   * them within its interval.
   */
  flush(): Promise<void>;
  /**
   * Runs a change in one transaction with the events it announces (`announce` maps its result to
   * `[name, payload]` pairs, none to skip), then starts handing them over without waiting for the
   * consumers: the usual way to publish.
   */
  transact<T>(change: (tx: Db) => Promise<T>, announce: (result: T) => Announcement[]): Promise<T>;
  /**
   * For a single statement that writes its change and its own outbox rows (atomic without a
   * transaction): once it has run, starts handing the events over, as transact does.
   */
  announced<T>(write: Promise<T>): Promise<T>;
  /**
   * Writes events into a transaction someone else runs and commits (an event consumer's, a domain
   * service's own): they go out with the relay's next pass after that commit (flush() after it
   * hurries it).
   */
  publishIn(tx: Db, announcements: readonly Announcement[]): Promise<void>;
}

/** An event and its payload, `[name, payload]`, made by @collab/core's announce(entry, payload) from the producer's contract entry. */
export type Announcement = Announced;

interface ChannelsBroker extends ServiceBroker {
  sendToChannel?: (channel: string, payload: unknown, opts?: Record<string, unknown>) => Promise<void>;
  channelAdapter?: { connected?: boolean; stopping?: boolean };
}

export interface Relay extends EventBus {
  /** No pass starts after it; resolves once the pass that is running has ended. */
  stop(): Promise<void>;
}

/**
 * The relay of a service's outbox. Over NATS it publishes each event to JetStream (subject
 * `collab.<name>`, the event id as the message id, so a publish repeated after a crash is
 * dropped by the stream's duplicate window); in one process it hands a claimed batch to the
 * consumers registered on the broker (each service's share in one transaction, see applyEvents)
 * and only then deletes the rows. Rows are claimed with a lease under
 * FOR UPDATE SKIP LOCKED, so replicas share the work and a dead replica's rows come back.
 */
type OutboxRow = EventTables["outbox"]["$inferSelect"];

const envelopeOf = (row: OutboxRow): EventEnvelope => ({ id: row.eventId, name: row.name, occurredAt: row.occurredAt.toISOString(), payload: row.payload });

export function startRelay(kit: ServiceKit, tables: EventTables, everyMs: number, lingerMs = 0): Relay {
  const { outbox, processedEvents } = tables;
  // Every pass claims and deletes: prepared, named per schema (services may share connections).
  const schema = getTableConfig(outbox).schema ?? "public";
  // One statement claims the batch: no transaction around it, so an empty pass is one round trip.
  const claimStatement = preparedQuery((db: Db) => {
    const due = db
      .select({ id: outbox.id })
      .from(outbox)
      .where(or(isNull(outbox.claimedUntil), lt(outbox.claimedUntil, sql`now()`)))
      .orderBy(asc(outbox.id))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    return db.update(outbox).set({ claimedUntil: LEASE }).where(inArray(outbox.id, due)).returning().prepare(`outbox_claim_${schema}`);
  });
  const deleteStatement = preparedQuery((db: Db) =>
    db
      .delete(outbox)
      .where(sql`${outbox.id} = ANY(${sql.placeholder("ids")}::bigint[])`)
      .prepare(`outbox_delete_${schema}`),
  );
  const broker = kit.broker as ChannelsBroker;
  let stopped = false;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let lastPurge = 0;
  /**
   * Set once a write of this process that added outbox rows has committed (not before: a pass
   * starting between the insert and the commit would not see the rows, yet clear the flag); a
   * pass clears it when it starts.
   */
  let pending = false;

  /** Publishes to JetStream one by one; answers the row ids that went out and the errors of the others. */
  async function publishToStream(rows: OutboxRow[]) {
    const done: number[] = [];
    const failed = new Map<number, string>();
    const adapter = broker.channelAdapter;
    for (const row of rows) {
      if (stopped) break;
      try {
        if (!adapter?.connected || adapter.stopping) throw new Error("the channel adapter is not connected");
        await broker.sendToChannel!(eventSubject(row.name), envelopeOf(row), { msgID: row.eventId });
        done.push(row.id);
      } catch (err) {
        failed.set(row.id, (err as Error).message);
      }
    }
    return { done, failed };
  }

  /** In one process: the batch to the registered consumers, each service's share in one transaction. */
  async function handOver(rows: OutboxRow[]) {
    const notApplied = await deliverLocally(broker, rows.map(envelopeOf));
    const failed = new Map(rows.filter((r) => notApplied.has(r.eventId)).map((r) => [r.id, "a consumer could not apply it"]));
    return { done: rows.filter((r) => !failed.has(r.id)).map((r) => r.id), failed };
  }

  /** One batch: claim, deliver, delete what went out, back off what did not. Answers whether more may wait. */
  async function step(): Promise<boolean> {
    const claimed = await claimStatement(kit.db, {});
    if (!claimed.length || stopped) return false;
    claimed.sort((a, b) => a.id - b.id);
    const { done, failed } = broker.sendToChannel ? await publishToStream(claimed) : await handOver(claimed);
    for (const row of claimed) {
      const error = failed.get(row.id);
      if (error === undefined) continue;
      // Backs off up to a minute; the row stays until it is delivered.
      const delay = Math.min(60, 2 ** Math.min(row.attempts, 6));
      await kit.db
        .update(outbox)
        .set({ attempts: row.attempts + 1, lastError: error.slice(0, 1000), claimedUntil: sql`now() + make_interval(secs => ${delay})` })
        .where(eq(outbox.id, row.id));
    }
    if (done.length) await deleteStatement(kit.db, { ids: done });
    return claimed.length === BATCH && done.length === claimed.length;
  }

  async function pass() {
    pending = false;
    try {
      while (!stopped && (await step()));
      if (Date.now() - lastPurge > 3_600_000) {
        lastPurge = Date.now();
        await kit.db.delete(processedEvents).where(lt(processedEvents.processedAt, sql`now() - make_interval(days => ${KEEP_PROCESSED_DAYS})`));
      }
    } catch (err) {
      kit.logger.warn({ err: (err as Error).message }, "event relay pass failed");
    }
  }

  /** Runs a pass now, or once more after the running one. */
  function schedule(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (queued) return queued;
    if (!running) return (running = pass().finally(() => (running = null)));
    queued = running.then(() => {
      queued = null;
      return schedule();
    });
    return queued;
  }

  // Rows written by other replicas (or left by a crash) wait for the timer; this process's own go at
  // once. A running pass started after the last write of this process: waiting for it is enough.
  const flush = (): Promise<void> => (pending ? schedule() : (running ?? Promise.resolve()));

  /**
   * After a write of this process: a pass lingerMs later, which takes every event written
   * meanwhile (under load one pass carries many, each consumer service applying them in one
   * transaction). flush() does not wait for it.
   */
  let lingering: NodeJS.Timeout | undefined;
  const handOverSoon = () => {
    if (lingerMs <= 0) return void flush();
    if (lingering || stopped) return;
    lingering = setTimeout(() => {
      lingering = undefined;
      void flush();
    }, lingerMs);
  };

  const timer = everyMs > 0 ? setInterval(() => void schedule(), everyMs) : undefined;
  timer?.unref();
  void schedule();

  return {
    flush,
    async transact(change, announce) {
      let announced = false;
      const result = await kit.db.transaction(async (tx) => {
        const r = await change(tx);
        const rows = announce(r).map(([name, payload]) => ({ eventId: randomUUID(), name, payload }));
        if (rows.length) {
          await tx.insert(outbox).values(rows);
          announced = true;
        }
        return r;
      });
      if (announced) pending = true;
      // Not awaited: the answer does not wait on the consumers, in one process as across processes.
      handOverSoon();
      return result;
    },
    async publishIn(tx, announcements) {
      if (!announcements.length) return;
      await tx.insert(outbox).values(announcements.map(([name, payload]) => ({ eventId: randomUUID(), name, payload })));
      pending = true;
    },
    async announced(write) {
      const result = await write;
      pending = true;
      handOverSoon();
      return result;
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (lingering) clearTimeout(lingering);
      await running?.catch(() => undefined);
    },
  };
}
