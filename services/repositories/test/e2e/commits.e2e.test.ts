import { Repositories, ZERO_SHA } from "@collab/repositories-contract";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";
import { apiClient, cloneUrl, eventually, GitClient, watchEvents, type TestApp } from "@collab/testing";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * GitLab's commits API on real repositories through @gitbeaker/rest: commits made with file
 * actions (and announced as pushes), listed with filters, shown with stats, diffs and refs,
 * cherry-picked and reverted; and what each role may do.
 *
 * World: alice owns a private project with a README, its main branch unprotected; guest, reporter
 * and developer are members with those roles, outsider is not.
 */
let app: TestApp;
let git: GitClient;
let alice: GitbeakerUser;
let guest: GitbeakerUser;
let reporter: GitbeakerUser;
let developer: GitbeakerUser;
let outsider: GitbeakerUser;
let project: { id: number; path_with_namespace: string; web_url: string };

beforeAll(async () => {
  app = await startApp("content-commits");
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});

beforeEach(async () => {
  await app.reset();
  [alice, guest, reporter, developer, outsider] = await Promise.all(["alice", "guest", "reporter", "developer", "outsider"].map((u) => createGitbeakerUser(app, u)));
  project = (await alice.gl.Projects.create({ name: "code", visibility: "private", initializeWithReadme: true })) as unknown as typeof project;
  for (const [user, level] of [[guest, 10], [reporter, 20], [developer, 30]] as const) await alice.gl.ProjectMembers.add(project.id, level, { userId: user.id });
  // The default branch is protected (Maintainers push) until its owner says otherwise.
  await alice.gl.ProtectedBranches.unprotect(project.id, "main");
});

type Commit = { id: string; title: string; message: string; parent_ids: string[]; author_name: string; author_email: string; committer_name: string; web_url: string; stats?: { additions: number; deletions: number; total: number } };
type Action = { action: string; file_path: string; content?: string; previous_path?: string; encoding?: string; execute_filemode?: boolean; last_commit_id?: string };

const commit = (user: GitbeakerUser, branch: string, message: string, actions: Action[], options: Record<string, unknown> = {}) =>
  user.gl.Commits.create(project.id, branch, message, actions as never, options) as unknown as Promise<Commit>;

/** The status and message of a gitbeaker failure (gitbeaker keeps the error's message as the cause's description). */
async function failureBody(call: Promise<unknown>): Promise<{ status: number; body: { message?: string } }> {
  try {
    await call;
  } catch (err) {
    const cause = (err as { cause?: { response?: Response; description?: string } }).cause;
    if (!cause?.response) throw err;
    return { status: cause.response.status, body: { message: cause.description } };
  }
  throw new Error("expected a failure");
}

