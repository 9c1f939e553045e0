import { runNode } from "@collab/core";
import { schemas } from "./index";

/** Distributed mode: this service alone in its process (one replica per storage set), reached over the transporter. */
runNode({ services: schemas, dependsOn: ["namespaces"] }).catch((err) => {
  console.error(err);
  process.exit(1);
});
