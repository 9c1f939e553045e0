import { gitText, runGit } from "./run";
import { isObjectId, LITERAL_PATHS } from "./parse";
import { COMMIT_FORMAT, parseCommits, readCommits, resolveCommit, type CommitData } from "./objects";
import { mergeBase } from "./refs";

/** One changed file as GitLab's Diff entity shows it. */
export interface DiffEntry {
  old_path: string;
  new_path: string;
  /** Octal modes; "0" for the side where the file does not exist (as GitLab shows it). */
  a_mode: string;
  b_mode: string;
  /** Blob ids of both sides (zeros for the missing side): what diff positions and MR diff storage need. */
  a_id: string;
  b_id: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  generated_file: boolean;
  binary: boolean;
  /** The patch from its first hunk header ("" when pruned, a notice for a binary file). */
  diff: string;
  too_large: boolean;
  collapsed: boolean;
}

/**
 * GitLab's diff limits (Gitlab::Git::DiffCollection with Commit.max_diff_options and the
 * application defaults): past maxFiles/maxLines/maxBytes the collection overflows and stops; a patch
 * of maxPatchBytes or more is too_large; when not expanded, patches past the safe limits collapse.
 */
export interface DiffLimits {
  maxFiles?: number;
  maxLines?: number;
  maxPatchBytes?: number;
  /** false: collapse past the safe limits (100 files, 5000 lines, 500 KB, patch ≥ maxPatchBytes/10). */
  expanded?: boolean;
  /** false: no collection limits at all (per-patch too_large still applies). */
  enforceLimits?: boolean;
}

export interface DiffResult {
  diffs: DiffEntry[];
  /** Some files were left out by the limits (GitLab's overflow / compare_timeout). */
  overflow: boolean;
}

const KB = 1024;

/** The empty tree's id in this repository's hash (the "before" of a root commit). */
export async function emptyTreeId(cwd: string): Promise<string> {
  return (await gitText(cwd, ["hash-object", "-t", "tree", "--stdin"])).trim();
}

interface RawEntry {
  a_mode: string;
  b_mode: string;
  a_id: string;
  b_id: string;
  old_path: string;
  new_path: string;
}

/** Reads `--raw -z` entries from the front of the output; answers them and where the patch starts. */
function parseRaw(out: string): { entries: RawEntry[]; rest: number } {
  const entries: RawEntry[] = [];
  let pos = 0;
  const next = () => {
    const end = out.indexOf("\0", pos);
    const token = out.slice(pos, end < 0 ? out.length : end);
    pos = end < 0 ? out.length : end + 1;
    return token;
  };
  while (out[pos] === ":") {
    const [srcMode, dstMode, srcId, dstId, status] = next().slice(1).split(" ");
    const first = next();
    const second = status.startsWith("R") || status.startsWith("C") ? next() : first;
    entries.push({ a_mode: octal(srcMode), b_mode: octal(dstMode), a_id: srcId, b_id: dstId, old_path: first, new_path: second });
  }
  if (out[pos] === "\0") pos++;
  return { entries, rest: pos };
}

const octal = (mode: string) => (/^0+$/.test(mode) ? "0" : mode);

/** GitLab's diff text: from the first hunk on, or git's binary notice. */
function patchBody(chunk: string): { diff: string; binary: boolean } {
  const hunk = chunk.search(/^@@ /m);
  if (hunk >= 0) return { diff: chunk.slice(hunk), binary: false };
  const binary = /^Binary files .* differ$/m.exec(chunk);
  return binary ? { diff: `${binary[0]}\n`, binary: true } : { diff: "", binary: false };
}

const countLines = (s: string) => (s === "" ? 0 : s.split("\n").length - (s.endsWith("\n") ? 1 : 0));

/** Applies GitLab's collection limits in order, as DiffCollection#each_serialized_patch does. */
function applyLimits(raw: DiffEntry[], l: DiffLimits): DiffResult {
  const maxFiles = l.maxFiles ?? 1000;
  const maxLines = l.maxLines ?? 50_000;
  const maxBytes = maxFiles * 5 * KB;
  const maxPatchBytes = l.maxPatchBytes ?? 200 * KB;
  const safeFiles = Math.min(maxFiles, 100);
  const safeLines = Math.min(maxLines, 5000);
  const safeBytes = safeFiles * 5 * KB;
  const enforce = l.enforceLimits ?? true;
  const expanded = raw.length === 1 || !enforce || (l.expanded ?? true);
  const diffs: DiffEntry[] = [];
  let lines = 0;
  let bytes = 0;
  for (const d of raw) {
    if (enforce && diffs.length >= maxFiles) return { diffs, overflow: true };
    const size = Buffer.byteLength(d.diff);
    if (size >= maxPatchBytes) Object.assign(d, { diff: "", too_large: true });
    else if (!expanded && size >= maxPatchBytes / 10) Object.assign(d, { diff: "", collapsed: true });
    const overSafe = diffs.length >= safeFiles || lines > safeLines || bytes >= safeBytes;
    if (!expanded && overSafe && countLines(d.diff) > 0) Object.assign(d, { diff: "", collapsed: true });
    lines += countLines(d.diff);
    bytes += Buffer.byteLength(d.diff);
    if (enforce && (lines >= maxLines || bytes >= maxBytes)) return { diffs, overflow: true };
    diffs.push(d);
  }
  return { diffs, overflow: false };
}

