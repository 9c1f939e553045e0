import { createLogger, exitOnUnhandledErrors, loadConfig, stopOnSignals } from "@collab/core";
import { startStandalone, type Standalone } from "./standalone";

/** `npm start`: the whole API in one process (standalone.ts); SIGINT/SIGTERM stop it cleanly. */
async function main() {
  const config = loadConfig();
  exitOnUnhandledErrors(createLogger(config, "process"));
  let app: Standalone | undefined;
  stopOnSignals(async (signal) => {
    app?.broker.logger.info({ signal }, "shutting down");
    await app?.stop();
  });
  app = await startStandalone(config);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
