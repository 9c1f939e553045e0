import { runNode } from "@collab/core";
import { createGatewayService } from "./gateway.service";
import { REQUIRED_SERVICES } from "./health";

/** Distributed mode: only the HTTP gateway in this process; services are reached over the transporter. */
runNode({ services: [createGatewayService()], dependsOn: [...REQUIRED_SERVICES] }).catch((err) => {
  console.error(err);
  process.exit(1);
});
