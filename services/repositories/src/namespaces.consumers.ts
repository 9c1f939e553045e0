import { call } from "@collab/core";
import { on, type ServiceKit, type Subscription } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { onStorage, Repositories } from "@collab/repositories-contract";
import { findRepository, removeRepositoryOf } from "./domain/repositories";
import type { LocalStorages } from "./domain/storages";

/**
 * A deleted project's repository goes with it (durable event, applied once). The replica the
 * event reaches may not serve the repository's storage: it then has the one that does remove it
 * (and an unreachable storage fails the event, which comes again later). Removing twice is no error.
 */
export const namespacesSubscriptions = (kit: ServiceKit, storages: LocalStorages): Subscription[] => [
  on(Namespaces.events.projectDeleted, async ({ projectId }, tx) => {
    const row = await findRepository(tx, "project", projectId);
    if (!row) return;
    if (storages.serves(row.storage)) await removeRepositoryOf(tx, storages, row);
    else await call(kit.broker, Repositories.repositories.remove, { container_kind: "project", container_id: projectId }, onStorage(kit.broker, row.storage));
  }),
];
