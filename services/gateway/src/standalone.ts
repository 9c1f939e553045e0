import { createBroker, createLogger, loadConfig, type Config } from "@collab/core";
import { importPgliteFolder, startEmbeddedPostgres, type EmbeddedPostgres } from "@collab/db";
import type { ServiceBroker } from "moleculer";
import path from "node:path";
import { createGatewayService } from "./gateway.service";
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
export async function startStandalone(config: Config = loadConfig()): Promise<Standalone> {
  const started = Date.now();
  const logger = createLogger(config, "embedded");
  let database: EmbeddedPostgres | undefined;
  if (!config.DATABASE_URL) {
    const log = (msg: string, fields?: Record<string, unknown>) => logger.info(fields ?? {}, msg);
    database = await startEmbeddedPostgres({ dir: config.EMBEDDED_PG_DIR, port: config.EMBEDDED_PG_PORT, log });
    try {
      await importPgliteFolder({ folder: config.PGLITE_DATA_DIR, url: database.url, log });
    } catch (err) {
      await database.stop();
      throw err;
    }
    // Services read their configuration when the broker creates them.
    process.env.DATABASE_URL = database.url;
    config = { ...config, DATABASE_URL: database.url };
  }
  const broker = createBroker({ config, services: [createGatewayService(), ...domainSchemas()] });
  try {
    await broker.start();
  } catch (err) {
    await broker.stop().catch(() => undefined);
    await database?.stop();
    throw err;
  }
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
