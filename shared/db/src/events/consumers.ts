import type { EventContract, PayloadOf } from "@collab/core";
import type { ServiceBroker } from "moleculer";
import type { Db } from "../database";
import type { ServiceKit } from "../service";
import { sendToDeadLetters } from "./dead-letters";
import type { EventEnvelope, EventMeta } from "./envelope";
import type { EventTables } from "./tables";

/** What a consumer needs of a zod schema: its non-throwing parse. */
interface PayloadSchema<P> {
  safeParse(value: unknown): { success: true; data: P } | { success: false };
}

/**
 * A service's handler of one domain event. It writes through `tx`, the transaction in which the
 * event's id is recorded as processed, so the change and "done" commit together: a redelivered
 * event is applied once. Throwing rolls both back and the event comes again later.
 */
export interface Consumer<P = unknown> {
  schema: PayloadSchema<P>;
  handle: (payload: P, tx: Db, event: EventMeta, afterCommit: AfterCommit) => Promise<unknown>;
  /**
   * A read before any transaction: false when handling the event would change nothing here (a
   * notifier no integration listens to). The event is then done without a transaction or a
   * processed_events row (a redelivery asks again, which is as harmless).
   */
  wanted?: (payload: P, db: Db) => Promise<boolean>;
}

/**
 * Registers work to run once the consumer's transaction has committed: bus calls and broadcasts
 * (a handler in this process reading the database would wait on the open transaction). Failures
 * there are logged; the event stays applied.
 */
export type AfterCommit = (work: () => Promise<unknown>) => void;

/** A consumer from a schema and a handler; services subscribe through their producers' entries instead (`on`, `consumersOf`). */
export const consumer = <P>(schema: PayloadSchema<P>, handle: (payload: P, tx: Db, event: EventMeta, afterCommit: AfterCommit) => Promise<unknown>, wanted?: Consumer<P>["wanted"]): Consumer<P> => ({
  schema,
  handle,
  ...(wanted && { wanted }),
});

export type Consumers = Record<string, Consumer<any>>;

/** What a consumer does with an event's payload (see Consumer.handle). */
export type EventHandler<P> = (payload: P, tx: Db, event: EventMeta, afterCommit: AfterCommit) => Promise<unknown>;

/** A service's consumer of one producer's event, by its contract entry (see `on` and `consumersOf`). */
export interface Subscription {
  readonly event: EventContract;
  readonly consumer: Consumer<any>;
}

/**
 * Subscribes to a producer's event through its contract entry (`@collab/<producer>/contract`): the
 * event's name and the payload's schema come from the entry, the handler gets the payload as the
 * producer's schema parses it. With `select`, the consumer reads a part of it (@collab/core's
 * `pickFields("projectId")`) or, for a consumer that keeps payloads as they come, a schema of its
 * own. Schemas are built on first use.
 */
export function on<E extends EventContract>(event: E, handle: EventHandler<PayloadOf<E>>): Subscription;
export function on<E extends EventContract, P>(event: E, select: (payload: ReturnType<E["payload"]>) => PayloadSchema<P>, handle: EventHandler<P>, wanted?: Consumer<P>["wanted"]): Subscription;
export function on(event: EventContract, ...args: [EventHandler<unknown>] | [(payload: unknown) => PayloadSchema<unknown>, EventHandler<unknown>, Consumer["wanted"]?]): Subscription {
  const [select, handle, wanted] = args.length === 1 ? [(s: unknown) => s as PayloadSchema<unknown>, args[0], undefined] : args;
  let schema: PayloadSchema<unknown> | undefined;
  return { event, consumer: consumer({ safeParse: (value) => (schema ??= select(event.payload())).safeParse(value) }, handle, wanted) };
}

declare const subscribed: unique symbol;

/** A service's consumers as consumersOf builds them (what defineService's `consumes` takes). */
export type Subscriptions = Consumers & { readonly [subscribed]: true };

/**
 * A service's Consumers map from its subscriptions, keyed by the entries' names. An event
 * subscribed twice throws (a map literal or a spread would keep the last one silently).
 */
export function consumersOf(service: string, subscriptions: Subscription[]): Subscriptions {
  const out: Consumers = {};
  for (const { event, consumer } of subscriptions) {
    if (event.kind !== "event") throw new Error(`${service}: ${event.name} is not a durable event`);
    if (event.name in out) throw new Error(`${service}: event ${event.name} is consumed twice`);
    out[event.name] = consumer;
  }
  return out as Subscriptions;
}

const ATTEMPTS = 3;

interface Parsed {
  event: EventEnvelope;
  consumer: Consumer;
  data: unknown;
}

