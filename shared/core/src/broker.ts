import { ServiceBroker, type BrokerOptions, type ServiceSchema } from "moleculer";
import { pino, type Logger } from "pino";
import { loadConfig, type Config } from "./config";
import { eventChannels } from "./channels";
import { DataExceptionMiddleware } from "./data-errors";
import { ZodInputMiddleware } from "./input";
import { logDestination, pinoOptions } from "./logging";

export interface BrokerSetup {
  services: ServiceSchema[];
  config?: Config;
  nodeID?: string;
}

/** Moleculer's transporter option from TRANSPORTER; empty means in-process only. */
export function transporterOption(url: string): BrokerOptions["transporter"] {
  if (!url) return null;
  if (url.startsWith("nats://")) return { type: "NATS", options: { url, maxReconnectAttempts: -1 } } as BrokerOptions["transporter"];
  throw new Error(`Unsupported TRANSPORTER ${url}: use nats://host:port or leave it empty`);
}

export function createBroker({ services, config = loadConfig(), nodeID }: BrokerSetup): ServiceBroker {
  const broker = new ServiceBroker({
    namespace: config.NAMESPACE,
    nodeID: nodeID ?? config.NODE_ID,
    transporter: transporterOption(config.TRANSPORTER),
    serializer: "JSON",
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    // A service waiting for the services it depends on checks the local registry this often (the
    // default, 1 s, added whole seconds to every start).
    dependencyInterval: 100,
    // A replica that dies without saying goodbye leaves the registry within seconds, and its
    // pending requests are rejected (retryable) instead of waiting for the request timeout.
    heartbeatInterval: 2,
    heartbeatTimeout: 6,
    // Retries only where an action declares itself idempotent (see action()), and only for errors
    // moleculer marks retryable: a dead replica, a timeout.
    retryPolicy: { enabled: false, retries: 2, delay: 100, maxDelay: 1000, factor: 2 },
    tracking: { enabled: true, shutdownTimeout: 10_000 },
    // The process's one shutdown path is the entry point's (runNode, embedded.ts): moleculer's own
    // signal handlers would stop the broker a second time beside it.
    skipProcessEventRegistration: true,
    registry: { strategy: "RoundRobin", preferLocal: true },
    logger:
      config.LOG_LEVEL === "silent"
        ? false
        : { type: "Pino", options: { level: config.LOG_LEVEL, pino: { options: pinoOptions(config), destination: logDestination() } } },
    // Durable events travel over JetStream when there is a transporter; in one process the outbox
    // relay (shared/db) hands them to the consumers directly.
    middlewares: [ZodInputMiddleware, DataExceptionMiddleware, ...(config.TRANSPORTER ? [eventChannels(config.TRANSPORTER)] : [])],
    metrics: config.METRICS_PORT
      ? {
          enabled: true,
          reporter: { type: "Prometheus", options: { host: "0.0.0.0", port: config.METRICS_PORT, path: "/metrics", defaultLabels: (registry: { broker: ServiceBroker }) => ({ namespace: registry.broker.namespace, nodeID: registry.broker.nodeID }) } },
        }
      : false,
  });
  for (const schema of services) broker.createService(schema);
  return broker;
}

/** Logs of a process's own code outside any service (JSON lines, like the brokers' pino logs). */
export function createLogger(config: Config, module: string): Logger {
  return pino(pinoOptions(config), logDestination()).child({ mod: module });
}
