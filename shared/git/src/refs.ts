import { GitError, gitText, runGit } from "./run";
import { RepositoryError, invalid } from "./errors";
import { isObjectId, splitFieldLines, splitRecords, ZERO_ID } from "./parse";
import { batchCheck, readCommits, resolveCommit, identityLine, type CommitData, type Person } from "./objects";

/**
 * GitLab's ref name rules (Gitlab::GitRefValidator) on top of `git check-ref-format`: no leading
 * dash (it would read as an option), no `refs/…` or `HEAD`, no name that looks like a full sha.
 */
export async function isValidRefName(cwd: string, name: string): Promise<boolean> {
  if (name === "" || name.startsWith("-") || name === "HEAD" || name.startsWith("refs/") || isObjectId(name)) return false;
  if (/[\0\n\r]/.test(name)) return false;
  // The argument starts with "refs/": never an option.
  const { code } = await runGit(cwd, ["check-ref-format", `refs/heads/${name}`], { okCodes: [1] });
  return code === 0;
}

export interface RefUpdate {
  /** Full ref name, e.g. refs/heads/main. */
  ref: string;
  /** The new target, or null to delete the ref. */
  newId: string | null;
  /** The value the ref must have now: an id, ZERO_ID for "must not exist", undefined for no check. */
  oldId?: string;
}

/**
 * Moves refs in one atomic `update-ref --stdin` transaction: all move or none, and each only if it
 * still points where the caller read it (another push in between fails with kind "stale").
 */
export async function updateRefs(cwd: string, updates: readonly RefUpdate[]): Promise<void> {
  const commands = updates.map((u) =>
    u.newId === null ? `delete ${u.ref}\0${u.oldId ?? ""}\0` : `update ${u.ref}\0${u.newId}\0${u.oldId ?? ""}\0`,
  );
  try {
    await runGit(cwd, ["update-ref", "--stdin", "-z"], { input: commands.join("") });
  } catch (e) {
    if (e instanceof GitError) throw new RepositoryError("stale", "The reference was changed meanwhile");
    throw e;
  }
}

/** Refs with their targets, in one for-each-ref (names, ids and dates only: cheap on thousands). */
interface RefRow {
  name: string;
  /** What the ref points at: the commit, or an annotated tag's tag object. */
  target: string;
  /** The commit it peels to (null for a tag of a tree or blob). */
  commitId: string | null;
  /** Committer date of that commit (unix seconds), for GitLab's "updated" orders. */
  updated: number;
  annotated: boolean;
  message: string;
  createdAt: string | null;
}

/** `pattern` is refs/heads/, refs/tags/ or one full ref name (its own ref and those below it match). */
async function listRefRows(cwd: string, pattern: string): Promise<RefRow[]> {
  const fields = ["%(refname:lstrip=2)", "%(objectname)", "%(objecttype)", "%(*objectname)", "%(*objecttype)"];
  fields.push("%(committerdate:unix)", "%(*committerdate:unix)", "%(taggerdate:iso-strict)");
  // A tag's annotation; for a branch it would be the whole commit message, read later for the page only.
  if (pattern.startsWith("refs/tags/")) fields.push("%(contents)");
  const out = await gitText(cwd, ["for-each-ref", `--format=${fields.join("%00")}%00`, pattern]);
  return splitRecords(out, fields.length).map(([name, target, type, peeled, peeledType, date, peeledDate, taggerDate, contents]) => {
    const annotated = type === "tag";
    const commitId = type === "commit" ? target : peeledType === "commit" ? peeled : null;
    return {
      name,
      target,
      commitId,
      updated: Number(annotated ? peeledDate : date) || 0,
      annotated,
      message: annotated ? (contents ?? "").replace(/\n$/, "") : "",
      createdAt: annotated && taggerDate ? taggerDate : null,
    };
  });
}

export interface ListRefsOptions {
  /** GitLab's search: substring, `^prefix`, `suffix$` (case-insensitive). */
  search?: string;
  /** Branches: name_asc (default), updated_asc, updated_desc. Tags: order_by name/updated/version + sort. */
  orderBy?: "name" | "updated" | "version";
  sort?: "asc" | "desc";
  page?: number;
  perPage?: number;
  /** GitLab's keyset page_token: start after this name (name order only), instead of `page`. */
  pageToken?: string;
}

