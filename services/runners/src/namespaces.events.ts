import { consumersOf, on, type Subscriptions } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { removeGroupData, removeProjectData } from "./domain/cleanup";

/** Deletions in the namespaces service this service follows (durable events, applied once each). */
export const namespacesConsumers = (): Subscriptions =>
  consumersOf("runners", [
    on(Namespaces.events.projectDeleted, (p, tx) => removeProjectData(tx, p.projectId)),
    on(Namespaces.events.groupDeleted, (p, tx) => removeGroupData(tx, p.groupIds)),
  ]);
