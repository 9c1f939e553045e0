import { gitText } from "./run";
import { splitRecords } from "./parse";
import { invalid } from "./errors";

/** A commit as GitLab's Commit entity needs it (the presenter adds web_url and formats dates). */
export interface CommitData {
  id: string;
  short_id: string;
  title: string;
  message: string;
  parent_ids: string[];
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  /** GitLab's Commit#created_at is the committer date. */
  created_at: string;
  /** Last value of each trailer key, and every value (GitLab's trailers / extended_trailers). */
  trailers: Record<string, string>;
  extended_trailers: Record<string, string[]>;
}

const FIELDS = ["%H", "%P", "%an", "%ae", "%aI", "%cn", "%ce", "%cI", "%(trailers:unfold,only)", "%B"];
/** A `git log --format` reading one CommitData per record (see parseCommits). */
export const COMMIT_FORMAT = `${FIELDS.join("%x00")}%x00`;

/** GitLab's full_title: the message's first line, or its placeholder for an empty message. */
export function commitTitle(message: string): string {
  const first = message.trim() === "" ? "" : message.split(/[\r\n]/, 1)[0];
  return first === "" ? "--no commit message" : first;
}

function parseTrailers(text: string) {
  const trailers: Record<string, string> = {};
  const extended: Record<string, string[]> = {};
  for (const line of text.split("\n")) {
    const at = line.indexOf(":");
    if (at <= 0) continue;
    const key = line.slice(0, at).trim();
    const value = line.slice(at + 1).trim();
    trailers[key] = value;
    (extended[key] ??= []).push(value);
  }
  return { trailers, extended_trailers: extended };
}

/** Parses the output of `git log --format=COMMIT_FORMAT`. */
export function parseCommits(text: string): CommitData[] {
  return splitRecords(text, FIELDS.length).map(([id, parents, an, ae, ad, cn, ce, cd, trailers, message]) => ({
    id,
    short_id: id.slice(0, 8),
    title: commitTitle(message),
    message,
    parent_ids: parents === "" ? [] : parents.split(" "),
    author_name: an,
    author_email: ae,
    authored_date: ad,
    committer_name: cn,
    committer_email: ce,
    committed_date: cd,
    created_at: cd,
    ...parseTrailers(trailers),
  }));
}

/** Reads the commits with these (existing, full) ids in one command, keyed by id. */
export async function readCommits(cwd: string, ids: readonly string[]): Promise<Map<string, CommitData>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  // The ids travel on stdin: nothing a caller passes can become an option.
  const out = await gitText(cwd, ["log", "--no-walk=unsorted", "--stdin", `--format=${COMMIT_FORMAT}`], {
    input: `${unique.join("\n")}\n`,
  });
  return new Map(parseCommits(out).map((c) => [c.id, c]));
}

export interface ObjectInfo {
  id: string;
  type: "commit" | "tree" | "blob" | "tag";
  size: number;
}

/**
 * Looks objects up by any revision expression (`<sha>`, `refs/heads/x^{commit}`, `<sha>:<path>`)
 * with one `cat-file --batch-check`: specs go through stdin, so a hostile one is only "missing".
 */
export async function batchCheck(cwd: string, specs: readonly string[]): Promise<(ObjectInfo | null)[]> {
  const safe = specs.map((s) => (/[\n\r\0]/.test(s) || s === "" ? "\u0001invalid" : s));
  if (safe.length === 0) return [];
  const out = await gitText(cwd, ["cat-file", "--batch-check=%(objectname) %(objecttype) %(objectsize)"], {
    input: `${safe.join("\n")}\n`,
  });
  const lines = out.split("\n");
  return safe.map((_, i) => {
    const [id, type, size] = (lines[i] ?? "").split(" ");
    if (!/^[0-9a-f]{40,64}$/.test(id ?? "") || size === undefined) return null;
    return { id, type: type as ObjectInfo["type"], size: Number(size) };
  });
}

/**
 * The commit a user's ref, tag or (short) sha names: a branch before a tag of the same name (as
 * GitLab's ref lookups), then any other revision git knows. Null when it names no commit.
 */
export async function resolveCommit(cwd: string, rev: string): Promise<string | null> {
  if (rev === "" || rev.includes(":")) return null;
  const found = await batchCheck(cwd, [`refs/heads/${rev}^{commit}`, `refs/tags/${rev}^{commit}`, `${rev}^{commit}`]);
  return found.find((f) => f !== null)?.id ?? null;
}

export interface Person {
  name: string;
  email: string;
  /** Defaults to now. */
  date?: Date;
  /** An exact git date ("<unix> <+zone>") kept from another commit, e.g. a rebased commit's author date. */
  rawDate?: string;
}

/** Refuses what git would mangle or misread in an ident ("Name <email>"): empty, newlines, angle brackets. */
export function checkPerson(p: Person, what: string): void {
  const bad = (s: string) => s.trim() === "" || /[<>\n\r\0]/.test(s);
  if (bad(p.name) || bad(p.email)) throw invalid(`Invalid ${what}`);
}

/** "Name <email> <unix seconds> +0000", as tag objects and fast-import write idents. */
export function identityLine(p: Person): string {
  checkPerson(p, "identity");
  return `${p.name} <${p.email}> ${Math.floor((p.date ?? new Date()).getTime() / 1000)} +0000`;
}

/**
 * Writes a commit object (`commit-tree`, message on stdin) and answers its id. Author and
 * committer travel in the environment, never as arguments.
 */
export async function writeCommit(
  cwd: string,
  c: { tree: string; parents: readonly string[]; message: string; author: Person; committer: Person },
): Promise<string> {
  checkPerson(c.author, "author");
  checkPerson(c.committer, "committer");
  const when = (p: Person) => `@${Math.floor((p.date ?? new Date()).getTime() / 1000)} +0000`;
  const env = {
    GIT_AUTHOR_NAME: c.author.name,
    GIT_AUTHOR_EMAIL: c.author.email,
    GIT_AUTHOR_DATE: c.author.rawDate ?? when(c.author),
    GIT_COMMITTER_NAME: c.committer.name,
    GIT_COMMITTER_EMAIL: c.committer.email,
    GIT_COMMITTER_DATE: when(c.committer),
  };
  const args = ["commit-tree", c.tree, ...c.parents.flatMap((p) => ["-p", p]), "-F", "-"];
  return (await gitText(cwd, args, { input: c.message, env })).trim();
}
