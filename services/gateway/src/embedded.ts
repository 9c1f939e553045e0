import { createBroker, loadConfig, stopOnSignals } from "@collab/core";
import { schemas as accounts } from "@collab/accounts";
import { schemas as namespaces } from "@collab/namespaces";
import { schemas as issues } from "@collab/issues";
import { createGatewayService } from "./gateway.service";

/** `npm start`: the whole API in one process, services calling each other in memory. */
async function main() {
  const config = loadConfig();
  const broker = createBroker({ config, services: [createGatewayService(), ...accounts, ...namespaces, ...issues] });
  stopOnSignals(broker);
  await broker.start();
  broker.logger.info({ port: config.PORT, database: config.DATABASE_URL ? "postgresql" : `pglite:${config.PGLITE_DATA_DIR}` }, "Collab API listening");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
