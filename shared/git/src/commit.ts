import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitText, runGit } from "./run";
import { invalid, RepositoryError } from "./errors";
import { isObjectId, splitNul, ZERO_ID } from "./parse";
import { batchCheck, readCommits, writeCommit, type CommitData, type Person } from "./objects";
import { branchTarget, isValidRefName, updateRefs } from "./refs";
import { lastCommitFor } from "./blob";

/** One of GitLab's commit `actions`. */
export interface CommitAction {
  action: "create" | "update" | "delete" | "move" | "chmod";
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: "text" | "base64";
  execute_filemode?: boolean;
  /** The file's last commit the user saw: the action is refused if the file changed since. */
  last_commit_id?: string;
}

export interface CreateCommitParams {
  branch: string;
  start_branch?: string;
  start_sha?: string;
  force?: boolean;
  commit_message: string;
  actions: CommitAction[];
  /** The pusher; also the author unless author is given. */
  committer: Person;
  author?: Person;
}

const FILE_EXISTS = "A file with this name already exists";
const FILE_MISSING = "A file with this name doesn't exist";
const DIR_EXISTS = "A directory with this name already exists";

/** A repository path as GitLab accepts it: no empty, ".", ".." or ".git" component, no NUL. */
function checkPath(raw: string): string {
  const path = raw.replace(/^\/+|\/+$/g, "");
  if (path === "" || raw.includes("\0")) throw invalid("You must provide a file path");
  const parts = path.split("/");
  if (parts.some((p) => p === "." || p === "..")) throw invalid("Path cannot include directory traversal");
  if (parts.some((p) => p === "" || p.toLowerCase() === ".git")) throw invalid("Invalid path");
  return path;
}

type Entry = { mode: string; id: string };

/** The base tree as path → blob, then each action applied as GitLab's index would, with its errors. */
class PendingTree {
  readonly changed = new Map<string, Entry | null>();
  constructor(private readonly files: Map<string, Entry>) {}

  get(path: string): Entry | undefined {
    return this.files.get(path);
  }

  private isDirectory(path: string): boolean {
    const prefix = `${path}/`;
    for (const p of this.files.keys()) if (p.startsWith(prefix)) return true;
    return false;
  }

  /** A new path must not be a file, a directory, or below a file. */
  checkFree(path: string): void {
    if (this.files.has(path)) throw invalid(FILE_EXISTS);
    if (this.isDirectory(path)) throw invalid(DIR_EXISTS);
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) if (this.files.has(parts.slice(0, i).join("/"))) throw invalid(FILE_EXISTS);
  }

  existing(path: string): Entry {
    const e = this.files.get(path);
    if (!e) throw invalid(FILE_MISSING);
    return e;
  }

  set(path: string, e: Entry | null): void {
    if (e) this.files.set(path, e);
    else this.files.delete(path);
    this.changed.set(path, e);
  }
}

async function readFiles(cwd: string, commit: string | null): Promise<Map<string, Entry>> {
  const files = new Map<string, Entry>();
  if (!commit) return files;
  for (const line of splitNul(await gitText(cwd, ["ls-tree", "-r", "-z", commit]))) {
    const tab = line.indexOf("\t");
    const [mode, , id] = line.slice(0, tab).split(" ");
    files.set(line.slice(tab + 1), { mode, id });
  }
  return files;
}

async function writeBlob(cwd: string, a: CommitAction): Promise<string> {
  const data = a.encoding === "base64" ? Buffer.from(a.content ?? "", "base64") : Buffer.from(a.content ?? "", "utf8");
  return (await gitText(cwd, ["hash-object", "-w", "--stdin"], { input: data })).trim();
}

async function applyAction(cwd: string, tree: PendingTree, a: CommitAction, base: string | null): Promise<void> {
  const path = checkPath(a.file_path);
  if (a.last_commit_id && base && tree.get(path)) {
    const last = await lastCommitFor(cwd, base, path);
    if (last && last !== a.last_commit_id) throw invalid(`The file has changed since you started editing it: ${path}`);
  }
  switch (a.action) {
    case "create":
      tree.checkFree(path);
      tree.set(path, { mode: a.execute_filemode ? "100755" : "100644", id: await writeBlob(cwd, a) });
      return;
    case "update":
      tree.set(path, { mode: tree.existing(path).mode, id: await writeBlob(cwd, a) });
      return;
    case "delete":
      tree.existing(path);
      tree.set(path, null);
      return;
    case "chmod":
      tree.set(path, { ...tree.existing(path), mode: a.execute_filemode ? "100755" : "100644" });
      return;
    case "move": {
      const from = checkPath(a.previous_path ?? "");
      const old = tree.existing(from);
      tree.set(from, null);
      tree.checkFree(path);
      // Without content the file moves as it is (GitLab's infer_content).
      tree.set(path, { mode: old.mode, id: a.content === undefined ? old.id : await writeBlob(cwd, a) });
      return;
    }
    default:
      throw invalid(`Unknown action '${(a as { action: string }).action}'`);
  }
}

