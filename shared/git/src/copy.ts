import { access, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { GitError, gitText, runGit } from "./run";
import { splitFieldLines } from "./parse";
import { streamGit } from "./stream";

/**
 * Copies a bare repository to a new path (a storage move): every ref and object, HEAD included,
 * objects copied rather than hard-linked so the copy outlives the source's volume. A failed copy
 * leaves nothing at the destination; the source is only read.
 */
export async function copyRepository(source: string, destination: string): Promise<void> {
  if (await access(destination).then(() => true, () => false)) throw new Error(`destination exists: ${destination}`);
  await mkdir(dirname(destination), { recursive: true });
  try {
    await runGit(dirname(destination), ["clone", "--mirror", "--no-hardlinks", "--quiet", "--", source, destination], { timeoutMs: 30 * 60_000 });
    // The copy must not keep a remote pointing back at the old storage (a mirror remote would also
    // prune every ref on `remote remove`, so the section goes as config).
    await runGit(destination, ["config", "--remove-section", "remote.origin"]);
    const head = (await gitText(source, ["symbolic-ref", "-q", "HEAD"], { okCodes: [1] })).trim();
    if (head !== "") await runGit(destination, ["symbolic-ref", "HEAD", head]);
  } catch (e) {
    await rm(destination, { recursive: true, force: true });
    throw e;
  }
}

/** Every ref with its target, and HEAD's branch (empty when detached): what a copy must hold to be the same repository. */
export interface RefState {
  refs: Record<string, string>;
  head: string;
}

export async function refState(path: string): Promise<RefState> {
  const out = await gitText(path, ["for-each-ref", "--format=%(objectname) %(refname)%00"]);
  const refs: Record<string, string> = {};
  for (const line of splitFieldLines(out)) {
    const [id, ...name] = line.split(" ");
    refs[name.join(" ")] = id;
  }
  const head = (await gitText(path, ["symbolic-ref", "-q", "HEAD"], { okCodes: [1] })).trim();
  return { refs, head };
}

/**
 * Every ref and the objects they reach as one stream (`git bundle`), for a copy made by another
 * process; null for a repository without refs (git refuses an empty bundle: the copy is a new
 * empty repository with the same HEAD).
 */
export async function bundleRepository(path: string): Promise<Readable | null> {
  const { refs } = await refState(path);
  return Object.keys(refs).length ? streamGit(path, ["bundle", "create", "--quiet", "-", "--all"]) : null;
}

/**
 * Makes a bare repository at `destination` from a bundle file (or none, for a repository without
 * refs) with `head` as HEAD: the other half of bundleRepository. A failure leaves nothing there.
 */
export async function restoreBundle(bundle: string | null, destination: string, head: string): Promise<void> {
  if (await access(destination).then(() => true, () => false)) throw new Error(`destination exists: ${destination}`);
  await mkdir(dirname(destination), { recursive: true });
  try {
    if (bundle) {
      await runGit(dirname(destination), ["clone", "--mirror", "--quiet", "--", bundle, destination], { timeoutMs: 30 * 60_000 });
      await runGit(destination, ["config", "--remove-section", "remote.origin"]);
    } else {
      await runGit(dirname(destination), ["init", "--bare", "--quiet", "--", destination]);
    }
    if (head !== "") await runGit(destination, ["symbolic-ref", "HEAD", head]);
  } catch (e) {
    await rm(destination, { recursive: true, force: true });
    throw e;
  }
}

export interface CopyCheck {
  ok: boolean;
  /** Refs missing from the copy or pointing elsewhere, and problems found by fsck. */
  problems: string[];
}

/** Checks a copy against its source: same refs, same targets, same HEAD, every object reachable. */
export async function verifyCopy(source: string, destination: string): Promise<CopyCheck> {
  return verifyAgainst(await refState(source), destination);
}

/** Checks a copy against its source's ref state (read where the source is): verifyCopy across processes. */
export async function verifyAgainst(a: RefState, destination: string): Promise<CopyCheck> {
  const b = await refState(destination);
  const problems: string[] = [];
  for (const [ref, id] of Object.entries(a.refs)) if (b.refs[ref] !== id) problems.push(`ref ${ref} differs`);
  for (const ref of Object.keys(b.refs)) if (!(ref in a.refs)) problems.push(`ref ${ref} is extra`);
  if (a.head !== b.head) problems.push("HEAD differs");
  try {
    await runGit(destination, ["fsck", "--connectivity-only", "--no-progress"], { timeoutMs: 30 * 60_000 });
  } catch (e) {
    if (!(e instanceof GitError)) throw e;
    problems.push(`fsck: ${e.stderr.trim().split("\n")[0] ?? "failed"}`);
  }
  return { ok: problems.length === 0, problems };
}

/** Removes a bare repository, refusing any directory that is not one (a wrong path must not erase data). */
export async function removeRepository(path: string): Promise<void> {
  if (!(await access(path).then(() => true, () => false))) return; // already gone: removal is idempotent
  try {
    await Promise.all([access(join(path, "HEAD")), access(join(path, "objects")), access(join(path, "refs"))]);
  } catch {
    throw new Error(`not a bare repository: ${path}`);
  }
  await rm(path, { recursive: true, force: true });
}
