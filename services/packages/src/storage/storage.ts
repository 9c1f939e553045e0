import { ApiError } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { fileChunks, packageFiles, type PackageFileRow } from "../db/schema";

/**
 * The package registry's one file store, shared by every format: bytes live in PostgreSQL
 * (packages.file_chunks, CHUNK_BYTES a row), so any replica on any machine reads what another
 * wrote. Uploads are written chunk by chunk as the stream arrives, inside the caller's
 * transaction (a failed or oversized upload leaves no row); downloads read one chunk at a time.
 */
export const CHUNK_BYTES = 256 * 1024;

export const tooLarge = () => new ApiError(413, { message: "413 Request Entity Too Large" }, "PAYLOAD_TOO_LARGE");

export interface StoredFile {
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
}

/** Cuts a stream of buffers of any size into chunks of exactly `size` bytes (the last one shorter). */
export async function* rechunk(source: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>, size = CHUNK_BYTES): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    let buf = typeof piece === "string" ? Buffer.from(piece) : Buffer.isBuffer(piece) ? piece : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (buf.length > 0) {
      const take = Math.min(size - pendingBytes, buf.length);
      pending.push(buf.subarray(0, take));
      pendingBytes += take;
      buf = buf.subarray(take);
      if (pendingBytes === size) {
        yield Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
      }
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/**
 * Creates the file row of `packageId` and writes `source` into its chunks, computing size, md5,
 * sha1 and sha256 on the way; the row then carries them. Run inside a transaction: over
 * `maxBytes` it throws 413 and the transaction's rollback removes whatever was written.
 */
export async function storeFile(tx: Db, packageId: number, fileName: string, source: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>, maxBytes: number): Promise<PackageFileRow> {
  const [file] = await tx.insert(packageFiles).values({ packageId, fileName }).returning();
  const md5 = createHash("md5");
  const sha1 = createHash("sha1");
  const sha256 = createHash("sha256");
  let size = 0;
  let seq = 0;
  for await (const chunk of rechunk(source)) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge();
    md5.update(chunk);
    sha1.update(chunk);
    sha256.update(chunk);
    await tx.insert(fileChunks).values({ fileId: file.id, seq, data: chunk });
    seq += 1;
  }
  const [stored] = await tx
    .update(packageFiles)
    .set({ size, fileMd5: md5.digest("hex"), fileSha1: sha1.digest("hex"), fileSha256: sha256.digest("hex"), updatedAt: new Date() })
    .where(eq(packageFiles.id, file.id))
    .returning();
  return stored;
}

/**
 * The bytes of a file as a stream that reads one chunk per pull, in order: a download never holds
 * more than a chunk or two in memory whatever the file's size. A chunk missing in the middle (the
 * file was removed meanwhile) ends the stream with an error.
 */
export function openFile(db: Db, fileId: number, chunkCount?: number): Readable {
  let seq = 0;
  return new Readable({
    highWaterMark: CHUNK_BYTES,
    read() {
      if (chunkCount !== undefined && seq >= chunkCount) {
        this.push(null);
        return;
      }
      const current = seq++;
      db.select({ data: fileChunks.data })
        .from(fileChunks)
        .where(and(eq(fileChunks.fileId, fileId), eq(fileChunks.seq, current)))
        .then(
          (rows) => {
            if (rows.length === 0) {
              if (chunkCount !== undefined) this.destroy(new Error(`chunk ${current} of file ${fileId} is missing`));
              else this.push(null);
              return;
            }
            this.push(rows[0].data);
          },
          (err: Error) => this.destroy(err),
        );
    },
  });
}

/** How many chunks a file of this size has. */
export const chunkCountOf = (size: number) => Math.ceil(size / CHUNK_BYTES);

/** Removes files (rows and bytes), chunks first in bounded batches. Answers how many files went. */
export async function removeFiles(db: Db, fileIds: number[]): Promise<number> {
  if (!fileIds.length) return 0;
  await db.delete(fileChunks).where(inArray(fileChunks.fileId, fileIds));
  const gone = await db.delete(packageFiles).where(inArray(packageFiles.id, fileIds)).returning({ id: packageFiles.id });
  return gone.length;
}

/** Chunks stored for these files (tests and the worker's report). */
export async function chunkCount(db: Db, fileIds: number[]): Promise<number> {
  if (!fileIds.length) return 0;
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(fileChunks).where(inArray(fileChunks.fileId, fileIds));
  return row?.n ?? 0;
}
