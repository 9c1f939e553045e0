import { createBroker, loadConfig, stopOnSignals } from "@collab/core";
import { createGatewayService } from "./gateway.service";
import { domainSchemas } from "./services";

/** `npm start`: the whole API in one process, services calling each other in memory. */
async function main() {
  const config = loadConfig();
  const broker = createBroker({ config, services: [createGatewayService(), ...domainSchemas()] });
  stopOnSignals(broker);
  await broker.start();
  broker.logger.info({ port: config.PORT, database: config.DATABASE_URL ? "postgresql" : `pglite:${config.PGLITE_DATA_DIR}` }, "Collab API listening");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
