import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { gitText, runGit } from "./run";

/** Who made a commit: the author and, unless told otherwise, the committer too. */
export interface Signature {
  name: string;
  email: string;
  /** Defaults to now. */
  date?: Date;
}

const ZERO_SHA = "0".repeat(40);

/** The environment that makes `git commit-tree` record these people (no configuration is read). */
export function signatureEnv(author: Signature, committer: Signature = author): Record<string, string> {
  const when = (s: Signature) => `${Math.floor((s.date ?? new Date()).getTime() / 1000)} +0000`;
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: when(author),
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: when(committer),
  };
}

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

/** Whether `name` is a valid branch name for git (`git check-ref-format --branch`). */
export async function isValidBranchName(name: string): Promise<boolean> {
  if (!name || name.startsWith("-")) return false;
  try {
    await runGit("/", ["check-ref-format", `refs/heads/${name}`]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first commit of an empty repository: one file at the top of the tree on `branch`, made with
 * plumbing (no work tree). Answers the commit's sha, or null when the branch already exists (a
 * retried creation leaves the first commit as it was).
 */
export async function commitFirstFile(
  dir: string,
  opts: { branch: string; fileName: string; content: string; message: string; author: Signature },
): Promise<string | null> {
  if (opts.fileName.includes("/") || opts.fileName.includes("\0")) throw new Error("commitFirstFile: a top-level file name is expected");
  const blob = (await gitText(dir, ["hash-object", "-w", "--stdin"], { input: opts.content })).trim();
  const tree = (await gitText(dir, ["mktree"], { input: `100644 blob ${blob}\t${opts.fileName}\n` })).trim();
  const commit = (await gitText(dir, ["commit-tree", tree, "-F", "-"], { input: opts.message, env: signatureEnv(opts.author) })).trim();
  // The zero sha as the expected old value: refused when the branch exists already.
  const moved = await runGit(dir, ["update-ref", `refs/heads/${opts.branch}`, commit, ZERO_SHA], { okCodes: [128] });
  return moved.code === 0 ? commit : null;
}