/**
 * The changes from tree-ish `from` (null: the empty tree) to `to`, with rename detection, in one
 * `diff-tree --raw -p`: the raw part gives exact paths, modes and ids; the patch part, in the same
 * order, gives each file's text.
 */
export async function diffBetween(cwd: string, from: string | null, to: string, o: DiffLimits & { paths?: string[] } = {}): Promise<DiffResult> {
  const base = from ?? (await emptyTreeId(cwd));
  if (!isObjectId(base) || !isObjectId(to)) throw new TypeError("diffBetween takes full object ids");
  const args = ["-c", "core.quotepath=false", "diff-tree", "-r", "-M", "-z", "--no-abbrev", "--no-commit-id", "--raw", "-p", base, to, "--", ...(o.paths ?? [])];
  const out = await gitText(cwd, args, { env: LITERAL_PATHS });
  const { entries, rest } = parseRaw(out);
  // Every file's patch starts with a "diff --git" line; inside a patch every line has a prefix.
  const chunks = out.slice(rest).split(/^(?=diff --git )/m).filter((c) => c.startsWith("diff --git "));
  const raw = entries.map((e, i): DiffEntry => {
    const { diff, binary } = patchBody(chunks[i] ?? "");
    return {
      ...e,
      new_file: /^0+$/.test(e.a_id),
      deleted_file: /^0+$/.test(e.b_id),
      renamed_file: e.old_path !== e.new_path,
      generated_file: false,
      binary,
      diff,
      too_large: false,
      collapsed: false,
    };
  });
  return applyLimits(raw, o);
}

/** A commit's diff against its first parent (the empty tree for a root commit). */
export async function commitDiff(cwd: string, rev: string, o: DiffLimits = {}): Promise<DiffResult | null> {
  const id = await resolveCommit(cwd, rev);
  if (!id) return null;
  const commit = (await readCommits(cwd, [id])).get(id)!;
  return diffBetween(cwd, commit.parent_ids[0] ?? null, id, o);
}

/** The plain unified patch from `from` (null: empty tree) to `to`, as GitLab's raw diffs. */
export async function rawDiff(cwd: string, from: string | null, to: string): Promise<Buffer> {
  const base = from ?? (await emptyTreeId(cwd));
  if (!isObjectId(base) || !isObjectId(to)) throw new TypeError("rawDiff takes full object ids");
  return (await runGit(cwd, ["diff-tree", "-r", "-M", "-p", "--no-commit-id", base, to, "--"])).stdout;
}

export interface Comparison {
  /** Oldest first; GitLab's compare `commit` is the last one. */
  commits: CommitData[];
  diffs: DiffEntry[];
  /** GitLab's compare_timeout: the diff was cut by the limits. */
  overflow: boolean;
  compare_same_ref: boolean;
  from_id: string;
  to_id: string;
  /** The diff's base: `from` when straight, else the merge base (from when the histories are unrelated). */
  base_id: string;
}

/**
 * GitLab's compare: commits in `to` and not in `from`, and the diff from the merge base (or from
 * `from` itself when straight) to `to`. Null when either ref names no commit.
 */
export async function compare(cwd: string, from: string, to: string, o: DiffLimits & { straight?: boolean } = {}): Promise<Comparison | null> {
  const [fromId, toId] = await Promise.all([resolveCommit(cwd, from), resolveCommit(cwd, to)]);
  if (!fromId || !toId) return null;
  const baseId = o.straight ? fromId : ((await mergeBase(cwd, fromId, toId)) ?? fromId);
  const [log, diff] = await Promise.all([
    gitText(cwd, ["log", "--reverse", `--format=${COMMIT_FORMAT}`, `${fromId}..${toId}`, "--"]),
    diffBetween(cwd, baseId, toId, o),
  ]);
  return {
    commits: parseCommits(log),
    diffs: diff.diffs,
    overflow: diff.overflow,
    compare_same_ref: fromId === toId,
    from_id: fromId,
    to_id: toId,
    base_id: baseId,
  };
}

/**
 * How many files change from `from` to `to` (renames detected, as diffBetween counts them): one
 * `diff-tree --name-only`, no patch text. GitLab's changes_count.
 */
export async function countChangedPaths(cwd: string, from: string, to: string): Promise<number> {
  if (!isObjectId(from) || !isObjectId(to)) throw new TypeError("countChangedPaths takes full object ids");
  const out = await gitText(cwd, ["diff-tree", "-r", "-M", "-z", "--name-status", "--no-commit-id", from, to, "--"]);
  // Records: status, path (and a second path for renames and copies).
  const fields = out.split("\0").filter((f) => f !== "");
  let count = 0;
  for (let i = 0; i < fields.length; count++) i += /^[RC]/.test(fields[i]) ? 3 : 2;
  return count;
}