/** The event with its consumer's parse of the payload; an invalid payload is logged and dropped (no retry can fix it). */
function parse(kit: ServiceKit, consumer: Consumer, event: EventEnvelope): Parsed | undefined {
  const result = consumer.schema.safeParse(event.payload);
  if (result.success) return { event, consumer, data: result.data };
  kit.logger.warn({ event: event.name, id: event.id, payload: event.payload }, "dropped an event with an invalid payload");
  return undefined;
}

/**
 * Applies events in one transaction with their processed_events rows (only those not applied
 * before are handled), then the work registered for after the commit. Throws when the
 * transaction fails: nothing of it stays.
 */
async function applyTogether(kit: ServiceKit, tables: EventTables, all: Parsed[]): Promise<void> {
  const items = await wantedOf(kit, all);
  if (!items.length) return;
  const after: { work: () => Promise<unknown>; event: EventEnvelope }[] = [];
  await kit.db.transaction(async (tx) => {
    const { processedEvents } = tables;
    const rows = await tx
      .insert(processedEvents)
      .values(items.map(({ event }) => ({ eventId: event.id, name: event.name })))
      .onConflictDoNothing()
      .returning({ id: processedEvents.eventId });
    const fresh = new Set(rows.map((r) => r.id));
    for (const { event, consumer, data } of items) {
      if (!fresh.has(event.id)) continue;
      const meta: EventMeta = { id: event.id, name: event.name, occurredAt: event.occurredAt };
      await consumer.handle(data, tx, meta, (work) => after.push({ work, event }));
    }
  });
  for (const { work, event } of after) await work().catch((err: Error) => kit.logger.warn({ err: err.message, event: event.name, id: event.id }, "work after applying an event failed"));
  // Events the handlers published go out now rather than on the relay's next tick (not awaited:
  // the relay delivering these very events may be this service's own).
  if (kit.events) void kit.events.flush();
}

/** The items whose consumer would change something (Consumer.wanted), asked outside any transaction. */
async function wantedOf(kit: ServiceKit, items: Parsed[]): Promise<Parsed[]> {
  if (!items.some((i) => i.consumer.wanted)) return items;
  const keep = await Promise.all(items.map((i) => (i.consumer.wanted ? i.consumer.wanted(i.data, kit.db) : true)));
  return items.filter((_, k) => keep[k]);
}

/**
 * Applies one delivered event: an invalid payload is logged and dropped; a transient failure is
 * retried a couple of times here, then thrown so the transport redelivers.
 */
