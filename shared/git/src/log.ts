import { GitError, gitText } from "./run";
import { invalid } from "./errors";
import { isObjectId, isoDate, LITERAL_PATHS, splitFieldLines, splitNul } from "./parse";
import { COMMIT_FORMAT, parseCommits, readCommits, resolveCommit, type CommitData } from "./objects";

export interface ListCommitsOptions {
  /** Branch, tag or sha; the default branch (HEAD) when omitted. */
  ref?: string;
  /** Every ref instead of `ref`. */
  all?: boolean;
  since?: string | Date;
  until?: string | Date;
  /** Only commits touching this path. */
  path?: string;
  /** Regular expression on the author's name or email, as git's --author. */
  author?: string;
  /** Leave out commits reachable from this ref (a merge request's commits: ref=source, notIn=target). */
  notIn?: string;
  firstParent?: boolean;
  /** GitLab's order: default (reverse chronological) or topo. */
  order?: "default" | "topo";
  page?: number;
  perPage?: number;
}

function revListArgs(o: ListCommitsOptions, tip: string | null, exclude: string | null): string[] {
  const args: string[] = [];
  const since = isoDate(o.since, "since");
  const until = isoDate(o.until, "until");
  if (since) args.push(`--since=${since}`);
  if (until) args.push(`--until=${until}`);
  // One argument "--author=<text>": the user's text can never become an option of its own.
  if (o.author) args.push(`--author=${o.author}`);
  if (o.firstParent) args.push("--first-parent");
  if (o.order === "topo") args.push("--topo-order");
  if (o.all) args.push("--all");
  else if (tip) args.push(tip);
  if (exclude) args.push(`^${exclude}`);
  args.push("--");
  if (o.path) args.push(o.path);
  return args;
}

/** The walk's arguments with refs resolved to ids; null when a ref names no commit. */
async function walkArgs(cwd: string, o: ListCommitsOptions): Promise<string[] | null> {
  const tip = o.all ? null : await resolveCommit(cwd, o.ref ?? "HEAD");
  if (!o.all && !tip) return null;
  const exclude = o.notIn === undefined ? null : await resolveCommit(cwd, o.notIn);
  if (o.notIn !== undefined && !exclude) return null;
  return revListArgs(o, tip, exclude);
}

