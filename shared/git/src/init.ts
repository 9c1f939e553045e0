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
 * The first commit of an empty repository: one file on `branch` (createCommit's create action).
 * Answers the commit's sha, or null when the branch already exists (a retried creation leaves the
 * first commit as it was).
 */
export async function commitFirstFile(
  dir: string,
  opts: { branch: string; fileName: string; content: string; message: string; author: Person },
): Promise<string | null> {
  if (await branchTarget(dir, opts.branch)) return null;
  try {
    const commit = await createCommit(dir, { branch: opts.branch, commit_message: opts.message, committer: opts.author, actions: [{ action: "create", file_path: opts.fileName, content: opts.content }] });
    return commit.id;
  } catch (e) {
    if (e instanceof RepositoryError && e.kind === "stale") return null; // created meanwhile by a retry
    throw e;
  }
}