export async function applyEvent(kit: ServiceKit, tables: EventTables, c: Consumer, event: EventEnvelope): Promise<void> {
  const item = parse(kit, c, event);
  if (!item) return;
  for (let attempt = 1; ; attempt++) {
    try {
      return await applyTogether(kit, tables, [item]);
    } catch (err) {
      if (attempt >= ATTEMPTS) {
        kit.logger.error({ err: (err as Error).message, event: event.name, id: event.id }, "failed to apply an event; it will be redelivered");
        throw err;
      }
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

/**
 * When an event its consumer could not apply comes again over JetStream, by delivery: the first
 * retry after a second, then longer and longer, in all about 27 minutes (a database outage of
 * that long loses nothing). Only then is it set aside as a dead letter.
 */
export const REDELIVERY_DELAYS_MS = [1, 2, 5, 10, 20, 30, 60, 60, 120, 120, 300, 300, 300, 300].map((s) => s * 1000);

/** What a consumer needs of a JetStream message (nats' JsMsg). */
export interface StreamMessage {
  info: { redeliveryCount: number };
  ack(): void;
  nak(delayMs?: number): void;
  working(): void;
}

/**
 * Applies an event delivered by JetStream to `service`'s consumer and answers the message itself:
 * acknowledged once applied (or dropped as invalid); on failure asked again after the delay for
 * its delivery (REDELIVERY_DELAYS_MS); after the last one stored as a dead letter, and
 * acknowledged only once stored (else it comes again a minute later). Never throws: the channel
 * adapter's own retry and dead-letter handling stay unused. While it works, the message's ack
 * deadline is pushed back, so a slow database does not make JetStream send it a second time.
 */
export async function applyFromStream(kit: ServiceKit, tables: EventTables, service: string, c: Consumer, event: EventEnvelope, message: StreamMessage): Promise<void> {
  const heartbeat = setInterval(() => message.working(), 10_000);
  try {
    await applyEvent(kit, tables, c, event);
    message.ack();
  } catch (err) {
    const delivery = message.info.redeliveryCount;
    const delay = REDELIVERY_DELAYS_MS[delivery - 1];
    const error = (err as Error).message?.split("\n")[0] ?? String(err);
    if (delay !== undefined) {
      message.nak(delay);
      kit.logger.warn({ event: event.name, id: event.id, delivery, retry_in_ms: delay }, "event not applied; it will come again");
      return;
    }
    try {
      await sendToDeadLetters(kit.broker, { service, event, error, deliveries: delivery, dead_lettered_at: new Date().toISOString() });
      message.ack();
      kit.logger.error({ event: event.name, id: event.id, delivery, error }, "event set aside as a dead letter after its last retry");
    } catch (deadLetterErr) {
      message.nak(60_000);
      kit.logger.error({ event: event.name, id: event.id, err: (deadLetterErr as Error).message }, "event could not be set aside as a dead letter; it will come again");
    }
  } finally {
    clearInterval(heartbeat);
  }
}

/** Applies an event once more, as an administrator's replay of a dead letter does: throws if it fails. */
export async function replayEvent(kit: ServiceKit, tables: EventTables, consumers: Consumers, event: EventEnvelope): Promise<void> {
  const c = consumers[event.name];
  if (!c) throw new Error(`no consumer of ${event.name} here`);
  await applyEvent(kit, tables, c, event);
}

/**
 * Applies a batch of events to this service's consumers, in one transaction (one BEGIN/COMMIT and
 * one processed_events insert for the batch). Should it fail, each is applied on its own (with
 * applyEvent's retries), as a transport would deliver them, so one bad event holds back only
 * itself. Answers the ids that could not be applied (they stay in the outbox and come again).
 */
export async function applyEvents(kit: ServiceKit, tables: EventTables, consumers: Consumers, events: EventEnvelope[]): Promise<Set<string>> {
  const items = events.flatMap((e) => (consumers[e.name] ? (parse(kit, consumers[e.name], e) ?? []) : []));
  if (items.length > 1) {
    try {
      await applyTogether(kit, tables, items);
      return new Set();
    } catch {
      // Each on its own below.
    }
  }
  const failed = new Set<string>();
  for (const { event, consumer } of items) await applyEvent(kit, tables, consumer, event).catch(() => failed.add(event.id));
  return failed;
}

/** A service's in-process consumers: applies a batch, answering the ids that failed. */
type LocalApply = (events: EventEnvelope[]) => Promise<Set<string>>;

/** In embedded mode (no transporter) the relay hands events to the consumers registered on its broker. */
const localConsumers = new WeakMap<ServiceBroker, Map<string, Map<string, LocalApply>>>();

export function registerLocalConsumer(broker: ServiceBroker, service: string, eventName: string, apply: LocalApply) {
  let byName = localConsumers.get(broker);
  if (!byName) localConsumers.set(broker, (byName = new Map()));
  let byService = byName.get(eventName);
  if (!byService) byName.set(eventName, (byService = new Map()));
  byService.set(service, apply);
}

export function unregisterLocalConsumers(broker: ServiceBroker, service: string) {
  for (const byService of localConsumers.get(broker)?.values() ?? []) byService.delete(service);
}

export const localConsumersOf = (broker: ServiceBroker, eventName: string): LocalApply[] => [...(localConsumers.get(broker)?.get(eventName)?.values() ?? [])];

/**
 * Hands a batch of events to the consumers registered on this (embedded) broker: each service gets
 * its events of the batch together, in order; observers see each event its consumers applied.
 * Answers the ids of the events some consumer could not apply.
 */
export async function deliverLocally(broker: ServiceBroker, events: EventEnvelope[]): Promise<Set<string>> {
  const byService = new Map<LocalApply, EventEnvelope[]>();
  for (const event of events)
    for (const apply of localConsumersOf(broker, event.name)) {
      const list = byService.get(apply);
      if (list) list.push(event);
      else byService.set(apply, [event]);
    }
  const failed = new Set<string>();
  for (const [apply, list] of byService) for (const id of await apply(list)) failed.add(id);
  for (const event of events) if (!failed.has(event.id)) notifyObservers(broker, event);
  return failed;
}

type Observer = (event: EventEnvelope) => void;
const observers = new WeakMap<ServiceBroker, Set<Observer>>();

/** Tests: sees every event the relays of this (embedded) broker hand over, after its consumers ran. */
export function observeEvents(broker: ServiceBroker, observer: Observer): () => void {
  let set = observers.get(broker);
  if (!set) observers.set(broker, (set = new Set()));
  set.add(observer);
  return () => set!.delete(observer);
}

export const notifyObservers = (broker: ServiceBroker, event: EventEnvelope) => observers.get(broker)?.forEach((o) => o(event));
