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
  if (cluster.isWorker) {
    // The primary decides when workers stop (SIGTERM); a terminal's Ctrl-C reaches the whole
    // group, and the primary's SIGTERM would then be a second signal (stopOnSignals exits at once).
    process.on("SIGINT", () => undefined);
    let stopping: Promise<void> | undefined;
    const once = (signal: string) => (stopping ??= stop(signal).then(() => process.exit(0), () => process.exit(1)));
    process.on("SIGTERM", () => void once("SIGTERM"));
    // The primary is gone (the IPC channel closed): nothing would restart or stop this worker.
    process.on("disconnect", () => void once("primary exited"));
    const bus = new WorkerBusTransporter();
    // Requests wait until the siblings know this worker: their writes must flush what it holds.
    holdRequestsUntil(bus.peered());
    app = await startStandalone(config, { transporter: bus, reseal: workerIndex() === 1, services: [workerBusService()] });
    return;
  }
  stopOnSignals(stop);
  app = await startStandalone(config);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
