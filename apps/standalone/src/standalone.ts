import { createBroker, createLogger, loadConfig, readOrCreateSecretsKey, secretsKeyring, type Config } from "@collab/core";
import { importPgliteFolder, openDatabase, startEmbeddedPostgres, type EmbeddedPostgres } from "@collab/db";
import type { BrokerOptions, ServiceBroker, ServiceSchema } from "moleculer";
import path from "node:path";
import { createGatewayService } from "@collab/gateway";
import { reencryptAll } from "./reencrypt-secrets";
import { domainSchemas } from "./services";

export interface Standalone {
  broker: ServiceBroker;
  /** The embedded PostgreSQL, when DATABASE_URL was unset. */
  database?: EmbeddedPostgres;
  /** Stops the services, then the embedded PostgreSQL. */
  stop(): Promise<void>;
}

/**
 * The whole API in one process (`npm start`), services calling each other in memory. Without
 * DATABASE_URL it runs its own PostgreSQL in EMBEDDED_PG_DIR, started before the services and
 * stopped after them; a PGlite folder left by an earlier version (PGLITE_DATA_DIR) is imported
 * into it on the first start.
 */
/** The generated secrets key's file in EMBEDDED_PG_DIR (when SECRETS_KEY is unset). */
export const SECRETS_KEY_FILE = "secrets-key";

/**
 * Every service is in this process, so nothing can still need an older key: what is in clear
 * (written before SECRETS_KEY) or under a key of SECRETS_KEY_PREVIOUS is sealed with the current
 * key at every start. A failure is logged and leaves the values as they were.
 */
async function resealStoredSecrets(config: Config, logger: ReturnType<typeof createLogger>) {
  try {
    const database = await openDatabase(config.DATABASE_URL);
    try {
      await reencryptAll(database.db, secretsKeyring(config, "npm start"), undefined, logger);
    } finally {
      await database.release();
    }
  } catch (err) {
    logger.warn({ err }, "stored credentials could not all be resealed with the current key");
  }
}

/**
 * Without DATABASE_URL: starts the embedded PostgreSQL in EMBEDDED_PG_DIR (importing a PGlite
 * folder left by an earlier version on the first start) and settles the secrets key; answers the
 * configuration that points at it (also set in process.env, which services and forked workers
 * read). With DATABASE_URL: the configuration as it is.
 */
export async function prepareDatabase(config: Config, logger: ReturnType<typeof createLogger>): Promise<{ config: Config; database?: EmbeddedPostgres }> {
  if (config.DATABASE_URL) return { config };
  const log = (msg: string, fields?: Record<string, unknown>) => logger.info(fields ?? {}, msg);
  const database = await startEmbeddedPostgres({ dir: config.EMBEDDED_PG_DIR, port: config.EMBEDDED_PG_PORT, log });
  let secretsKey: string;
  try {
    await importPgliteFolder({ folder: config.PGLITE_DATA_DIR, url: database.url, log });
    // Without SECRETS_KEY, the key credentials are sealed with is generated once and kept beside
    // the database it protects, like the server's password (back both up together).
    secretsKey = config.SECRETS_KEY ?? readOrCreateSecretsKey(path.join(database.dir, SECRETS_KEY_FILE));
  } catch (err) {
    await database.stop();
    throw err;
  }
  // Services read their configuration when the broker creates them.
  process.env.DATABASE_URL = database.url;
  process.env.SECRETS_KEY = secretsKey;
  return { config: { ...config, DATABASE_URL: database.url, SECRETS_KEY: secretsKey }, database };
}

export interface StandaloneOptions {
  /** The bus to the other workers of a multi-worker API (WorkerBusTransporter); none in one process. */
  transporter?: BrokerOptions["transporter"];
  /** Whether this process reseals stored credentials at start (one worker of several does). */
  reseal?: boolean;
  /** Services beside the API's (a worker's workerBusService). */
  services?: ServiceSchema[];
}

export async function startStandalone(config: Config = loadConfig(), options: StandaloneOptions = {}): Promise<Standalone> {
  const started = Date.now();
  const logger = createLogger(config, "embedded");
  const prepared = await prepareDatabase(config, logger);
  config = prepared.config;
  const database = prepared.database;
  let broker: ServiceBroker | undefined;
  try {
    broker = createBroker({ config, services: [createGatewayService(), ...domainSchemas(), ...(options.services ?? [])], transporter: options.transporter });
    await broker.start();
  } catch (err) {
    await broker?.stop().catch(() => undefined);
    await database?.stop();
    throw err;
  }
  if (options.reseal !== false) await resealStoredSecrets(config, logger);
  const where = database ? { database: "embedded PostgreSQL", data: path.resolve(database.dir), database_port: database.port } : { database: "PostgreSQL (DATABASE_URL)" };
  broker.logger.info({ port: config.PORT, ...where, ready_ms: Date.now() - started }, "Collab API listening");
  return {
    broker,
    database,
    async stop() {
      await broker.stop();
      await database?.stop();
    },
  };
}
