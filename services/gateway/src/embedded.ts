import { loadConfig } from "@collab/core";
import { startStandalone } from "./standalone";

/** `npm start`: the whole API in one process (standalone.ts); SIGINT/SIGTERM stop it cleanly. */
async function main() {
  const app = await startStandalone(loadConfig());
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.broker.logger.info({ signal }, "shutting down");
    app.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