describe("POST …/repository/commits", () => {
  test("one commit of create, update, move, chmod and delete actions: 201 with stats, the branch moved and announced, the files as git sees them", async () => {
    const watch = await watchEvents(app, [Repositories.events.branchPushed]);
    const first = await commit(alice, "main", "Add tools", [
      { action: "create", file_path: "bin/run.sh", content: "#!/bin/sh\necho hi\n" },
      { action: "create", file_path: "docs/old.md", content: "old\n" },
      { action: "create", file_path: "logo.bin", content: Buffer.from([0, 1, 2, 255]).toString("base64"), encoding: "base64" },
    ]);
    expect(first).toMatchObject({ title: "Add tools", author_name: "Alice", author_email: "alice@example.com", committer_name: "Alice", stats: { additions: 3, deletions: 0, total: 3 }, status: null, project_id: project.id, last_pipeline: null });
    expect(first.web_url).toBe(`${project.web_url}/-/commit/${first.id}`);

    const second = await commit(
      developer,
      "main",
      "Rework\n\nBody text",
      [
        { action: "update", file_path: "README.md", content: "# Code\n" },
        { action: "move", file_path: "docs/new.md", previous_path: "docs/old.md" },
        { action: "chmod", file_path: "bin/run.sh", execute_filemode: true },
        { action: "delete", file_path: "logo.bin" },
      ],
      { authorName: "Ghost Writer", authorEmail: "ghost@example.com" },
    );
    expect(second).toMatchObject({ parent_ids: [first.id], title: "Rework", message: "Rework\n\nBody text", author_name: "Ghost Writer", author_email: "ghost@example.com", committer_name: "Developer" });

    const dir = git.dir(`clone-${Date.now()}`);
    await git.ok(["clone", "-q", cloneUrl(app.url, project.path_with_namespace, { username: "alice", password: alice.token }), dir]);
    expect((await git.ok(["rev-parse", "HEAD"], { cwd: dir })).trim()).toBe(second.id);
    expect(readFileSync(path.join(dir, "README.md"), "utf8")).toBe("# Code\n");
    expect(readFileSync(path.join(dir, "docs/new.md"), "utf8")).toBe("old\n");
    expect(existsSync(path.join(dir, "docs/old.md"))).toBe(false);
    expect(existsSync(path.join(dir, "logo.bin"))).toBe(false);
    expect(statSync(path.join(dir, "bin/run.sh")).mode & 0o111).not.toBe(0);

    const pushes = await eventually(() => {
      const seen = watch.seen.filter((e) => e.payload.projectId === project.id);
      expect(seen).toHaveLength(2);
      return seen.map((e) => e.payload);
    });
    await watch.stop();
    expect(pushes[0]).toMatchObject({ ref: "refs/heads/main", branch: "main", after: first.id, userId: alice.id, totalCommitsCount: 1, commitTitle: "Add tools" });
    expect(pushes[1]).toMatchObject({ before: first.id, after: second.id, userId: developer.id, userUsername: "developer" });
  });

  test("a new branch from start_branch, from start_sha, or forced over an existing one; GitLab's 400s leave the branch where it was", async () => {
    const base = (await alice.gl.Commits.show(project.id, "main")) as unknown as Commit;
    const watch = await watchEvents(app, [Repositories.events.branchPushed]);
    const feature = await commit(developer, "feature", "Start feature", [{ action: "create", file_path: "f.txt", content: "f\n" }], { startBranch: "main" });
    expect(feature.parent_ids).toEqual([base.id]);
    const created = await eventually(() => {
      const seen = watch.seen.find((e) => e.payload.branch === "feature");
      expect(seen).toBeDefined();
      return seen!.payload;
    });
    await watch.stop();
    expect(created).toMatchObject({ before: ZERO_SHA, after: feature.id, totalCommitsCount: 1 });

    const fromSha = await commit(developer, "other", "From a sha", [{ action: "create", file_path: "o.txt", content: "o\n" }], { startSha: base.id });
    expect(fromSha.parent_ids).toEqual([base.id]);

    const refused = async (branch: string, actions: Action[], options: Record<string, unknown> = {}) => failureBody(commit(developer, branch, "Refused", actions, options));
    expect(await refused("feature", [{ action: "create", file_path: "f.txt", content: "again" }])).toEqual({ status: 400, body: { message: "A file with this name already exists" } });
    expect(await refused("feature", [{ action: "update", file_path: "missing.txt", content: "x" }])).toEqual({ status: 400, body: { message: "A file with this name doesn't exist" } });
    expect(await refused("feature", [{ action: "delete", file_path: "missing.txt" }])).toEqual({ status: 400, body: { message: "A file with this name doesn't exist" } });
    expect(await refused("feature", [{ action: "create", file_path: "../escape.txt", content: "x" }])).toMatchObject({ status: 400 });
    expect(await refused("feature", [{ action: "update", file_path: "f.txt" }])).toEqual({ status: 400, body: { message: "400 Bad request - actions[0][content] is required for update action" } });
    expect(await refused("feature", [{ action: "update", file_path: "f.txt", content: "x", last_commit_id: base.id }])).toEqual({ status: 400, body: { message: "The file has changed since you started editing it: f.txt" } });
    expect(await refused("feature", [{ action: "create", file_path: "g.txt", content: "g" }], { startBranch: "main" })).toEqual({
      status: 400,
      body: { message: "A branch called 'feature' already exists. Switch to that branch in order to make changes" },
    });
    expect(await refused("x", [{ action: "create", file_path: "g.txt", content: "g" }], { startBranch: "nope" })).toEqual({ status: 400, body: { message: "You can only create or edit files when you are on a branch" } });
    expect(((await alice.gl.Commits.show(project.id, "feature")) as unknown as Commit).id).toBe(feature.id);

    const forced = await commit(developer, "feature", "Start over", [{ action: "create", file_path: "g.txt", content: "g" }], { startBranch: "main", force: true });
    expect(forced.parent_ids).toEqual([base.id]);
  });

  test("who may commit: Developers (not on a protected branch above their level), not Reporters or Guests; outsiders do not see the project", async () => {
    const add = (user: GitbeakerUser, branch: string) => failureStatus(commit(user, branch, "Try", [{ action: "create", file_path: `${user.username}-${branch}.txt`, content: "x" }]));
    expect(await add(reporter, "main")).toBe(403);
    expect(await add(guest, "main")).toBe(403);
    expect(await add(outsider, "main")).toBe(404);
    await alice.gl.ProtectedBranches.protect(project.id, "main", { pushAccessLevel: 40 } as never);
    expect(await add(developer, "main")).toBe(403);
    expect(await add(alice, "main")).toBe("no failure");
    await alice.gl.ProtectedBranches.protect(project.id, "release*", { pushAccessLevel: 40 } as never);
    expect(await failureBody(commit(developer, "release-1", "Try", [{ action: "create", file_path: "r.txt", content: "r" }], { startBranch: "main" }))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - You are not allowed to push into this branch" },
    });
    await expect(commit(alice, "release-2", "Maintainer", [{ action: "create", file_path: "r.txt", content: "r" }], { startBranch: "main" })).resolves.toMatchObject({ title: "Maintainer" });
    // A branch that does not exist yet needs a start_branch.
    expect(await add(developer, "topic")).toBe(400);
    await expect(commit(developer, "topic", "Topic", [{ action: "create", file_path: "t.txt", content: "t" }], { startBranch: "main" })).resolves.toMatchObject({ title: "Topic" });
  });
});