/** The tree of `base` with the changes, built in a throwaway index (GIT_INDEX_FILE): no working tree. */
async function writeTree(cwd: string, base: string | null, changed: Map<string, Entry | null>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "collab-index-"));
  const env = { GIT_INDEX_FILE: join(dir, "index") };
  try {
    if (base) await runGit(cwd, ["read-tree", base], { env });
    // Mode 0 removes a path; paths travel NUL-terminated on stdin.
    const info = [...changed].map(([path, e]) => (e ? `${e.mode} ${e.id}\t${path}\0` : `0 ${ZERO_ID}\t${path}\0`)).join("");
    await runGit(cwd, ["update-index", "-z", "--index-info"], { env, input: info });
    return (await gitText(cwd, ["write-tree"], { env })).trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** GitLab's Commits::CreateService checks on branch, start_branch, start_sha and force. */
async function startingPoint(cwd: string, p: CreateCommitParams): Promise<{ parent: string | null; current: string | null; empty: boolean }> {
  const current = await branchTarget(cwd, p.branch);
  const empty = (await gitText(cwd, ["for-each-ref", "--count=1", "refs/heads/"])).trim() === "";
  if (p.start_sha !== undefined && p.start_branch !== undefined) throw invalid("You can't pass both start_branch and start_sha");
  const startBranch = p.start_sha === undefined ? (p.start_branch ?? p.branch) : undefined;
  let parent: string | null = null;
  if (p.start_sha !== undefined) {
    if (!isObjectId(p.start_sha)) throw invalid(`Invalid start_sha '${p.start_sha}'`);
    const [found] = await batchCheck(cwd, [`${p.start_sha}^{commit}`]);
    if (!found) throw invalid(`Cannot find start_sha '${p.start_sha}'`);
    parent = found.id;
  } else if (startBranch !== undefined) {
    parent = startBranch === p.branch ? current : await branchTarget(cwd, startBranch);
    if (!parent && !empty) throw invalid("You can only create or edit files when you are on a branch");
  }
  const different = startBranch !== p.branch;
  if (!empty && different && current && !p.force) {
    throw invalid(`A branch called '${p.branch}' already exists. Switch to that branch in order to make changes`);
  }
  if ((different || !current) && !(await isValidRefName(cwd, p.branch))) {
    throw invalid(`Something went wrong when we tried to create '${p.branch}' for you: Branch name is invalid`);
  }
  return { parent, current, empty };
}

/**
 * A commit of GitLab's `actions` on a branch, made without a working tree, the branch moved only if
 * it is still where it was read (another push in between: kind "stale"). The first branch of an
 * empty repository becomes its default (HEAD), as Gitaly does.
 */
export async function createCommit(cwd: string, p: CreateCommitParams): Promise<CommitData> {
  return (await commitOnBranch(cwd, p)).commit;
}

/** createCommit, also answering the branch's head before the commit (ZERO_ID when it was created): a push's `before`. */
export async function commitOnBranch(cwd: string, p: CreateCommitParams): Promise<{ commit: CommitData; before: string }> {
  if (p.actions.length === 0) throw invalid("No actions given");
  const { parent, current, empty } = await startingPoint(cwd, p);
  const tree = new PendingTree(await readFiles(cwd, parent));
  for (const a of p.actions) await applyAction(cwd, tree, a, parent);
  const treeId = await writeTree(cwd, parent, tree.changed);
  const author = p.author ?? p.committer;
  const id = await writeCommit(cwd, { tree: treeId, parents: parent ? [parent] : [], message: p.commit_message, author, committer: p.committer });
  try {
    await updateRefs(cwd, [{ ref: `refs/heads/${p.branch}`, newId: id, oldId: current ?? ZERO_ID }]);
  } catch (e) {
    if (e instanceof RepositoryError && e.kind === "stale") {
      throw new RepositoryError("stale", `Could not update refs/heads/${p.branch}. Please refresh and try again.`);
    }
    throw e;
  }
  if (empty) await runGit(cwd, ["symbolic-ref", "HEAD", `refs/heads/${p.branch}`]);
  return { commit: (await readCommits(cwd, [id])).get(id)!, before: current ?? ZERO_ID };
}
