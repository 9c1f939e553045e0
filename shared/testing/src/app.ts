import { createBroker, loadConfig } from "@collab/core";
import { createScratchDatabase, openDatabase, truncateAll, type Database } from "@collab/db";
import type { ServiceBroker, ServiceSchema } from "moleculer";
import type { AddressInfo } from "node:net";

export const ROOT_TOKEN = "glpat-root-token-for-tests-0001";

export interface TestApp {
  /** http://127.0.0.1:PORT */
  url: string;
  broker: ServiceBroker;
  rootToken: string;
  /** Empties every table, recreates root and drops gateway caches: call in beforeEach. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the given services (gateway included) in one broker on a random port, against a fresh
 * database: in-memory PGlite by default, or a scratch database on TEST_DATABASE_SERVER (PostgreSQL).
 */
export async function startTestApp(makeServices: () => ServiceSchema[], label = "e2e"): Promise<TestApp> {
  process.env.INITIAL_ROOT_TOKEN = ROOT_TOKEN;
  let scratch: { url: string; drop: () => Promise<void> } | undefined;
  if (process.env.TEST_DATABASE_SERVER) {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_SERVER, label);
    process.env.DATABASE_URL = scratch.url;
  }
  const config = loadConfig();
  const broker = createBroker({ config, services: makeServices() });
  await broker.start();
  const database: Database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.PGLITE_DATA_DIR });
  const gateway = broker.getLocalService("gateway") as unknown as { server: { address(): AddressInfo } };
  const url = `http://127.0.0.1:${gateway.server.address().port}`;
  return {
    url,
    broker,
    rootToken: ROOT_TOKEN,
    async reset() {
      await truncateAll(database.db);
      await broker.call("accounts.bootstrap", { token: ROOT_TOKEN });
      await broker.broadcast("gateway.caches.clear", {});
    },
    async stop() {
      await database.release();
      await broker.stop();
      await scratch?.drop();
    },
  };
}
