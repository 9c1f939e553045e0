import { call, notFound, unprocessable, type Ctx } from "@collab/core";
import type { Db } from "@collab/db";
import { bundleRepository, isRepository, refState, removeRepository, restoreBundle, verifyAgainst, type RefState } from "@collab/git";
import { onStorage, Repositories, type ContainerKind } from "@collab/repositories-contract";
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, eq } from "drizzle-orm";
import { repositories, type RepositoryRow } from "../db/schema";
import { hashedDiskPath } from "./disk-path";
import { findRepository } from "./repositories";
import type { LocalStorages } from "./storages";

/** How long one copy may take over the bus (the bundle of a large repository). */
const TRANSFER_TIMEOUT_MS = 30 * 60_000;

interface Container {
  container_kind: ContainerKind;
  container_id: number;
}

const found = async (db: Db, p: Container): Promise<RepositoryRow> => {
  const row = await findRepository(db, p.container_kind, p.container_id);
  if (!row) throw notFound("Repository");
  return row;
};

/** The ref state of a repository served here (the source side of a move). */
export async function sourceRefState(db: Db, storages: LocalStorages, p: Container): Promise<RefState> {
  const row = await found(db, p);
  return refState(storages.folderOf(row.storage, row.diskPath));
}

/** The repository as a bundle stream; an empty stream for a repository without refs. */
export async function sourceBundle(db: Db, storages: LocalStorages, p: Container): Promise<Readable> {
  const row = await found(db, p);
  return (await bundleRepository(storages.folderOf(row.storage, row.diskPath))) ?? Readable.from([]);
}

/** A copy that failed or differs: an answer (the move fails), never a retry. */
const copyFailed = (why: string) => unprocessable(`repository copy failed: ${why.trim().split("\n")[0]}`);

/**
 * Makes `dir` a verified copy of the source: by path when this process serves the source's
 * storage too (one process serving both, as `npm start` does), else from a bundle streamed by
 * the source's replica over the bus. The copy is made beside `dir` and renamed into place once
 * verified, so a half-made copy is never taken for a finished one.
 */
async function copyTo(ctx: Ctx<unknown>, storages: LocalStorages, row: RepositoryRow, p: Container, dir: string): Promise<void> {
  const local = storages.serves(row.storage);
  const state = local
    ? await refState(storages.folderOf(row.storage, row.diskPath))
    : await call(ctx, Repositories.repositories.refState, p, onStorage(ctx, row.storage));
  if (await isRepository(dir)) {
    if ((await verifyAgainst(state, dir)).ok) return; // a repeated call: the copy is already there
    await removeRepository(dir);
  }
  const temp = `${dir}.move-${randomBytes(6).toString("hex")}`;
  const bundleFile = `${temp}.bundle`;
  await mkdir(dirname(dir), { recursive: true });
  try {
    let bundle: string | null = null;
    if (Object.keys(state.refs).length) {
      // By path, git reads the source itself; across processes the source's replica streams it.
      if (local) bundle = storages.folderOf(row.storage, row.diskPath);
      else {
        const stream = await call(ctx, Repositories.repositories.bundle, p, onStorage(ctx, row.storage, { timeout: TRANSFER_TIMEOUT_MS }));
        await pipeline(stream, createWriteStream(bundleFile));
        bundle = bundleFile;
      }
    }
    await restoreBundle(bundle, temp, state.head).catch((e: Error) => {
      throw copyFailed(e.message);
    });
    const check = await verifyAgainst(state, temp);
    if (!check.ok) throw copyFailed(check.problems.slice(0, 5).join("; "));
    await rename(temp, dir);
  } finally {
    await rm(temp, { recursive: true, force: true });
    await rm(bundleFile, { force: true });
  }
}

/**
 * A storage move's copy, on the destination's replica: copy, verify, then record the new storage
 * (only if the row is still where the copy came from). Repeated after the switch, it answers the
 * move done when the copy is there.
 */
export async function replicateRepository(ctx: Ctx<unknown>, db: Db, storages: LocalStorages, p: Container & { storage: string }): Promise<{ moved: boolean }> {
  const row = await findRepository(db, p.container_kind, p.container_id);
  if (!row) return { moved: false };
  const dir = storages.folderOf(p.storage, row.diskPath);
  const container = { container_kind: p.container_kind, container_id: p.container_id };
  if (row.storage === p.storage) {
    if (await isRepository(dir)) return { moved: true };
    throw copyFailed(`the repository is not on storage ${p.storage}`);
  }
  await copyTo(ctx, storages, row, container, dir);
  const switched = await db
    .update(repositories)
    .set({ storage: p.storage })
    .where(and(eq(repositories.id, row.id), eq(repositories.storage, row.storage)))
    .returning({ id: repositories.id });
  if (!switched.length) throw copyFailed("the repository changed storage during the copy");
  return { moved: true };
}

/** After a move: removes the copy left on a storage the repository no longer lives on. */
export async function removeLeftCopy(db: Db, storages: LocalStorages, p: Container & { storage: string }): Promise<{ removed: boolean }> {
  const row = await findRepository(db, p.container_kind, p.container_id);
  if (row?.storage === p.storage) throw unprocessable(`the repository lives on storage ${p.storage}`);
  await removeRepository(storages.folderOf(p.storage, row?.diskPath ?? hashedDiskPath(p.container_kind, p.container_id)));
  return { removed: true };
}