function matchesSearch(name: string, search: string | undefined): boolean {
  if (!search) return true;
  const n = name.toLowerCase();
  let s = search.toLowerCase();
  const anchoredStart = s.startsWith("^");
  const anchoredEnd = s.endsWith("$");
  if (anchoredStart) s = s.slice(1);
  if (anchoredEnd) s = s.slice(0, -1);
  if (anchoredStart && anchoredEnd) return n === s;
  if (anchoredStart) return n.startsWith(s);
  if (anchoredEnd) return n.endsWith(s);
  return n.includes(s);
}

const versionCollator = new Intl.Collator("en", { numeric: true });

/** Orders rows; ties of dates or versions fall back to names ascending whatever the direction, as git's `--sort`. */
function sortRows(rows: RefRow[], orderBy: ListRefsOptions["orderBy"], sort: ListRefsOptions["sort"]) {
  const byName = (a: RefRow, b: RefRow) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const dir = sort === "desc" ? -1 : 1;
  const compare =
    orderBy === "updated"
      ? (a: RefRow, b: RefRow) => dir * (a.updated - b.updated) || byName(a, b)
      : orderBy === "version"
        ? (a: RefRow, b: RefRow) => dir * versionCollator.compare(a.name, b.name) || byName(a, b)
        : (a: RefRow, b: RefRow) => dir * byName(a, b);
  rows.sort(compare);
}

export interface BranchData {
  name: string;
  commit: CommitData;
}

export interface TagData {
  name: string;
  /** Annotated tag's message ("" for a lightweight tag). */
  message: string;
  /** The tag object's id for an annotated tag, else the commit's. */
  target: string;
  commit: CommitData | null;
  /** The tagger's date of an annotated tag. */
  created_at: string | null;
}

export interface Page<T> {
  items: T[];
  total: number;
}

function paginate(rows: RefRow[], o: ListRefsOptions): RefRow[] {
  const perPage = o.perPage ?? 20;
  if (o.pageToken !== undefined) {
    const token = o.pageToken;
    const after = rows.findIndex((r) => (o.sort === "desc" ? r.name < token : r.name > token));
    return after < 0 ? [] : rows.slice(after, after + perPage);
  }
  const start = ((o.page ?? 1) - 1) * perPage;
  return rows.slice(start, start + perPage);
}

/** Branches with their commits: filter, order and page on names and dates, read commits of the page only. */
export async function listBranches(cwd: string, o: ListRefsOptions = {}): Promise<Page<BranchData>> {
  const rows = (await listRefRows(cwd, "refs/heads/")).filter((r) => r.commitId && matchesSearch(r.name, o.search));
  sortRows(rows, o.orderBy, o.sort);
  const page = paginate(rows, o);
  const commits = await readCommits(cwd, page.map((r) => r.commitId!));
  return { items: page.map((r) => ({ name: r.name, commit: commits.get(r.commitId!)! })), total: rows.length };
}

/** Tags with their commits, GitLab's order_by name/updated/version (default updated desc is the caller's). */
export async function listTags(cwd: string, o: ListRefsOptions = {}): Promise<Page<TagData>> {
  const rows = (await listRefRows(cwd, "refs/tags/")).filter((r) => matchesSearch(r.name, o.search));
  sortRows(rows, o.orderBy, o.sort);
  const page = paginate(rows, o);
  const commits = await readCommits(cwd, page.flatMap((r) => (r.commitId ? [r.commitId] : [])));
  return { items: page.map((r) => toTag(r, commits)), total: rows.length };
}

function toTag(r: RefRow, commits: Map<string, CommitData>): TagData {
  return {
    name: r.name,
    message: r.message,
    target: r.target,
    commit: r.commitId ? (commits.get(r.commitId) ?? null) : null,
    created_at: r.createdAt,
  };
}

