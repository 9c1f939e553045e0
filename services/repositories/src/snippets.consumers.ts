import { call } from "@collab/core";
import { on, type ServiceKit, type Subscription } from "@collab/db";
import { onStorage, Repositories } from "@collab/repositories-contract";
import { Snippets } from "@collab/snippets-contract";
import { findRepository, removeRepositoryOf } from "./domain/repositories";
import type { LocalStorages } from "./domain/storages";

/**
 * A deleted snippet's repository goes with it (durable event, applied once; a deleted project's
 * snippets each announce theirs), removed by a replica serving its storage as a project's is.
 */
export const snippetsSubscriptions = (kit: ServiceKit, storages: LocalStorages): Subscription[] => [
  on(Snippets.events.snippetDeleted, async ({ id }, tx) => {
    const row = await findRepository(tx, "snippet", id);
    if (!row) return;
    if (storages.serves(row.storage)) await removeRepositoryOf(tx, storages, row);
    else await call(kit.broker, Repositories.repositories.remove, { container_kind: "snippet", container_id: id }, onStorage(kit.broker, row.storage));
  }),
];
