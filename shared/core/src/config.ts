import { z } from "zod";
import { readPrivateKey, readPublicKey } from "./bus-auth";
import { addressMatcher } from "./url-guard";
import { validRepositoryStorages } from "./repository-storages";

/** A comma-separated setting as its non-empty entries. */
export const splitList = (value: string): string[] =>
  value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const isKey = (read: (text: string) => unknown) => (text: string) => {
  try {
    read(text);
    return true;
  } catch {
    return false;
  }
};
const ed25519Key = (kind: "private" | "public") =>
  z.string().refine(isKey(kind === "private" ? readPrivateKey : readPublicKey), { error: `must be an Ed25519 ${kind} key (base64 DER or PEM)` });
const ed25519Keys = z.string().refine((v) => splitList(v).every(isKey(readPublicKey)), { error: "must be Ed25519 public keys (base64 DER or PEM), separated by commas" });

/** What a secrets key is written as: 32 bytes in standard base64 (`openssl rand -base64 32`). */
const SECRETS_KEY_TEXT = /^[A-Za-z0-9+/]{43}=$/;
export const SECRETS_KEY_FORMAT = "must be 32 random bytes in base64 (generate one with: openssl rand -base64 32)";

/** The key a SECRETS_KEY text stands for, or null when it is not 32 bytes in base64. */
export function decodeSecretsKey(text: string): Buffer | null {
  const trimmed = text.trim();
  return SECRETS_KEY_TEXT.test(trimmed) ? Buffer.from(trimmed, "base64") : null;
}