/** Runs a walk; an author pattern git cannot compile is the caller's mistake (400), not a failure. */
async function walk(cwd: string, args: string[]): Promise<string> {
  try {
    return await gitText(cwd, args, { env: LITERAL_PATHS });
  } catch (e) {
    // git names a pattern it cannot compile "header, '<pattern>': <regerror>" (e.g. "Unmatched [").
    if (e instanceof GitError && /regex|regular expression|header, '/i.test(e.stderr)) throw invalid("author is invalid");
    throw e;
  }
}

/**
 * A page of commits, newest first. `hasNext` comes from reading one commit more than the page
 * (GitLab's cheap "next page" without counting the whole history). Null when the ref names nothing.
 */
export async function listCommits(cwd: string, o: ListCommitsOptions = {}): Promise<{ commits: CommitData[]; hasNext: boolean } | null> {
  const args = await walkArgs(cwd, o);
  if (!args) return null;
  const perPage = o.perPage ?? 20;
  const skip = ((o.page ?? 1) - 1) * perPage;
  const commits = parseCommits(await walk(cwd, ["log", `--format=${COMMIT_FORMAT}`, `--max-count=${perPage + 1}`, `--skip=${skip}`, ...args]));
  return { commits: commits.slice(0, perPage), hasNext: commits.length > perPage };
}

/** How many commits listCommits would walk in all (for X-Total when the API wants it). */
export async function countCommits(cwd: string, o: ListCommitsOptions = {}): Promise<number> {
  const args = await walkArgs(cwd, o);
  return args ? Number((await walk(cwd, ["rev-list", "--count", ...args])).trim()) : 0;
}

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

/** GitLab's CommitStats: lines added and removed against the first parent (binary files count 0). */
export async function commitStats(cwd: string, id: string, parentId: string | null): Promise<CommitStats> {
  const args = parentId ? ["diff-tree", "-r", "-M", "--numstat", "-z", parentId, id] : ["diff-tree", "-r", "--root", "--no-commit-id", "--numstat", "-z", id];
  const out = await gitText(cwd, args);
  let additions = 0;
  let deletions = 0;
  const tokens = splitNul(out);
  // "<added>\t<deleted>\t<path>", or "<added>\t<deleted>\t" then old and new path for a rename.
  for (let i = 0; i < tokens.length; i++) {
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(tokens[i].replace(/^\n/, ""));
    if (!m) continue;
    additions += m[1] === "-" ? 0 : Number(m[1]);
    deletions += m[2] === "-" ? 0 : Number(m[2]);
    if (m[3] === "") i += 2;
  }
  return { additions, deletions, total: additions + deletions };
}

/** One commit by ref or sha (GitLab's commit show), with its stats unless told otherwise. */
export async function getCommit(cwd: string, rev: string, o: { stats?: boolean } = {}): Promise<(CommitData & { stats?: CommitStats }) | null> {
  const id = await resolveCommit(cwd, rev);
  if (!id) return null;
  const commit = (await readCommits(cwd, [id])).get(id);
  if (!commit) return null;
  if (o.stats === false) return commit;
  return { ...commit, stats: await commitStats(cwd, id, commit.parent_ids[0] ?? null) };
}

export interface CommitRef {
  type: "branch" | "tag";
  name: string;
}

/** GitLab's commit refs: the branches and/or tags whose history contains the commit. */
export async function commitRefs(cwd: string, id: string, type: "all" | "branch" | "tag" = "all"): Promise<CommitRef[]> {
  if (!isObjectId(id)) throw new TypeError("commitRefs takes a full object id");
  const patterns = type === "branch" ? ["refs/heads/"] : type === "tag" ? ["refs/tags/"] : ["refs/heads/", "refs/tags/"];
  const out = await gitText(cwd, ["for-each-ref", `--contains=${id}`, "--format=%(refname)%00", ...patterns]);
  return splitFieldLines(out).map((ref) => {
    const isTag = ref.startsWith("refs/tags/");
    return { type: isTag ? "tag" : "branch", name: ref.slice(isTag ? 10 : 11) };
  });
}

export interface Contributor {
  name: string;
  email: string;
  commits: number;
  /** Always 0, as GitLab's (it does not count lines per contributor). */
  additions: number;
  deletions: number;
}

/** GitLab's contributors limit: only the newest commits of the ref are read. */
export const CONTRIBUTORS_COMMIT_LIMIT = 2000;

/**
 * GitLab's repository contributors: the authors of the newest commits (merges left out) of a ref,
 * grouped by email, the name of their newest commit. Null when the ref names no commit.
 */
export async function contributors(
  cwd: string,
  o: { ref?: string; orderBy?: "email" | "name" | "commits"; sort?: "asc" | "desc" } = {},
): Promise<Contributor[] | null> {
  const tip = await resolveCommit(cwd, o.ref ?? "HEAD");
  if (!tip) return null;
  const out = await gitText(cwd, ["log", "--no-merges", `--max-count=${CONTRIBUTORS_COMMIT_LIMIT}`, "--format=%an%x00%ae%x00", tip, "--"]);
  const byEmail = new Map<string, Contributor>();
  const fields = splitNul(out).map((f) => f.replace(/^\n/, ""));
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [name, email] = [fields[i], fields[i + 1]];
    const seen = byEmail.get(email);
    if (seen) seen.commits++;
    else byEmail.set(email, { name, email, commits: 1, additions: 0, deletions: 0 });
  }
  const key = o.orderBy ?? "commits";
  const direction = o.sort === "desc" ? -1 : 1;
  const compareBy = (a: Contributor, b: Contributor) => (key === "commits" ? a.commits - b.commits : a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0);
  return [...byEmail.values()].sort((a, b) => direction * compareBy(a, b));
}
