import type { Readable } from "node:stream";
import { streamGit } from "./stream";
import { LITERAL_PATHS } from "./parse";
import { batchCheck, resolveCommit } from "./objects";
import { normalizePath } from "./tree";

/** GitLab's archive formats and their aliases (Gitlab::Workhorse). */
const FORMATS: Record<string, { git: string; ext: string; contentType: string }> = {
  "tar.gz": { git: "tar.gz", ext: "tar.gz", contentType: "application/gzip" },
  tgz: { git: "tar.gz", ext: "tar.gz", contentType: "application/gzip" },
  gz: { git: "tar.gz", ext: "tar.gz", contentType: "application/gzip" },
  "tar.bz2": { git: "tar.bz2", ext: "tar.bz2", contentType: "application/x-bzip2" },
  tbz: { git: "tar.bz2", ext: "tar.bz2", contentType: "application/x-bzip2" },
  tbz2: { git: "tar.bz2", ext: "tar.bz2", contentType: "application/x-bzip2" },
  tb2: { git: "tar.bz2", ext: "tar.bz2", contentType: "application/x-bzip2" },
  bz2: { git: "tar.bz2", ext: "tar.bz2", contentType: "application/x-bzip2" },
  tar: { git: "tar", ext: "tar", contentType: "application/x-tar" },
  zip: { git: "zip", ext: "zip", contentType: "application/zip" },
};

export const isArchiveFormat = (format: string) => Object.hasOwn(FORMATS, format);

/** GitLab's archive name: `<project>-<ref>-<sha>` (slashes of ref and path as dashes), `-<path>` when one is given. */
export function archiveName(project: string, ref: string, sha: string, path?: string): string {
  const base = `${project}-${ref.replace(/\//g, "-")}-${sha}`;
  const dir = normalizePath(path) ?? "";
  const name = dir === "" ? base : `${base}-${dir.replace(/\//g, "-")}`;
  // It is also the archive's top directory: never a ".." an extractor would follow.
  return name.replace(/\.{2,}/g, ".");
}

export interface Archive {
  /** File name without directory, e.g. proj-main-<sha>.tar.gz. */
  filename: string;
  contentType: string;
  commitId: string;
  stream: Readable;
}

/**
 * `git archive` of a ref (optionally one path in it) in one of GitLab's formats, every entry under
 * `<name>/`. Null when the ref, the path or the format does not exist (GitLab's 404).
 */
export async function archive(cwd: string, o: { ref: string; project: string; format?: string; path?: string }): Promise<Archive | null> {
  const name0 = o.format ?? "tar.gz";
  // Own keys only: "constructor" or "__proto__" name no format.
  const format = isArchiveFormat(name0) ? FORMATS[name0] : undefined;
  const commitId = await resolveCommit(cwd, o.ref);
  if (!format || !commitId) return null;
  const path = normalizePath(o.path);
  if (path === null) return null;
  if (path !== "" && (await batchCheck(cwd, [`${commitId}:${path}`]))[0] === null) return null;
  const name = archiveName(o.project, o.ref, commitId, o.path);
  const args = ["-c", "tar.tar.bz2.command=bzip2 -c", "archive", `--format=${format.git}`, `--prefix=${name}/`, commitId, "--"];
  if (path !== "") args.push(path);
  return { filename: `${name}.${format.ext}`, contentType: format.contentType, commitId, stream: streamGit(cwd, args, LITERAL_PATHS) };
}
