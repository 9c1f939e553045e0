import type { ServiceBroker } from "moleculer";
import type { Db } from "../database";
import type { ServiceKit } from "../service";
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
}

/**
 * Registers work to run once the consumer's transaction has committed: bus calls and broadcasts
 * (a handler in this process reading the database would wait on the open transaction). Failures
 * there are logged; the event stays applied.
 */
export type AfterCommit = (work: () => Promise<unknown>) => void;

export const consumer = <P>(schema: PayloadSchema<P>, handle: (payload: P, tx: Db, event: EventMeta, afterCommit: AfterCommit) => Promise<unknown>): Consumer<P> => ({
  schema,
  handle,
});

export type Consumers = Record<string, Consumer<any>>;

const ATTEMPTS = 3;

/**
 * Applies one delivered event: an invalid payload is logged and dropped (no retry can fix it);
 * a transient failure is retried a couple of times here, then thrown so the transport redelivers.
 */
export async function applyEvent(kit: ServiceKit, tables: EventTables, c: Consumer, event: EventEnvelope): Promise<void> {
  const parsed = c.schema.safeParse(event.payload);
  if (!parsed.success) {
    kit.logger.warn({ event: event.name, id: event.id, payload: event.payload }, "dropped an event with an invalid payload");
    return;
  }
  const meta: EventMeta = { id: event.id, name: event.name, occurredAt: event.occurredAt };
  for (let attempt = 1; ; attempt++) {
    try {
      const after: (() => Promise<unknown>)[] = [];
      await kit.db.transaction(async (tx) => {
        const fresh = await tx.insert(tables.processedEvents).values({ eventId: event.id, name: event.name }).onConflictDoNothing().returning({ id: tables.processedEvents.eventId });
        if (fresh.length) await c.handle(parsed.data, tx, meta, (work) => after.push(work));
      });
      for (const work of after) await work().catch((err: Error) => kit.logger.warn({ err: err.message, event: event.name, id: event.id }, "work after applying an event failed"));
      // Events the handler published go out now rather than on the relay's next tick (not awaited:
      // the relay delivering this very event may be this service's own).
      if (kit.events) void kit.events.flush();
      return;
    } catch (err) {
      if (attempt >= ATTEMPTS) {
        kit.logger.error({ err: (err as Error).message, event: event.name, id: event.id }, "failed to apply an event; it will be redelivered");
        throw err;
      }
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

type LocalApply = (event: EventEnvelope) => Promise<void>;

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
