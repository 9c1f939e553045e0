import { createBroker, loadConfig, stopOnSignals } from "@collab/core";
import { createGatewayService } from "./gateway.service";

/** Distributed mode: only the HTTP gateway in this process; services are reached over the transporter. */
async function main() {
  const config = loadConfig();
  const broker = createBroker({ config, services: [createGatewayService()] });
  stopOnSignals(broker);
  await broker.start();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
