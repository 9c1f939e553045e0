import type { Middleware } from "moleculer";

// @moleculer/channels ships no types for its middleware factory and adapters.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Channels = require("@moleculer/channels") as { Middleware: (opts: unknown) => Middleware; Adapters: { NATS: new (opts: unknown) => NatsAdapter } };
const ChannelsMiddleware = Channels.Middleware;

interface NatsAdapter {
  subscribe(chan: { id: string; name: string; group: string }, svc: unknown): Promise<void>;
  activeMessages: Map<string, unknown[]>;
  logger: { warn(...args: unknown[]): void };
}

/** JetStream's answer when two replicas create one durable consumer at the same moment. */
const CONSUMER_RACE = 10013;
const SUBSCRIBE_ATTEMPTS = 8;

/**
 * The NATS adapter, whose subscribe survives replicas starting together: two processes creating
 * the same durable consumer group at once get "consumer name already in use" (JetStream 10013)
 * for one of them, which would fail that process's start. It subscribes again (the consumer then
 * exists and is joined), a few times, backing off.
 */
export function raceSafeNatsAdapter(options: unknown): NatsAdapter {
  class RaceSafeNats extends Channels.Adapters.NATS {
    override async subscribe(chan: { id: string; name: string; group: string }, svc: unknown): Promise<void> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await super.subscribe(chan, svc);
        } catch (err) {
          const code = (err as { api_error?: { err_code?: number } }).api_error?.err_code;
          if (code !== CONSUMER_RACE || attempt >= SUBSCRIBE_ATTEMPTS) throw err;
          this.activeMessages.delete(chan.id); // set up by the failed attempt, still empty
          this.logger.warn(`consumer group '${chan.group}' was being created by another replica; subscribing again`);
          await new Promise((r) => setTimeout(r, 50 * attempt + Math.random() * 100));
        }
      }
    }
  }
  return new RaceSafeNats(options);
}

const nanos = (ms: number) => ms * 1_000_000;
const DAY = 86_400_000;

/** Every Collab domain event is a message of this one stream, subject `collab.<event name>`. */
export const EVENT_STREAM = { name: "COLLAB_EVENTS", subjects: ["collab.>"] };

/**
 * Durable domain events over NATS JetStream (@moleculer/channels). The stream keeps messages a
 * week in files (they survive a nats-server restart) and drops a publish repeated within two
 * minutes under the same message id (the outbox's event id). Each consuming service is a durable
 * consumer group per event (see defineService's `consumes`): it gets every event from the
 * stream's start, its replicas share them, and an event is acknowledged only once applied. The
 * consumers answer each message themselves (applyFromStream in @collab/db: retries backing off
 * over minutes, then the COLLAB_DEAD_LETTERS stream), so the adapter's own retry count and dead
 * lettering, which give up within seconds, are out of the way.
 */
export function eventChannels(natsUrl: string, connection: Record<string, unknown> = {}): Middleware {
  return ChannelsMiddleware({
    adapter: raceSafeNatsAdapter({
      nats: {
        url: natsUrl,
        connectionOptions: { maxReconnectAttempts: -1, reconnectTimeWait: 500, ...connection },
        streamConfig: { ...EVENT_STREAM, storage: "file", max_age: nanos(7 * DAY), duplicate_window: nanos(120_000) },
        consumerOptions: { config: { deliver_policy: "all", ack_wait: nanos(30_000) } },
      },
      maxRetries: Number.MAX_SAFE_INTEGER,
      deadLettering: { enabled: false },
    }),
  });
}