/** A lightweight tag pushed with git onto `sha`. */
async function pushTag(name: string, sha: string) {
  const dir = git.dir(`tag-${name}-${Date.now()}`);
  await git.ok(["clone", "-q", "--bare", cloneUrl(app.url, project.path_with_namespace, { username: "alice", password: alice.token }), dir]);
  await git.ok(["tag", name, sha], { cwd: dir });
  await git.ok(["push", "-q", "origin", `refs/tags/${name}`], { cwd: dir });
}

describe("GET …/repository/commits and one commit", () => {
  async function history() {
    const c1 = await commit(alice, "main", "One", [{ action: "create", file_path: "src/a.txt", content: "1\n" }]);
    const c2 = await commit(developer, "main", "Two\n\nReviewed-by: Bob <bob@example.com>", [{ action: "create", file_path: "b.txt", content: "2\n" }]);
    const c3 = await commit(alice, "main", "Three", [{ action: "update", file_path: "src/a.txt", content: "1\n3\n" }]);
    const side = await commit(developer, "side", "Side", [{ action: "create", file_path: "side.txt", content: "s\n" }], { startBranch: "main" });
    return { c1, c2, c3, side };
  }

  test("lists newest first with GitLab's filters and pages without totals", async () => {
    const { c1, c2, c3, side } = await history();
    const titles = async (options: Record<string, unknown>) => ((await alice.gl.Commits.all(project.id, options as never)) as unknown as Commit[]).map((c) => c.title);
    expect(await titles({})).toEqual(["Three", "Two", "One", "Initial commit"]);
    expect(await titles({ refName: "side" })).toEqual(["Side", "Three", "Two", "One", "Initial commit"]);
    expect(await titles({ path: "src/a.txt" })).toEqual(["Three", "One"]);
    expect(await titles({ author: "Developer" })).toEqual(["Two"]);
    expect((await titles({ all: true })).sort()).toEqual(["Initial commit", "One", "Side", "Three", "Two"]);
    expect(await titles({ refName: "nope" })).toEqual([]);
    expect(await titles({ since: new Date(Date.now() + 86_400_000).toISOString() })).toEqual([]);
    expect(await titles({ until: "2000-01-01T00:00:00Z" })).toEqual([]);

    const withStats = (await alice.gl.Commits.all(project.id, { withStats: true, trailers: true, perPage: 2, maxPages: 1 } as never)) as unknown as (Commit & { trailers: Record<string, string> })[];
    expect(withStats.map((c) => [c.id, c.stats])).toEqual([
      [c3.id, { additions: 1, deletions: 0, total: 1 }],
      [c2.id, { additions: 1, deletions: 0, total: 1 }],
    ]);
    expect(withStats[1].trailers).toEqual({ "Reviewed-by": "Bob <bob@example.com>" });

    const api = apiClient(app.url, alice.token);
    const paged = await api.get(`/projects/${project.id}/repository/commits`, { query: { per_page: 2, page: 2 } });
    expect(paged.status).toBe(200);
    expect(paged.body.map((c: Commit) => c.id)).toEqual([c1.id, paged.body[1].id]);
    expect(paged.headers.get("x-total")).toBeNull();
    expect(paged.headers.get("x-total-pages")).toBeNull();
    expect([paged.headers.get("x-page"), paged.headers.get("x-next-page"), paged.headers.get("x-prev-page")]).toEqual(["2", "", "1"]);
    const firstPage = await api.get(`/projects/${project.id}/repository/commits`, { query: { per_page: 2 } });
    expect(firstPage.headers.get("x-next-page")).toBe("2");
    expect((await api.get(`/projects/${project.id}/repository/commits`, { query: { since: "not a date" } })).status).toBe(400);
    expect(side.parent_ids).toEqual([c3.id]);
  });

  test("shows a commit with its stats, its diff (paginated) and the refs containing it", async () => {
    const { c1, c3, side } = await history();
    await pushTag("v1", c3.id);
    const shown = (await reporter.gl.Commits.show(project.id, c3.id.slice(0, 10))) as unknown as Commit;
    expect(shown).toMatchObject({ id: c3.id, title: "Three", parent_ids: [expect.any(String)], stats: { additions: 1, deletions: 0, total: 1 }, project_id: project.id });
    expect(await reporter.gl.Commits.show(project.id, "side")).toMatchObject({ id: side.id });
    expect(await reporter.gl.Commits.show(project.id, c3.id, { stats: false } as never)).not.toHaveProperty("stats");
    expect(await failureStatus(reporter.gl.Commits.show(project.id, "f".repeat(40)))).toBe(404);

    const diff = (await reporter.gl.Commits.showDiff(project.id, c3.id)) as unknown as Record<string, unknown>[];
    expect(diff).toEqual([
      { diff: "@@ -1 +1,2 @@\n 1\n+3\n", collapsed: false, too_large: false, new_path: "src/a.txt", old_path: "src/a.txt", a_mode: "100644", b_mode: "100644", new_file: false, renamed_file: false, deleted_file: false, generated_file: false },
    ]);
    expect(((await reporter.gl.Commits.showDiff(project.id, c1.id)) as unknown as { new_file: boolean; a_mode: string }[])[0]).toMatchObject({ new_file: true, a_mode: "0" });

    const refs = (await reporter.gl.Commits.allReferences(project.id, c3.id)) as unknown as { type: string; name: string }[];
    expect(refs).toEqual([
      { type: "branch", name: "main" },
      { type: "branch", name: "side" },
      { type: "tag", name: "v1" },
    ]);
    expect(await reporter.gl.Commits.allReferences(project.id, side.id, { type: "branch" })).toEqual([{ type: "branch", name: "side" }]);
  });

  test("reads need Reporter on a private project: Guests 403, outsiders and anonymous callers 404", async () => {
    expect(await failureStatus(guest.gl.Commits.all(project.id))).toBe(403);
    expect(await failureStatus(outsider.gl.Commits.all(project.id))).toBe(404);
    expect((await apiClient(app.url).get(`/projects/${project.id}/repository/commits`)).status).toBe(404);
    expect(await failureStatus(guest.gl.Commits.show(project.id, "main"))).toBe(403);
  });
});

