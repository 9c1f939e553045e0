import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { streamGit } from "./stream";
import { gitText, runGit } from "./run";
import { isShortId, LITERAL_PATHS, splitNul } from "./parse";
import { batchCheck, resolveCommit } from "./objects";
import { normalizePath } from "./tree";

/** A file at a ref, as GitLab's files API answers it (content base64-encoded, as GitLab always does). */
export interface FileData {
  file_name: string;
  file_path: string;
  size: number;
  encoding: "base64";
  content: string;
  content_sha256: string;
  ref: string;
  blob_id: string;
  commit_id: string;
  last_commit_id: string;
  execute_filemode: boolean;
}

/** The file's blob and mode at a commit, read from its directory's listing (the mode is not in cat-file). */
async function locate(cwd: string, commit: string, path: string): Promise<{ id: string; mode: string } | null> {
  const slash = path.lastIndexOf("/");
  const dir = slash < 0 ? "" : path.slice(0, slash);
  const name = path.slice(slash + 1);
  const [tree] = await batchCheck(cwd, [dir === "" ? `${commit}^{tree}` : `${commit}:${dir}`]);
  if (tree?.type !== "tree") return null;
  for (const line of splitNul(await gitText(cwd, ["ls-tree", "-z", tree.id]))) {
    const tab = line.indexOf("\t");
    const [mode, type, id] = line.slice(0, tab).split(" ");
    if (line.slice(tab + 1) === name) return type === "blob" ? { id, mode } : null;
  }
  return null;
}

/** The newest commit (from `commit` back) that changed `path`. */
export async function lastCommitFor(cwd: string, commit: string, path: string): Promise<string | null> {
  const out = await gitText(cwd, ["log", "-1", "--format=%H", commit, "--", path], { env: LITERAL_PATHS });
  return out.trim() || null;
}

/** A file at a ref with its content, or null when the ref or the file does not exist. */
export async function getFile(cwd: string, ref: string, filePath: string): Promise<FileData | null> {
  const found = await getRawFile(cwd, ref, filePath);
  if (!found) return null;
  const { content, ...meta } = found;
  return { ...meta, encoding: "base64", content: content.toString("base64") };
}

/** A file at a ref with its raw bytes (GitLab's files raw endpoint), or null. */
export async function getRawFile(cwd: string, ref: string, filePath: string): Promise<(Omit<FileData, "content" | "encoding"> & { content: Buffer }) | null> {
  const path = normalizePath(filePath);
  const commit = await resolveCommit(cwd, ref);
  if (!commit || !path) return null;
  const blob = await locate(cwd, commit, path);
  if (!blob) return null;
  const [content, last] = await Promise.all([runGit(cwd, ["cat-file", "blob", blob.id]), lastCommitFor(cwd, commit, path)]);
  return {
    file_name: path.slice(path.lastIndexOf("/") + 1),
    file_path: path,
    size: content.stdout.length,
    content: content.stdout,
    content_sha256: createHash("sha256").update(content.stdout).digest("hex"),
    ref,
    blob_id: blob.id,
    commit_id: commit,
    last_commit_id: last ?? commit,
    execute_filemode: blob.mode === "100755",
  };
}

/** A blob by (short) id, as GitLab's blobs API answers it; null when there is no such blob. */
export async function getBlob(cwd: string, sha: string): Promise<{ sha: string; size: number; encoding: "base64"; content: string } | null> {
  const raw = await rawBlob(cwd, sha);
  return raw && { sha: raw.id, size: raw.content.length, encoding: "base64", content: raw.content.toString("base64") };
}

/** A blob's bytes as a stream (large raw files are not held in memory), or null when there is no such blob. */
export async function streamBlob(cwd: string, sha: string): Promise<{ id: string; size: number; stream: Readable } | null> {
  if (!isShortId(sha)) return null;
  const [found] = await batchCheck(cwd, [sha]);
  if (found?.type !== "blob") return null;
  return { id: found.id, size: found.size, stream: streamGit(cwd, ["cat-file", "blob", found.id]) };
}

/** A blob's bytes by (short) id, or null. */
export async function rawBlob(cwd: string, sha: string): Promise<{ id: string; content: Buffer } | null> {
  if (!isShortId(sha)) return null;
  const [found] = await batchCheck(cwd, [sha]);
  if (found?.type !== "blob") return null;
  return { id: found.id, content: (await runGit(cwd, ["cat-file", "blob", found.id])).stdout };
}

/** git's own test for binary content (buffer_is_binary): a NUL in the first 8000 bytes. */
export const isBinaryContent = (bytes: Buffer) => bytes.subarray(0, 8000).includes(0);

/** The first chunk a stream yields, put back: the stream still gives every byte. Empty when it ends first. */
async function firstChunk(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = () => {
      stream.off("readable", onReadable);
      stream.off("error", onError);
    };
    const onReadable = () => {
      done();
      const chunk = stream.read() as Buffer | null;
      if (chunk) stream.unshift(chunk);
      resolve(chunk ?? Buffer.alloc(0));
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    stream.on("readable", onReadable);
    stream.on("error", onError);
  });
}

/**
 * A blob's bytes as a stream with whether they are binary (read from the first chunk, as git
 * decides it), for a raw download's Content-Type. Null when there is no such blob.
 */
export async function openBlob(cwd: string, sha: string): Promise<{ id: string; size: number; binary: boolean; stream: Readable } | null> {
  const blob = await streamBlob(cwd, sha);
  if (!blob) return null;
  if (blob.size === 0) {
    blob.stream.resume();
    return { ...blob, binary: false, stream: Readable.from([], { objectMode: false }) };
  }
  const first = await firstChunk(blob.stream);
  return { ...blob, binary: isBinaryContent(first) };
}