async function findRef(cwd: string, fullName: string): Promise<RefRow | null> {
  // No glob characters: the pattern then matches this ref and the refs below it, never an option.
  if (/[\0\n\r*?[\\]/.test(fullName) || !fullName.startsWith("refs/")) return null;
  const rows = await listRefRows(cwd, fullName);
  const short = fullName.split("/").slice(2).join("/");
  return rows.find((r) => r.name === short) ?? null;
}

/** One branch with its commit, or null. */
export async function findBranch(cwd: string, name: string): Promise<BranchData | null> {
  const id = await branchTarget(cwd, name);
  if (!id) return null;
  const commits = await readCommits(cwd, [id]);
  const commit = commits.get(id);
  return commit ? { name, commit } : null;
}

/** One tag with its commit, or null. */
export async function findTag(cwd: string, name: string): Promise<TagData | null> {
  const row = await findRef(cwd, `refs/tags/${name}`);
  if (!row) return null;
  return toTag(row, await readCommits(cwd, row.commitId ? [row.commitId] : []));
}

/** The commit a branch points at, or null. */
export async function branchTarget(cwd: string, name: string): Promise<string | null> {
  if (name === "") return null;
  const [found] = await batchCheck(cwd, [`refs/heads/${name}`]);
  return found?.type === "commit" ? found.id : null;
}

/** Whether a full ref (refs/heads/x, refs/tags/y, refs/merge-requests/1/head) exists. */
export async function refExists(cwd: string, fullName: string): Promise<boolean> {
  if (!fullName.startsWith("refs/")) return false;
  const [found] = await batchCheck(cwd, [fullName]);
  return found !== null;
}

/** GitLab's branch create: valid name, start ref resolved, refused when the branch exists. */
export async function createBranch(cwd: string, name: string, ref: string): Promise<BranchData> {
  if (!(await isValidRefName(cwd, name))) throw invalid("Branch name is invalid");
  const id = await resolveCommit(cwd, ref);
  if (!id) throw invalid("Invalid reference name: " + ref);
  try {
    await updateRefs(cwd, [{ ref: `refs/heads/${name}`, newId: id, oldId: ZERO_ID }]);
  } catch (e) {
    if (e instanceof RepositoryError && e.kind === "stale") throw invalid("Branch already exists");
    throw e;
  }
  return (await findBranch(cwd, name))!;
}

/** Deletes a branch (only if still at `expectedId` when given); false when there is no such branch. */
export async function deleteBranch(cwd: string, name: string, expectedId?: string): Promise<boolean> {
  const id = await branchTarget(cwd, name);
  if (!id) return false;
  await updateRefs(cwd, [{ ref: `refs/heads/${name}`, newId: null, oldId: expectedId ?? id }]);
  return true;
}

/**
 * GitLab's tag create: lightweight, or annotated (a tag object made by `mktag` from stdin) when a
 * message is given. Errors carry GitLab's messages.
 */
export async function createTag(
  cwd: string,
  name: string,
  ref: string,
  o: { message?: string; tagger?: Person } = {},
): Promise<TagData> {
  if (!(await isValidRefName(cwd, name))) throw invalid("Tag name invalid");
  const id = await resolveCommit(cwd, ref);
  if (!id) throw invalid("Target " + ref + " is invalid");
  let target = id;
  if (o.message && o.message.trim() !== "") {
    if (!o.tagger) throw new TypeError("an annotated tag needs a tagger");
    const body = `object ${id}\ntype commit\ntag ${name}\ntagger ${identityLine(o.tagger)}\n\n${o.message.replace(/\n?$/, "\n")}`;
    target = (await gitText(cwd, ["mktag"], { input: body })).trim();
  }
  try {
    await updateRefs(cwd, [{ ref: `refs/tags/${name}`, newId: target, oldId: ZERO_ID }]);
  } catch (e) {
    if (e instanceof RepositoryError && e.kind === "stale") throw invalid(`Tag ${name} already exists`);
    throw e;
  }
  return (await findTag(cwd, name))!;
}

/** Deletes a tag; false when there is no such tag. */
export async function deleteTag(cwd: string, name: string): Promise<boolean> {
  const [found] = name === "" ? [null] : await batchCheck(cwd, [`refs/tags/${name}`]);
  if (!found) return false;
  await updateRefs(cwd, [{ ref: `refs/tags/${name}`, newId: null, oldId: found.id }]);
  return true;
}

/**
 * The default branch: HEAD's branch when it exists; otherwise (HEAD left on an unborn name) main,
 * master or the first branch, as Gitaly answers; null for a repository without branches.
 */
export async function getDefaultBranch(cwd: string): Promise<string | null> {
  const head = (await gitText(cwd, ["symbolic-ref", "-q", "HEAD"], { okCodes: [1] })).trim();
  const names = splitFieldLines(await gitText(cwd, ["for-each-ref", "--format=%(refname:lstrip=2)%00", "refs/heads/"]));
  const fromHead = head.startsWith("refs/heads/") ? head.slice("refs/heads/".length) : null;
  if (fromHead && names.includes(fromHead)) return fromHead;
  return names.find((n) => n === "main") ?? names.find((n) => n === "master") ?? names[0] ?? null;
}

/** Points HEAD at an existing branch. */
export async function setDefaultBranch(cwd: string, name: string): Promise<void> {
  if (!(await branchTarget(cwd, name))) throw invalid("Invalid reference name: " + name);
  await runGit(cwd, ["symbolic-ref", "HEAD", `refs/heads/${name}`]);
}

/** Whether `ancestor` is reachable from `descendant` (both full ids). */
export async function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  if (!isObjectId(ancestor) || !isObjectId(descendant)) throw new TypeError("isAncestor takes full object ids");
  const { code } = await runGit(cwd, ["merge-base", "--is-ancestor", ancestor, descendant], { okCodes: [1] });
  return code === 0;
}

