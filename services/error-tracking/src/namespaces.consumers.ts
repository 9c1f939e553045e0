import { consumersOf, on, type Subscriptions } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { removeProjectData } from "./domain/cleanup";

/** A deleted project's error tracking goes with it (durable event, applied once, in its transaction). */
export const namespacesConsumers = (): Subscriptions =>
  consumersOf("error-tracking", [on(Namespaces.events.projectDeleted, (p, tx) => removeProjectData(p, tx))]);
