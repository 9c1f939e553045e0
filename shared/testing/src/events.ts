import type { EventContract } from "@collab/core";
import { eventSubject, localConsumersOf, observeEvents, type EventEnvelope } from "@collab/db";
import type { ServiceBroker } from "moleculer";
import { eventually } from "./eventually";

export interface SeenEvent {
  event: string;
  payload: any;
  /** The envelope as delivered (id, occurredAt), for redeliver(). */
  envelope: EventEnvelope;
}

interface ChannelsBroker extends ServiceBroker {
  channelAdapter?: { subscriptions?: Map<unknown, unknown> };
  sendToChannel?: (channel: string, payload: unknown) => Promise<void>;
}

/**
 * Delivers a seen event once more, as a transport may after a lost acknowledgement: in one process
 * to the registered consumers (awaited), in the distributed pass through JetStream again.
 */
export async function redeliver(app: { broker: ServiceBroker; distributed: boolean }, seen: SeenEvent): Promise<void> {
  const broker = app.broker as ChannelsBroker;
  if (!app.distributed) {
    for (const apply of localConsumersOf(broker, seen.envelope.name)) {
      const failed = await apply([seen.envelope]);
      if (failed.size) throw new Error(`redelivering ${seen.envelope.name} failed`);
    }
    return;
  }
  await broker.sendToChannel!(eventSubject(seen.envelope.name), seen.envelope);
}

/**
 * Watches the durable domain events given by their producers' contract entries, or matching
 * `patterns` (`issues.issue.*`: `*` is one dot-separated word), from now on: in one process as the
 * relays hand them over, in the distributed pass as a JetStream consumer of its own. `seen` fills
 * as they arrive; stop() ends the watch.
 */
export async function watchEvents(app: { broker: ServiceBroker; distributed: boolean }, watched: (EventContract | string)[]): Promise<{ seen: SeenEvent[]; stop(): Promise<void> }> {
  const patterns = watched.map((w) => (typeof w === "string" ? w : w.name));
  const seen: SeenEvent[] = [];
  const record = (e: EventEnvelope) => seen.push({ event: e.name, payload: e.payload, envelope: e });
  if (!app.distributed) {
    const matchers = patterns.map((p) => new RegExp(`^${p.replace(/\./g, "\\.").replace(/\*/g, "[^.]+")}$`));
    const unobserve = observeEvents(app.broker, (e) => matchers.some((m) => m.test(e.name)) && record(e));
    return { seen, stop: async () => void unobserve() };
  }
  const broker = app.broker as ChannelsBroker;
  const id = `event-watch-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const before = broker.channelAdapter?.subscriptions?.size ?? 0;
  const service = broker.createService({
    name: id,
    channels: Object.fromEntries(
      patterns.map((p, i) => [
        eventSubject(p),
        { group: `${id}-${i}`, nats: { consumerOptions: { config: { deliver_policy: "new" } } }, handler: (e: EventEnvelope) => void record(e) },
      ]),
    ),
  } as Parameters<ServiceBroker["createService"]>[0]);
  await eventually(() => {
    if ((broker.channelAdapter?.subscriptions?.size ?? 0) < before + patterns.length) throw new Error("not subscribed yet");
  });
  return { seen, stop: () => broker.destroyService(service) };
}
