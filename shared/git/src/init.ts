import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { createCommit } from "./commit";
import { RepositoryError } from "./errors";
import type { Person } from "./objects";
import { branchTarget } from "./refs";
import { runGit } from "./run";

/** True when `dir` holds a bare repository (its HEAD and objects folder are there). */
export async function isRepository(dir: string): Promise<boolean> {
  try {
    const [head, objects] = await Promise.all([stat(path.join(dir, "HEAD")), stat(path.join(dir, "objects"))]);
    return head.isFile() && objects.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Creates a bare repository at `dir` (and its parent folders) whose HEAD names `defaultBranch`.
 * Running it on an existing repository changes nothing (git init only reinitialises), so a
 * retried creation is harmless.
 */
export async function createBareRepository(dir: string, defaultBranch: string): Promise<void> {
  await mkdir(path.dirname(dir), { recursive: true });
  await runGit(path.dirname(dir), ["init", "--bare", "--quiet", `--initial-branch=${defaultBranch}`, dir]);
}

/** Removes a repository's folder; a missing one is no error (removal is retried by event consumers). */
export async function removeRepositoryFolder(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/**
 * The first commit of an empty repository: one file on `branch` (see commitFirstFiles).
 */
export function commitFirstFile(
  dir: string,
  opts: { branch: string; fileName: string; content: string; message: string; author: Person },
): Promise<string | null> {
  return commitFirstFiles(dir, { branch: opts.branch, files: [{ path: opts.fileName, content: opts.content }], message: opts.message, author: opts.author });
}

/**
 * The first commit of an empty repository: these files on `branch` (createCommit's create
 * actions: a project's README, a snippet's files). Answers the commit's sha, or null when the
 * branch already exists (a retried creation leaves the first commit as it was).
 */
export async function commitFirstFiles(
  dir: string,
  opts: { branch: string; files: { path: string; content: string }[]; message: string; author: Person },
): Promise<string | null> {
  if (await branchTarget(dir, opts.branch)) return null;
  try {
    const actions = opts.files.map((f) => ({ action: "create" as const, file_path: f.path, content: f.content }));
    const commit = await createCommit(dir, { branch: opts.branch, commit_message: opts.message, committer: opts.author, actions });
    return commit.id;
  } catch (e) {
    if (e instanceof RepositoryError && e.kind === "stale") return null; // created meanwhile by a retry
    throw e;
  }
}
