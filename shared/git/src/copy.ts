import { access, mkdir, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { GitError, gitText, runGit } from "./run";
import { splitFieldLines } from "./parse";

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

/** Every ref with its target, and HEAD's branch: what a copy must hold to be the same repository. */
async function refState(path: string): Promise<{ refs: Map<string, string>; head: string }> {
  const out = await gitText(path, ["for-each-ref", "--format=%(objectname) %(refname)%00"]);
  const refs = new Map<string, string>();
  for (const line of splitFieldLines(out)) {
    const [id, ...name] = line.split(" ");
    refs.set(name.join(" "), id);
  }
  const head = (await gitText(path, ["symbolic-ref", "-q", "HEAD"], { okCodes: [1] })).trim();
  return { refs, head };
}

export interface CopyCheck {
  ok: boolean;
  /** Refs missing from the copy or pointing elsewhere, and problems found by fsck. */
  problems: string[];
}

/** Checks a copy against its source: same refs, same targets, same HEAD, every object reachable. */
export async function verifyCopy(source: string, destination: string): Promise<CopyCheck> {
  const [a, b] = await Promise.all([refState(source), refState(destination)]);
  const problems: string[] = [];
  for (const [ref, id] of a.refs) if (b.refs.get(ref) !== id) problems.push(`ref ${ref} differs`);
  for (const ref of b.refs.keys()) if (!a.refs.has(ref)) problems.push(`ref ${ref} is extra`);
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
