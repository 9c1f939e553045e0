import { call } from "@collab/core";
import type { Db, ServiceKit } from "@collab/db";
import { onStorage, Repositories, type ContainerKind } from "@collab/repositories-contract";
import { findRepository, removeRepositoryOf } from "./repositories";
import type { LocalStorages } from "./storages";

/**
 * Removes a deleted container's repository, in an event consumer's transaction. The replica the
 * event reaches may not serve the repository's storage: it then has the one that does remove it
 * (and an unreachable storage fails the event, which comes again later). Removing twice is no error.
 */
export async function removeContainerRepository(kit: ServiceKit, storages: LocalStorages, tx: Db, kind: ContainerKind, id: number): Promise<void> {
  const row = await findRepository(tx, kind, id);
  if (!row) return;
  if (storages.serves(row.storage)) await removeRepositoryOf(tx, storages, row);
  else await call(kit.broker, Repositories.repositories.remove, { container_kind: kind, container_id: id }, onStorage(kit.broker, row.storage));
}