/** The best common ancestor of two commits (full ids), or null for unrelated histories. */
export async function mergeBase(cwd: string, a: string, b: string): Promise<string | null> {
  if (!isObjectId(a) || !isObjectId(b)) throw new TypeError("mergeBase takes full object ids");
  const out = await gitText(cwd, ["merge-base", a, b], { okCodes: [1] });
  return out.trim() || null;
}

/** Names of the branches already merged into `into` (GitLab's Branch#merged, one command per page). */
export async function mergedBranchNames(cwd: string, into: string): Promise<Set<string>> {
  if (!isObjectId(into)) throw new TypeError("mergedBranchNames takes a full object id");
  const out = await gitText(cwd, ["for-each-ref", `--merged=${into}`, "--format=%(refname:lstrip=2)%00", "refs/heads/"]);
  return new Set(splitFieldLines(out));
}

/** A short or full ref as services name it (pipelines' refs): its kind, name and the commit it points at. */
export type RefResolution =
  | { status: "ok"; kind: "branch" | "tag"; name: string; full_ref: string; sha: string }
  | { status: "missing" }
  | { status: "ambiguous" };

/**
 * Resolves `main`, `refs/heads/main` or `refs/tags/v1` to a branch or tag (never a sha or another
 * revision): a short name that is both a branch and a tag is ambiguous, as GitLab's
 * Ci::PipelineSchedule / ref lookups refuse it. One `cat-file --batch-check`.
 */
export async function resolveRefName(cwd: string, ref: string): Promise<RefResolution> {
  const candidates: { kind: "branch" | "tag"; name: string }[] = ref.startsWith("refs/heads/")
    ? [{ kind: "branch", name: ref.slice("refs/heads/".length) }]
    : ref.startsWith("refs/tags/")
      ? [{ kind: "tag", name: ref.slice("refs/tags/".length) }]
      : [
          { kind: "branch", name: ref },
          { kind: "tag", name: ref },
        ];
  if (candidates.some((c) => c.name === "")) return { status: "missing" };
  const fullOf = (c: (typeof candidates)[number]) => `${c.kind === "branch" ? "refs/heads" : "refs/tags"}/${c.name}`;
  const found = await batchCheck(cwd, candidates.map((c) => `${fullOf(c)}^{commit}`));
  const hits = candidates.flatMap((c, i) => (found[i] ? [{ ...c, sha: found[i]!.id }] : []));
  if (hits.length > 1) return { status: "ambiguous" };
  if (!hits.length) return { status: "missing" };
  return { status: "ok", kind: hits[0].kind, name: hits[0].name, full_ref: fullOf(hits[0]), sha: hits[0].sha };
}

/**
 * The commit a revision names as git resolves it (GitLab's `project.commit(ref)`): a full or
 * unambiguous short sha, a tag before a branch of the same name, a full ref. No `<rev>:<path>`
 * lookups. Null when it names no commit.
 */
export async function findCommitByRevision(cwd: string, rev: string): Promise<CommitData | null> {
  if (rev === "" || rev.includes(":")) return null;
  const [found] = await batchCheck(cwd, [`${rev}^{commit}`]);
  if (!found) return null;
  return (await readCommits(cwd, [found.id])).get(found.id) ?? null;
}
