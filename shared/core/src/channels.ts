import type { Middleware } from "moleculer";

// @moleculer/channels ships no types for its middleware factory.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ChannelsMiddleware = require("@moleculer/channels").Middleware as (opts: unknown) => Middleware;

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
    adapter: {
      type: "NATS",
      options: {
        nats: {
          url: natsUrl,
          connectionOptions: { maxReconnectAttempts: -1, reconnectTimeWait: 500, ...connection },
          streamConfig: { ...EVENT_STREAM, storage: "file", max_age: nanos(7 * DAY), duplicate_window: nanos(120_000) },
          consumerOptions: { config: { deliver_policy: "all", ack_wait: nanos(30_000) } },
        },
        maxRetries: Number.MAX_SAFE_INTEGER,
        deadLettering: { enabled: false },
      },
    },
  });
}
