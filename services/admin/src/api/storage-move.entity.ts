import { iso } from "@collab/core";
import type { StorageMoveRow } from "../db/schema";

/** Entities::{Projects,Snippets,Groups}::RepositoryStorageMove. */
export const presentMove = (m: StorageMoveRow, container: unknown) => ({
  id: m.id,
  created_at: iso(m.createdAt),
  state: m.state,
  source_storage_name: m.sourceStorageName,
  destination_storage_name: m.destinationStorageName,
  [m.containerType]: container ?? null,
});
