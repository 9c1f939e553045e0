import type { GroupContainer, GroupStorageMove, ProjectContainer, ProjectStorageMove, SnippetStorageMove } from "@collab/admin-contract";
import type { StorageMoveSnippet } from "@collab/snippets-contract";
import type { StorageMoveRow } from "../db/schema";

/** Entities::{Projects,Snippets,Groups}::RepositoryStorageMove, without the container it embeds (which comes last). */
const moveFields = (m: StorageMoveRow) => ({
  id: m.id,
  created_at: m.createdAt.toISOString(),
  state: m.state,
  source_storage_name: m.sourceStorageName,
  destination_storage_name: m.destinationStorageName,
});

/** A project's move: the project, null once it is gone. */
export const presentProjectMove = (m: StorageMoveRow, project: ProjectContainer | undefined): ProjectStorageMove => ({ ...moveFields(m), project: project ?? null });
/** A group's move: the group, null once it is gone. */
export const presentGroupMove = (m: StorageMoveRow, group: GroupContainer | undefined): GroupStorageMove => ({ ...moveFields(m), group: group ?? null });
/** A snippet's move embeds the snippet (null once it is gone). */
export const presentSnippetMove = (m: StorageMoveRow, snippet: StorageMoveSnippet | undefined): SnippetStorageMove => ({ ...moveFields(m), snippet: snippet ?? null });
