import { commitFirstFiles, createBareRepository, createCommit, isRepository, removeRepositoryFolder, RepositoryError } from "@collab/git";
import { badRequestMessage, conflict, notFound } from "@collab/core";
import type { Db } from "@collab/db";
import type { ContainerKind, FileAction, Repository } from "@collab/repositories-contract";
import { and, eq } from "drizzle-orm";
import { repositories, type RepositoryRow } from "../db/schema";
import { hashedDiskPath } from "./disk-path";
import type { LocalStorages } from "./storages";

/** The first commit's files, message and author: a project's README, a snippet's files. */
export interface FirstFiles {
  files: { file_path: string; content: string }[];
  message: string;
  author_name: string;
  author_email: string;
}

export interface FirstFile {
  file_name: string;
  content: string;
  message: string;
  author_name: string;
  author_email: string;
}

export async function findRepository(db: Db, kind: ContainerKind, containerId: number): Promise<RepositoryRow | undefined> {
  const [row] = await db
    .select()
    .from(repositories)
    .where(and(eq(repositories.containerKind, kind), eq(repositories.containerId, containerId)));
  return row;
}

/** The answer about a repository: `exists` read on disk when this process serves its storage. */
export async function presentRepository(row: RepositoryRow, storages: LocalStorages): Promise<Repository> {
  const exists = storages.serves(row.storage) ? await isRepository(storages.folderOf(row.storage, row.diskPath)) : null;
  return { id: row.id, container_kind: row.containerKind as ContainerKind, container_id: row.containerId, storage: row.storage, disk_path: row.diskPath, exists };
}

/**
 * Creates a container's repository on a storage served here, in one transaction with its row:
 * a git failure leaves no row. Repeating it (a retried call) finds the row and the repository and
 * changes nothing; the first commit is made only on a branch that does not exist yet.
 */
export async function createRepository(
  db: Db,
  storages: LocalStorages,
  p: { container_kind: ContainerKind; container_id: number; storage: string; default_branch: string; readme?: FirstFile; first_files?: FirstFiles },
): Promise<RepositoryRow> {
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(repositories)
      .values({ containerKind: p.container_kind, containerId: p.container_id, storage: p.storage, diskPath: hashedDiskPath(p.container_kind, p.container_id) })
      .onConflictDoNothing()
      .returning();
    const row = inserted ?? (await findRepository(tx, p.container_kind, p.container_id))!;
    const dir = storages.folderOf(row.storage, row.diskPath);
    // A folder no record owned is a leftover (a creation whose transaction rolled back, or ids
    // started again): the new repository starts empty.
    if (inserted) await removeRepositoryFolder(dir);
    if (!(await isRepository(dir))) await createBareRepository(dir, p.default_branch);
    const first = p.readme ? { ...p.readme, files: [{ file_path: p.readme.file_name, content: p.readme.content }] } : p.first_files;
    if (inserted && first) {
      await commitFirstFiles(dir, {
        branch: p.default_branch,
        files: first.files.map((f) => ({ path: f.file_path, content: f.content })),
        message: first.message,
        author: { name: first.author_name, email: first.author_email },
      }).catch(asApiError);
    }
    return row;
  });
}

/**
 * Removes a container's repository from disk, then its row (`tx`: the caller's transaction, an
 * event consumer's). Idempotent: a missing folder or row is no error.
 */
export async function removeRepositoryOf(tx: Db, storages: LocalStorages, row: RepositoryRow): Promise<void> {
  await removeRepositoryFolder(storages.folderOf(row.storage, row.diskPath));
  await tx.delete(repositories).where(eq(repositories.id, row.id));
}

/** git's refusals as GitLab answers them: an invalid change is a 400 with its reason, a moved branch a 409. */
export function asApiError(e: unknown): never {
  if (e instanceof RepositoryError && e.kind === "invalid") throw badRequestMessage(e.message);
  if (e instanceof RepositoryError && e.kind === "stale") throw conflict(e.message);
  throw e;
}

/** Commits file actions on a branch of a repository served here, as its author; answers the commit's sha. */
export async function commitFiles(
  storages: LocalStorages,
  row: RepositoryRow,
  p: { branch: string; message: string; actions: FileAction[]; author_name: string; author_email: string },
): Promise<{ id: string }> {
  const dir = storages.folderOf(row.storage, row.diskPath);
  if (!(await isRepository(dir))) throw notFound("Repository");
  const author = { name: p.author_name, email: p.author_email };
  const commit = await createCommit(dir, { branch: p.branch, commit_message: p.message, actions: p.actions, committer: author }).catch(asApiError);
  return { id: commit.id };
}