/** Environment configuration shared by every process, validated once at start. */
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /**
   * Comma-separated IPs or CIDR ranges of the proxies in front of the gateway (an Ingress, a load
   * balancer): only from them is X-Forwarded-For believed when the client's address matters (rate
   * limits). Empty: the peer's own address is the client's.
   */
  TRUSTED_PROXIES: z
    .string()
    .default("")
    .refine(
      (v) => {
        try {
          addressMatcher(splitList(v));
          return true;
        } catch {
          return false;
        }
      },
      { error: "must be IP addresses or CIDR ranges, separated by commas" },
    ),
  /** Public base URL used in web_url fields and Link headers; defaults to http://localhost:PORT. */
  EXTERNAL_URL: z.url().optional(),
  /** nats://host:port for distributed mode; empty means all services in this process. */
  TRANSPORTER: z.string().default(""),
  /** NATS credentials of this process (the server's authorization names one user per service). */
  NATS_USER: z.string().optional(),
  NATS_PASSWORD: z.string().optional(),
  /** TLS to NATS: the CA that signed the server's certificate, and this client's certificate and key when the server asks for one. */
  NATS_TLS_CA_FILE: z.string().optional(),
  NATS_TLS_CERT_FILE: z.string().optional(),
  NATS_TLS_KEY_FILE: z.string().optional(),
  /**
   * Signed identities on the bus (shared/core/src/bus-auth.ts), required with a TRANSPORTER: an
   * Ed25519 private key (base64 PKCS#8 DER or PEM) every process signs its service identity with,
   * more service public keys accepted (base64 SPKI DER or PEM, comma-separated: a rotation), the
   * gateways' private key for caller assertions (gateways only), and the caller public keys the
   * services accept.
   */
  SERVICE_SIGNING_KEY: ed25519Key("private").optional(),
  SERVICE_KEYS: ed25519Keys.default(""),
  CALLER_SIGNING_KEY: ed25519Key("private").optional(),
  CALLER_KEYS: ed25519Keys.default(""),
  /** PostgreSQL connection string; without it `npm start` runs an embedded PostgreSQL (EMBEDDED_PG_DIR). */
  DATABASE_URL: z.string().optional(),
  /** Folder of the embedded PostgreSQL (cluster, password, log) when DATABASE_URL is unset. */
  EMBEDDED_PG_DIR: z.string().default("./data/postgres"),
  /**
   * `npm start` (apps/standalone): how many worker processes answer on PORT, each with every
   * service, sharing the database (and the embedded PostgreSQL, started once). 0: one per CPU
   * core; 1: the API in the one process.
   */
  WORKERS: z.coerce.number().int().min(0).max(256).default(0),
  /** Loopback port of the embedded PostgreSQL; 0: a free one at every start. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /**
   * The git storages a repositories process serves: `name:/folder` pairs separated by commas
   * (repository-storages.ts). Each replica advertises the names; calls about a repository go to a
   * replica serving its storage.
   */
  REPOSITORY_STORAGES: z
    .string()
    .default("default:./data/repositories")
    .refine(validRepositoryStorages, { error: "must be name:/folder pairs separated by commas, each name and folder once" }),
  /**
   * A file holding this process's REPOSITORY_STORAGES value instead (read at start; wins when
   * set): in Kubernetes, a StatefulSet pod's own key of a ConfigMap, so each replica serves its
   * own storage (deploy/k8s/repositories.yaml).
   */
  REPOSITORY_STORAGES_FILE: z.string().optional(),
  /** Where versions before the embedded PostgreSQL kept their PGlite data: imported at the first start. */
  PGLITE_DATA_DIR: z.string().default("./data/pglite"),
  /**
   * PostgreSQL connections (shared/db): how long to wait for a connection (also for a free one
   * from the pool), a statement (server-side statement_timeout; the client gives up
   * PG_QUERY_TIMEOUT_MS later, which also catches half-open sockets), a transaction left idle,
   * and when TCP keepalive probes start on an idle socket. 0 turns a timeout off.
   */
  PG_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).default(5_000),
  PG_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  PG_QUERY_TIMEOUT_MS: z.coerce.number().int().min(0).default(35_000),
  PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  PG_KEEPALIVE_DELAY_MS: z.coerce.number().int().min(0).default(10_000),
  /**
   * Tests: every action's answer is checked against its contract's output schema (a mismatch is
   * a 500). Off in production, where the compiler's check of implement() is enough.
   */
  CHECK_ACTION_OUTPUTS: z.enum(["0", "1", "false", "true"]).default("0").transform((v) => v === "1" || v === "true"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Timeout of a streamed upload's call (RouteDef.streamBody): the body arrives at the client's pace. */
  UPLOAD_TIMEOUT_MS: z.coerce.number().int().positive().default(600_000),
  NAMESPACE: z.string().default(""),
  NODE_ID: z.string().optional(),
  /** Creates admin user `root` with this personal access token at first start. */
  INITIAL_ROOT_TOKEN: z.string().min(8).optional(),
  /** Request body limit at the gateway; must stay below the NATS max_payload. */
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
  /** Limit of a streamed upload (RouteDef.streamBody) at the gateway; services apply their own, lower ones. */
  MAX_UPLOAD_BYTES: z.coerce.number().int().positive().default(512 * 1024 * 1024),
  /** Probe port of a service process (/-/liveness, /-/readiness); 0 disables it. */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Prometheus metrics port of a process (/metrics); 0 disables the reporter. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** How often a service's outbox relay looks for events other processes (or a crash) left; 0 disables the timer. */
  EVENTS_RELAY_INTERVAL_MS: z.coerce.number().int().min(0).default(1_000),
  /**
   * How long the relay waits after a write of its own process before it hands the events over,
   * so that the writes of those milliseconds go out in one pass (one claim, one transaction per
   * consumer service, one delete) instead of one pass each; 0: at once.
   */
  EVENTS_RELAY_LINGER_MS: z.coerce.number().int().min(0).max(1_000).default(10),
  /** How often the runners service looks for due pipeline schedules; 0 disables the timer. */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(0).default(5_000),
  /** How often the namespaces service purges groups and projects whose adjourned deletion is due; 0 disables the timer. */
  DELETION_PURGE_INTERVAL_MS: z.coerce.number().int().min(0).default(60_000),
  /** How often the integrations service sends pending deliveries (chat webhooks, pipeline emails); 0 disables the timer. */
  INTEGRATIONS_DELIVERY_TICK_MS: z.coerce.number().int().min(0).default(2_000),
  /**
   * The pause after a delivery's first failed attempt, doubling after each further one (4 attempts):
   * 10 s gives 10, 20 and 40 s, so a receiver down for a minute still gets the delivery.
   */
  INTEGRATIONS_RETRY_BACKOFF_MS: z.coerce.number().int().min(1).default(10_000),
  /**
   * Package registry plan limits (GitLab's defaults): the largest generic package file (5 GiB) and
   * npm tarball (500 MiB), in bytes. Streamed uploads are also bounded by the gateway's MAX_UPLOAD_BYTES.
   */
  PACKAGES_GENERIC_MAX_FILE_SIZE: z.coerce.number().int().positive().default(5 * 1024 * 1024 * 1024),
  PACKAGES_NPM_MAX_FILE_SIZE: z.coerce.number().int().positive().default(500 * 1024 * 1024),
  /** How often each packages replica removes packages and files marked for destruction; 0 disables the timer. */
  PACKAGES_DESTRUCTION_TICK_MS: z.coerce.number().int().min(0).default(2_000),
  /** scrypt work factor for password digests; tests lower it, as Rails apps lower Devise stretches. */
  PASSWORD_HASH_COST: z.coerce.number().int().min(1024).default(16384),
  LICENSE_TIER: z.enum(["free", "premium", "ultimate"]).default("ultimate"),
  OFFERING: z.enum(["self_managed", "dedicated", "hosted"]).default("self_managed"),
  /**
   * Outgoing mail (invitations): `smtp://[user:pass@]host:port` or `smtps://…` for nodemailer.
   * Unset: mails are not sent, only logged (recipient and subject, never the body).
   */
  /**
   * The key credentials are encrypted with at rest (shared/core/src/secrets.ts); processes that
   * store credentials refuse to start without it, except npm start, which keeps a generated one
   * beside its embedded PostgreSQL. Empty counts as unset.
   */
  SECRETS_KEY: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined))
    .refine((v) => v === undefined || decodeSecretsKey(v) !== null, { error: SECRETS_KEY_FORMAT }),
  /** Comma-separated older keys, still accepted for reading while rotating SECRETS_KEY. */
  SECRETS_KEY_PREVIOUS: z
    .string()
    .default("")
    .refine((v) => splitList(v).every((k) => decodeSecretsKey(k) !== null), { error: `each key ${SECRETS_KEY_FORMAT}` }),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" })
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

export type Config = z.infer<typeof ConfigSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  return result.data;
}

/** Base URL for web_url fields, without a trailing slash. */
export const externalUrl = (config: Config = loadConfig()) =>
  (config.EXTERNAL_URL ?? `http://localhost:${config.PORT || 3000}`).replace(/\/+$/, "");
