import { consumersOf, on, type Subscriptions } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { notifierSubscriptions } from "./deliveries/notifier.consumers";
import { removeGroupData, removeProjectData } from "./domain/cleanup";

/**
 * The durable domain events this service follows: deletions in namespaces (integrations and
 * deliveries go), and the activity the notifiers report (Discord; pipeline emails on
 * runners.pipeline.finished), recorded as deliveries for the worker.
 */
export const serviceConsumers = (): Subscriptions =>
  consumersOf("integrations", [
    ...notifierSubscriptions(),
    on(Namespaces.events.projectDeleted, (p, tx) => removeProjectData(tx, p.projectId)),
    on(Namespaces.events.groupDeleted, (p, tx) => removeGroupData(tx, p.groupIds)),
  ]);
