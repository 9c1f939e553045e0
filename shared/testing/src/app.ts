import { Accounts } from "@collab/accounts-contract";
import { broadcast, call, CachesClear, createBroker, flushAccessEverywhere, flushIdentityEverywhere, flushUserRefsEverywhere, flushWorkItemRefsEverywhere, loadConfig, readPrivateKey, Signer, type Caller } from "@collab/core";
import { createScratchDatabase, openDatabase, settleOutboxes, testDatabaseServer, truncateAll, type Database } from "@collab/db";
import type { ServiceBroker, ServiceSchema } from "moleculer";
import type { AddressInfo } from "node:net";

export const ROOT_TOKEN = "glpat-root-token-for-tests-0001";

export interface TestApp {
  /** http://127.0.0.1:PORT */
  url: string;
  /** A broker on the system's bus: the app's own in embedded mode, a client node in distributed mode. */
  broker: ServiceBroker;
  rootToken: string;
  /** True when the services run in their own processes (the distributed pass). */
  distributed: boolean;
  /** The app's database, for the few tests that set up state no endpoint can (votes, archiving). */
  database: Database;
  /**
   * The meta of a bus call made as `caller` (tests of bus actions): in the distributed pass the
   * caller signed as the gateway would sign it, since the services believe nothing else.
   */
  asCaller(caller: Caller): { caller: Caller; auth?: string };
  /** Empties every table, recreates root and drops gateway caches: call in beforeEach. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

async function resetter(database: Database, broker: ServiceBroker) {
  await settleOutboxes(database.db);
  await truncateAll(database.db);
  await call(broker, Accounts.bootstrap, { token: ROOT_TOKEN });
  await flushIdentityEverywhere(broker, "test reset");
  await flushAccessEverywhere(broker, "test reset");
  await flushUserRefsEverywhere(broker, "test reset");
  await flushWorkItemRefsEverywhere(broker, "test reset");
  await broadcast(broker, CachesClear, {});
  // A round trip to every node after the broadcast: each has handled the (synchronous) clear before
  // it answers, since one connection's messages reach it in order. Closes the window in which the
  // next test could reach a process still holding the previous test's settings or tokens.
  // moleculer's ping gives up on a node after 2 s by default and answers null for it, and a
  // loaded machine can take longer: the clear may still be on its way there. A node killed on
  // purpose (the fault tests) never answers, hence a bound rather than a refusal.
  await broker.ping(undefined, 10_000);
}

/**
 * Starts the given services (gateway included) in one broker on a random port, against a fresh
 * scratch database on TEST_DATABASE_SERVER (the run's PostgreSQL, see shared/testing/jest).
 *
 * With TEST_GATEWAY_URL set (the distributed pass, see scripts/topology.js) nothing is started:
 * the tests drive the already running processes through their gateway, and this process joins
 * the bus as a client node to reset state and observe events.
 */
export async function startTestApp(makeServices: () => ServiceSchema[], label = "e2e"): Promise<TestApp> {
  if (process.env.TEST_GATEWAY_URL) return attachToTopology(process.env.TEST_GATEWAY_URL);
  process.env.INITIAL_ROOT_TOKEN = ROOT_TOKEN;
  const scratch = await createScratchDatabase(testDatabaseServer(), label);
  process.env.DATABASE_URL = scratch.url;
  const config = loadConfig();
  const broker = createBroker({ config, services: makeServices() });
  await broker.start();
  const database: Database = await openDatabase(config.DATABASE_URL);
  const gateway = broker.getLocalService("gateway") as unknown as { server: { address(): AddressInfo } };
  const url = `http://127.0.0.1:${gateway.server.address().port}`;
  return {
    url,
    broker,
    rootToken: ROOT_TOKEN,
    distributed: false,
    database,
    asCaller: (caller) => ({ caller }),
    reset: () => resetter(database, broker),
    async stop() {
      await database.release();
      await broker.stop();
      await scratch.drop();
    },
  };
}

async function attachToTopology(url: string): Promise<TestApp> {
  const config = loadConfig({ ...process.env, TRANSPORTER: process.env.TEST_TRANSPORTER, DATABASE_URL: process.env.TEST_TOPOLOGY_DATABASE_URL, PORT: "0" });
  const broker = createBroker({ config, services: [], nodeID: `test-client-${process.pid}` });
  await broker.start();
  const nodes: { service: string }[] = JSON.parse(process.env.TEST_TOPOLOGY_NODES ?? "[]");
  await broker.waitForServices([...new Set(["gateway", ...nodes.map((n) => n.service)])], 30_000);
  const database = await openDatabase(config.DATABASE_URL);
  return {
    url,
    broker,
    rootToken: ROOT_TOKEN,
    distributed: true,
    database,
    asCaller(caller) {
      const signer = new Signer(readPrivateKey(process.env.TEST_CALLER_SIGNING_KEY!));
      return { caller, auth: signer.sign({ caller, exp: Date.now() + 60_000 }) };
    },
    reset: () => resetter(database, broker),
    async stop() {
      await database.release();
      await broker.stop();
    },
  };
}
