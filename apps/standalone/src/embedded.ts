import cluster from "node:cluster";
import { createLogger, exitOnUnhandledErrors, holdRequestsUntil, loadConfig, stopOnSignals, workerBusService, WorkerBusTransporter } from "@collab/core";
import { startStandalone, type Standalone } from "./standalone";
import { runWorkers, workerCount, workerIndex } from "./workers";

/**
 * `npm start`: the whole API on one node. With WORKERS > 1 (default: one per CPU core) this
 * process becomes the primary of that many workers (workers.ts), each running the whole API;
 * with WORKERS=1 the API runs here (standalone.ts). SIGINT/SIGTERM stop it cleanly.
 */
async function main() {
  const config = loadConfig();
  const logger = createLogger(config, "process");
  exitOnUnhandledErrors(logger);
  if (cluster.isPrimary && workerCount(config) > 1) return runWorkers(config, workerCount(config));
  let app: Standalone | undefined;
  const stop = async (signal: string) => {
    app?.broker.logger.info({ signal }, "shutting down");
    await app?.stop();
  };
  stopOnSignals(stop, { clusterWorker: cluster.isWorker });
  if (cluster.isWorker) {
    const bus = new WorkerBusTransporter();
    // Requests wait until the siblings know this worker: their writes must flush what it holds.
    holdRequestsUntil(bus.peered());
    app = await startStandalone(config, { transporter: bus, reseal: workerIndex() === 1, services: [workerBusService()] });
    return;
  }
  app = await startStandalone(config);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
