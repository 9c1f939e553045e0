import { ServiceBroker, type BrokerOptions, type ServiceSchema } from "moleculer";
import { pino, type Logger } from "pino";
import { loadConfig, type Config } from "./config";
import { busAuthMiddleware } from "./bus-auth-middleware";
import { eventChannels } from "./channels";
import { OutputCheckMiddleware, UniqueActionNamesMiddleware } from "./contract";
import { DataExceptionMiddleware } from "./data-errors";
import { ZodInputMiddleware } from "./input";
import { logDestination, pinoOptions } from "./logging";
import { pageAsJsonMiddleware } from "./page-as-json";
import { PageSerializer } from "./page-serializer";

export interface BrokerSetup {
  services: ServiceSchema[];
  config?: Config;
  nodeID?: string;
  /** A transporter of the caller's (the single-node workers' bus); otherwise TRANSPORTER's. */
  transporter?: BrokerOptions["transporter"];
}

/**
 * Credentials and TLS of this process's NATS connections (nats.js connection options):
 * NATS_USER/NATS_PASSWORD, else the user and password of the TRANSPORTER URL.
 */
export function natsConnectionOptions(config: Pick<Config, "TRANSPORTER" | "NATS_USER" | "NATS_PASSWORD" | "NATS_TLS_CA_FILE" | "NATS_TLS_CERT_FILE" | "NATS_TLS_KEY_FILE">): Record<string, unknown> {
  const tls = config.NATS_TLS_CA_FILE || config.NATS_TLS_CERT_FILE ? { tls: { caFile: config.NATS_TLS_CA_FILE, certFile: config.NATS_TLS_CERT_FILE, keyFile: config.NATS_TLS_KEY_FILE } } : {};
  const first = config.TRANSPORTER ? new URL(config.TRANSPORTER.split(",")[0]) : undefined;
  const user = config.NATS_USER ?? (first?.username ? decodeURIComponent(first.username) : undefined);
  const pass = config.NATS_USER ? config.NATS_PASSWORD : first?.password ? decodeURIComponent(first.password) : undefined;
  return { ...(user ? { user, pass } : {}), ...tls };
}

/** Moleculer's transporter option from TRANSPORTER; empty means in-process only. */
export function transporterOption(url: string, config?: Config): BrokerOptions["transporter"] {
  if (!url) return null;
  if (!url.startsWith("nats://")) throw new Error(`Unsupported TRANSPORTER ${url}: use nats://host:port or leave it empty`);
  // Servers given as such: moleculer would take the user and password from the URL only, and
  // undo the options' (its URL handling assigns them over).
  const servers = url.split(",").map((u) => new URL(u.trim()).host);
  return { type: "NATS", options: { servers, maxReconnectAttempts: -1, ...(config ? natsConnectionOptions(config) : {}) } } as BrokerOptions["transporter"];
}

export function createBroker({ services, config = loadConfig(), nodeID, transporter }: BrokerSetup): ServiceBroker {
  // First of the middlewares: who calls is settled before anything else looks at a request.
  const busAuth = busAuthMiddleware(config);
  const broker = new ServiceBroker({
    namespace: config.NAMESPACE,
    nodeID: nodeID ?? config.NODE_ID,
    transporter: transporter ?? transporterOption(config.TRANSPORTER, config),
    // JSON, with a page serialised by the answering service carried as its bytes (page-serializer.ts).
    serializer: new PageSerializer(),
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
    middlewares: [
      ...(busAuth ? [busAuth] : []),
      UniqueActionNamesMiddleware,
      ZodInputMiddleware,
      ...(config.CHECK_ACTION_OUTPUTS ? [OutputCheckMiddleware] : []),
      DataExceptionMiddleware,
      // Outside the output check (a later middleware wraps the earlier ones): it checks the objects.
      ...(config.TRANSPORTER ? [pageAsJsonMiddleware(), eventChannels(config.TRANSPORTER, natsConnectionOptions(config))] : []),
    ],
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
