import { createBareRepository } from "./init";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gitText, runGit } from "./run";

/**
 * Test and benchmark repositories built by git itself (`git fast-import` fed a generated stream):
 * thousands of commits in well under a second, no working tree, no hand-written objects.
 */

/** A new bare repository whose HEAD names `defaultBranch`. */
export async function initBareRepository(path: string, defaultBranch = "main"): Promise<string> {
  await createBareRepository(path, defaultBranch);
  return path;
}

/** A bare repository in a fresh temporary directory, and how to remove it (tests' beforeEach/afterEach). */
export async function tempRepository(defaultBranch = "main"): Promise<{ path: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "collab-repo-"));
  const path = await initBareRepository(join(dir, "repo.git"), defaultBranch);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface FixtureCommit {
  /** Branch the commit lands on (default main); it continues that branch's tip. */
  branch?: string;
  message: string;
  /** Path → new content, or null to delete the path. */
  files?: Record<string, string | Buffer | null>;
  /** Executable files among `files`. */
  executable?: string[];
  author?: { name: string; email: string };
  /** Unix seconds (default: a fixed clock advancing a minute per commit). */
  date?: number;
  /** Start from the commit at this index of the list instead of the branch tip (a new branch's base). */
  from?: number;
  /** Also merge the commits at these indexes (a merge commit). */
  merge?: number[];
  /** Lightweight tag on this commit. */
  tag?: string;
}

/** fast-import's quoted path: the form that holds any byte sequence. */
const quote = (p: string) => `"${p.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")}"`;

function data(chunks: Buffer[], content: string | Buffer) {
  const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
  chunks.push(Buffer.from(`data ${bytes.length}\n`), bytes, Buffer.from("\n"));
}

/** Writes the commits in order and answers their ids (same order). */
export async function importCommits(repo: string, commits: readonly FixtureCommit[]): Promise<string[]> {
  const chunks: Buffer[] = [];
  const line = (s: string) => chunks.push(Buffer.from(`${s}\n`, "utf8"));
  const tags: string[] = [];
  // fast-import starts a branch it has not seen in this stream from nothing: continue existing tips.
  const tips = new Map(
    (await gitText(repo, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"]))
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(" ") as [string, string]),
  );
  commits.forEach((c, i) => {
    const who = c.author ?? { name: "Fixture Author", email: "author@example.com" };
    const when = `${c.date ?? 1_700_000_000 + i * 60} +0000`;
    line(`commit refs/heads/${c.branch ?? "main"}`);
    line(`mark :${i + 1}`);
    line(`author ${who.name} <${who.email}> ${when}`);
    line(`committer ${who.name} <${who.email}> ${when}`);
    data(chunks, c.message);
    const ref = `refs/heads/${c.branch ?? "main"}`;
    if (c.from !== undefined) line(`from :${c.from + 1}`);
    else if (tips.has(ref)) line(`from ${tips.get(ref)}`);
    tips.delete(ref);
    for (const m of c.merge ?? []) line(`merge :${m + 1}`);
    for (const [path, content] of Object.entries(c.files ?? {})) {
      if (content === null) {
        line(`D ${quote(path)}`);
        continue;
      }
      line(`M ${c.executable?.includes(path) ? "100755" : "100644"} inline ${quote(path)}`);
      data(chunks, content);
    }
    line("");
    if (c.tag) tags.push(`reset refs/tags/${c.tag}\nfrom :${i + 1}\n\n`);
  });
  chunks.push(Buffer.from(tags.join(""), "utf8"));
  const dir = await mkdtemp(join(tmpdir(), "collab-marks-"));
  try {
    const marks = join(dir, "marks");
    await runGit(repo, ["fast-import", "--quiet", `--export-marks=${marks}`], { input: Buffer.concat(chunks), timeoutMs: 10 * 60_000 });
    const ids = new Map((await readFile(marks, "utf8")).split("\n").filter(Boolean).map((l) => l.split(" ") as [string, string]));
    return commits.map((_, i) => ids.get(`:${i + 1}`)!);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A linear history of `commits` commits on `branch`, each changing one of `files` files (so packs
 * get real deltas): the repository the clone benchmark and large-history tests use. Answers the tip.
 */
export async function generateHistory(repo: string, o: { commits: number; branch?: string; files?: number }): Promise<string> {
  const files = o.files ?? 50;
  const list: FixtureCommit[] = [];
  for (let i = 0; i < o.commits; i++) {
    const k = i % files;
    const body = Array.from({ length: 40 }, (_, n) => `line ${n} of file ${k}, version ${Math.floor(i / files)}`).join("\n");
    list.push({ branch: o.branch, message: `Change ${i}\n\nGenerated commit number ${i}.\n`, files: { [`src/dir-${k % 7}/file-${k}.txt`]: `${body}\n` } });
  }
  const ids = await importCommits(repo, list);
  return ids[ids.length - 1];
}
