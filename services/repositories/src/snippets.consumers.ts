import { on, type ServiceKit, type Subscription } from "@collab/db";
import { Snippets } from "@collab/snippets-contract";
import { removeContainerRepository } from "./domain/removal";
import type { LocalStorages } from "./domain/storages";

/**
 * A deleted snippet's repository goes with it (durable event, applied once; a deleted project's
 * snippets each announce theirs; see removeContainerRepository).
 */
export const snippetsSubscriptions = (kit: ServiceKit, storages: LocalStorages): Subscription[] => [
  on(Snippets.events.snippetDeleted, ({ id }, tx) => removeContainerRepository(kit, storages, tx, "snippet", id)),
];