describe("cherry-pick and revert", () => {
  test("a commit of another branch cherry-picked onto a branch, then reverted; refused when already there, for a missing branch, and for Reporters", async () => {
    const picked = await commit(developer, "feature", "Feature work", [{ action: "create", file_path: "feature.txt", content: "f\n" }], { startBranch: "main" });
    const main = (await alice.gl.Commits.show(project.id, "main")) as unknown as Commit;
    const watch = await watchEvents(app, [Repositories.events.branchPushed]);

    const dry = await developer.gl.Commits.cherryPick(project.id, picked.id, "main", { dryRun: true } as never);
    expect(dry).toEqual({ dry_run: "success" });
    const copy = (await developer.gl.Commits.cherryPick(project.id, picked.id, "main")) as unknown as Commit;
    expect(copy).toMatchObject({ parent_ids: [main.id], title: "Feature work", message: `Feature work\n\n(cherry picked from commit ${picked.id})`, author_name: "Developer", committer_name: "Developer" });
    expect(await alice.gl.RepositoryFiles.showRaw(project.id, "feature.txt", "main")).toBe("f\n");

    // gitbeaker keeps only the message of an error: the whole body read over plain HTTP.
    const again = await apiClient(app.url, developer.token).post(`/projects/${project.id}/repository/commits/${picked.id}/cherry_pick`, { json: { branch: "main" } });
    expect([again.status, again.body]).toEqual([
      400,
      { message: "Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.", error_code: "empty" },
    ]);
    const dryAgain = await apiClient(app.url, developer.token).post(`/projects/${project.id}/repository/commits/${picked.id}/cherry_pick`, { json: { branch: "main", dry_run: true } });
    expect(dryAgain.body).toMatchObject({ error_code: "empty", dry_run: "error" });
    expect(await failureBody(developer.gl.Commits.cherryPick(project.id, picked.id, "nope"))).toEqual({ status: 404, body: { message: "404 Branch Not Found" } });
    expect(await failureStatus(reporter.gl.Commits.cherryPick(project.id, picked.id, "main"))).toBe(403);

    const reverted = (await alice.gl.Commits.revert(project.id, copy.id, "main")) as unknown as Commit;
    expect(reverted).toMatchObject({ parent_ids: [copy.id], title: 'Revert "Feature work"', message: `Revert "Feature work"\n\nThis reverts commit ${copy.id}`, author_name: "Alice" });
    expect(await failureStatus(alice.gl.RepositoryFiles.show(project.id, "feature.txt", "main"))).toBe(404);
    const revertAgain = await apiClient(app.url, alice.token).post(`/projects/${project.id}/repository/commits/${copy.id}/revert`, { json: { branch: "main" } });
    expect([revertAgain.status, revertAgain.body.error_code, revertAgain.body.message]).toEqual([400, "empty", expect.stringMatching(/^Sorry, we cannot revert this commit automatically\. This commit may already have been reverted/)]);

    await eventually(() => expect(watch.seen.filter((e) => e.payload.projectId === project.id && e.payload.branch === "main").map((e) => e.payload.after)).toEqual([copy.id, reverted.id]));
    await watch.stop();
  });
});
