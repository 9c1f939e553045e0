import { on, type ServiceKit, type Subscription } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { removeContainerRepository } from "./domain/removal";
import type { LocalStorages } from "./domain/storages";

/** A deleted project's repository goes with it (durable event, applied once; see removeContainerRepository). */
export const namespacesSubscriptions = (kit: ServiceKit, storages: LocalStorages): Subscription[] => [
  on(Namespaces.events.projectDeleted, ({ projectId }, tx) => removeContainerRepository(kit, storages, tx, "project", projectId)),
];
