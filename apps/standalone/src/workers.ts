import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { createLogger, relayWorkerBus, stopOnSignals, type Config } from "@collab/core";
import { prepareDatabase } from "./standalone";

/** WORKERS, 0 meaning one per CPU core. */
export const workerCount = (config: Pick<Config, "WORKERS">): number => config.WORKERS || availableParallelism();

/** Which worker this process is (1…WORKERS), set by the primary; undefined in a lone process. */
export const workerIndex = (): number | undefined => (cluster.isWorker ? Number(process.env.COLLAB_WORKER) || undefined : undefined);

/** A worker that dies this soon after its start counts as failing to start. */
const EARLY_EXIT_MS = 15_000;
/** After this many early exits in a row the API gives up (a bad configuration, a database refusing). */
const MAX_EARLY_EXITS = 5;
/** How long a stopping worker has to drain before it is killed. */
const STOP_TIMEOUT_MS = 30_000;

/**
 * The primary process of a multi-worker `npm start`: starts the embedded PostgreSQL once (or uses
 * DATABASE_URL), then forks `count` workers that each run the whole API (embedded.ts) on the
 * shared PORT — node:cluster hands each new connection to the next worker — and relays the bus
 * between them (worker-bus.ts). A worker that dies is started again (backing off); SIGTERM or
 * SIGINT stops the workers (each drains its requests), then the database.
 */
export async function runWorkers(config: Config, count: number): Promise<void> {
  const logger = createLogger(config, "primary");
  const { config: ready, database } = await prepareDatabase(config, logger);
  let stopping = false;
  const indexOf = new Map<number, { index: number; startedAt: number }>();
  let earlyExits = 0;

  const fork = (index: number) => {
    const worker = cluster.fork({ COLLAB_WORKER: String(index), DATABASE_URL: ready.DATABASE_URL, SECRETS_KEY: ready.SECRETS_KEY });
    indexOf.set(worker.id, { index, startedAt: Date.now() });
  };
  const stopAll = async () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.isDead()) return resolve();
            const kill = setTimeout(() => w.process.kill("SIGKILL"), STOP_TIMEOUT_MS);
            w.once("exit", () => (clearTimeout(kill), resolve()));
            w.process.kill("SIGTERM");
          }),
      ),
    );
    await database?.stop();
  };

  cluster.setupPrimary({ serialization: "advanced" });
  relayWorkerBus(cluster);
  cluster.on("exit", (worker, code, signal) => {
    const known = indexOf.get(worker.id);
    indexOf.delete(worker.id);
    if (stopping || !known) return;
    earlyExits = Date.now() - known.startedAt < EARLY_EXIT_MS ? earlyExits + 1 : 0;
    if (earlyExits >= MAX_EARLY_EXITS) {
      logger.fatal({ worker: known.index, code, signal }, `workers keep exiting as they start (${earlyExits} in a row): stopping`);
      void stopAll().finally(() => process.exit(1));
      return;
    }
    const delay = Math.min(10_000, 250 * 2 ** earlyExits);
    logger.error({ worker: known.index, code, signal, restart_in_ms: delay }, "a worker exited: starting another");
    setTimeout(() => !stopping && fork(known.index), delay).unref();
  });
  stopOnSignals(async (signal) => {
    logger.info({ signal }, "stopping the workers");
    await stopAll();
  });
  for (let i = 1; i <= count; i++) fork(i);
  logger.info({ workers: count, port: ready.PORT, database: database ? "embedded PostgreSQL" : "PostgreSQL (DATABASE_URL)" }, "started the workers");
}
