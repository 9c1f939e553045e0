import { createHash } from "node:crypto";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";
import { addMember, apiClient, assertStatus as ok, createProject, eventually, GitClient, type ApiClient, type TestApp } from "@collab/testing";
import { Workspace } from "./git-workspace";

/**
 * Merge requests on real code, with the real git client through the gateway: a pushed branch's
 * merge request shows its commits, changes, diffs and raw diff from the repository; merging
 * (merge commit, semi-linear, fast-forward, squash, source removal) writes commits git fetches;
 * conflicts and needed rebases are shown and refused; rebase rewrites the source; a push to the
 * source moves the merge request and resets its approvals; a push to the target that contains
 * the source merges it.
 */
let app: TestApp;
let git: GitClient;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("merge-request-code");
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

let clones = 0;

interface World {
  project: { id: number; path_with_namespace: string };
  alice: GitbeakerUser;
  bob: GitbeakerUser;
  ws: Workspace;
  P: string;
}

/** A project with a README on main; alice maintains it, bob develops in his clone. */
async function seed(settings: Record<string, unknown> = {}): Promise<World> {
  const alice = await createGitbeakerUser(app, "alice");
  const bob = await createGitbeakerUser(app, "bob");
  const project = await createProject(alice.api, { name: "shop", visibility: "private", initialize_with_readme: true, ...settings });
  await addMember(app, "projects", project.id, bob.id, 30);
  const ws = await Workspace.clone(git, app.url, project.path_with_namespace, bob, `clone-${++clones}`);
  return { project, alice, bob, ws, P: `/projects/${project.id}` };
}

const mrOf = async (w: World, iid: number) => ok(await w.bob.api.get(`${w.P}/merge_requests/${iid}`), 200, "get MR").body;

async function open(w: World, source: string, title = "Add cart", as: GitbeakerUser = w.bob) {
  return ok(await as.api.post(`${w.P}/merge_requests`, { json: { title, source_branch: source, target_branch: "main" } }), 201, "create MR").body;
}

test("a pushed branch's merge request: diff refs, changes, diffs, commits, raw diff and its refs, read with gitbeaker", async () => {
  const w = await seed();
  const mainHead = await w.ws.rev("origin/main");
  const c1 = await w.ws.commit("cart", { "cart.rb": "class Cart\nend\n" }, "Add the cart", "main");
  const c2 = await w.ws.commit("cart", { "cart.rb": "class Cart\n  def total = 0\nend\n", "README.md": "# shop\n\nNow with a cart\n" }, "Cart totals");
  const mr = await open(w, "cart");
  expect(mr).toMatchObject({
    sha: c2,
    changes_count: "2",
    diff_refs: { base_sha: mainHead, start_sha: mainHead, head_sha: c2 },
    merge_status: "can_be_merged",
    detailed_merge_status: "mergeable",
    has_conflicts: false,
    merge_error: null,
  });

  const changes = await w.bob.gl.MergeRequests.showChanges(w.project.id, mr.iid);
  expect(changes.overflow).toBe(false);
  // In git's order of paths.
  const files = changes.changes as { new_path: string; new_file: boolean; diff: string }[];
  expect(files.map((f) => [f.new_path, f.new_file])).toEqual([["README.md", false], ["cart.rb", true]]);
  expect(files[1].diff).toBe("@@ -0,0 +1,3 @@\n+class Cart\n+  def total = 0\n+end\n");

  // Every page (gitbeaker follows the pages), then the second page alone.
  expect((await w.bob.gl.MergeRequests.allDiffs(w.project.id, mr.iid, { perPage: 1 })).map((d) => d.new_path)).toEqual(["README.md", "cart.rb"]);
  const diffs = await w.bob.gl.MergeRequests.allDiffs(w.project.id, mr.iid, { perPage: 1, page: 2, showExpanded: true });
  expect(diffs.data.map((d) => d.new_path)).toEqual(["cart.rb"]);
  expect(diffs.paginationInfo).toMatchObject({ total: 2, totalPages: 2, current: 2 });

  const commits = await w.bob.gl.MergeRequests.allCommits(w.project.id, mr.iid);
  expect(commits.map((c) => [c.id, c.title])).toEqual([
    [c2, "Cart totals"],
    [c1, "Add the cart"],
  ]);
  expect(commits[0].web_url).toBe(`http://collab.test/${w.project.path_with_namespace}/-/commit/${c2}`);

  const raw = await w.bob.api.get(`${w.P}/merge_requests/${mr.iid}/raw_diffs`);
  expect(raw.status).toBe(200);
  expect(raw.headers.get("content-type")).toMatch(/^text\/plain/);
  expect(raw.text).toContain("+++ b/cart.rb");

  // GitLab's merge request refs: head at the source head, merge at the merge of source into target.
  await eventually(async () => expect((await w.ws.ok(["ls-remote", "origin", `refs/merge-requests/${mr.iid}/*`])).split("\n").filter(Boolean)).toHaveLength(2));
  await w.ws.ok(["fetch", "-q", "origin", `refs/merge-requests/${mr.iid}/head:mr-head`]);
  expect(await w.ws.rev("mr-head")).toBe(c2);
});

test("merging writes GitLab's merge commit on the target, which git fetches; the MR keeps its diff", async () => {
  const w = await seed();
  const mainHead = await w.ws.rev("origin/main");
  const head = await w.ws.commit("cart", { "cart.rb": "class Cart\nend\n" }, "Add the cart", "main");
  const mr = await open(w, "cart");
  const merged = await w.alice.gl.MergeRequests.merge(w.project.id, mr.iid, { sha: head });
  expect(merged).toMatchObject({ state: "merged", sha: head, squash_commit_sha: null, merge_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });

  await w.ws.ok(["fetch", "-q", "origin"]);
  expect(await w.ws.rev("origin/main")).toBe(merged.merge_commit_sha);
  expect((await w.ws.ok(["log", "-1", "--format=%P", "origin/main"])).trim()).toBe(`${mainHead} ${head}`);
  expect(await w.ws.ok(["log", "-1", "--format=%B", "origin/main"])).toBe(`Merge branch 'cart' into 'main'\n\nAdd cart\n\nSee merge request ${w.project.path_with_namespace}!${mr.iid}\n`);
  // The source branch stays unless asked.
  expect(await w.ws.rev("origin/cart")).toBe(head);

  const after = await mrOf(w, mr.iid);
  expect(after).toMatchObject({ state: "merged", changes_count: "1", diff_refs: { base_sha: mainHead, head_sha: head, start_sha: mainHead } });
  expect((await w.bob.gl.MergeRequests.allCommits(w.project.id, mr.iid)).map((c) => c.id)).toEqual([head]);
});

test("squash with source branch removal: a squash commit merged into the target, the source branch gone", async () => {
  const w = await seed();
  await w.ws.commit("cart", { "a.txt": "a\n" }, "One", "main");
  await w.ws.commit("cart", { "b.txt": "b\n" }, "Two");
  const mr = await open(w, "cart");
  const merged = await w.alice.gl.MergeRequests.merge(w.project.id, mr.iid, { squash: true, squashCommitMessage: "Cart in one commit", shouldRemoveSourceBranch: true });
  expect(merged).toMatchObject({ state: "merged", squash: true, should_remove_source_branch: true, squash_commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/) });

  await w.ws.ok(["fetch", "-q", "--prune", "origin"]);
  expect(await w.ws.rev("origin/main")).toBe(merged.merge_commit_sha);
  const [, second] = (await w.ws.ok(["log", "-1", "--format=%P", "origin/main"])).trim().split(" ");
  expect(second).toBe(merged.squash_commit_sha);
  expect((await w.ws.ok(["log", "-1", "--format=%s", merged.squash_commit_sha])).trim()).toBe("Cart in one commit");
  expect((await w.ws.ok(["ls-tree", "--name-only", "origin/main"])).split("\n")).toEqual(expect.arrayContaining(["a.txt", "b.txt"]));
  expect((await w.ws.run(["rev-parse", "--verify", "-q", "origin/cart"])).code).not.toBe(0);
});

test("a conflicting merge request shows has_conflicts and detailed_merge_status conflict, and is refused; its rebase fails with merge_error", async () => {
  const w = await seed();
  await w.ws.commit("cart", { "README.md": "cart version\n" }, "Cart README", "main");
  const mr = await open(w, "cart");
  // Alice changes the same line on main.
  const alice = await Workspace.clone(git, app.url, w.project.path_with_namespace, w.alice, `clone-${++clones}`);
  await alice.commit("main", { "README.md": "main version\n" }, "Main README");

  await eventually(async () => expect(await mrOf(w, mr.iid)).toMatchObject({ has_conflicts: true, detailed_merge_status: "conflict", merge_status: "cannot_be_merged" }));
  // The list reads the state stored on the row, refreshed once the push to the target is applied
  // (the single answer above reads git itself, so it may see the conflict first).
  await eventually(async () => {
    const listed = ok(await w.bob.api.get(`${w.P}/merge_requests`), 200, "list").body;
    expect(listed[0]).toMatchObject({ iid: mr.iid, has_conflicts: true, detailed_merge_status: "conflict" });
  });

  const refused = await w.alice.api.put(`${w.P}/merge_requests/${mr.iid}/merge`);
  expect(refused.status).toBe(422);
  expect(refused.body).toEqual({ message: "Branch cannot be merged" });

  const rebase = await w.bob.api.put(`${w.P}/merge_requests/${mr.iid}/rebase`);
  expect(rebase.status).toBe(202);
  expect(rebase.body).toEqual({ rebase_in_progress: true });
  expect(await mrOf(w, mr.iid)).toMatchObject({ merge_error: expect.stringContaining("Rebase failed"), rebase_in_progress: false, state: "opened" });
});

test("fast-forward projects: need_rebase until rebased, then the target moves to the source head", async () => {
  const w = await seed({ merge_method: "ff" });
  const head = await w.ws.commit("cart", { "cart.rb": "cart\n" }, "Add the cart", "main");
  const mr = await open(w, "cart");
  const alice = await Workspace.clone(git, app.url, w.project.path_with_namespace, w.alice, `clone-${++clones}`);
  await alice.commit("main", { "other.txt": "other\n" }, "Meanwhile on main");
  await eventually(async () => expect((await mrOf(w, mr.iid)).detailed_merge_status).toBe("need_rebase"));
  expect((await w.alice.api.put(`${w.P}/merge_requests/${mr.iid}/merge`)).status).toBe(422);

  expect((await w.bob.api.put(`${w.P}/merge_requests/${mr.iid}/rebase`)).status).toBe(202);
  const rebased = await eventually(async () => {
    const now = await mrOf(w, mr.iid);
    expect(now).toMatchObject({ detailed_merge_status: "mergeable", merge_error: null });
    expect(now.sha).not.toBe(head);
    return now;
  });
  await w.ws.ok(["fetch", "-q", "origin"]);
  expect(await w.ws.rev("origin/cart")).toBe(rebased.sha);
  expect((await w.ws.ok(["log", "-1", "--format=%P", "origin/cart"])).trim()).toBe(await w.ws.rev("origin/main"));

  const merged = await w.alice.gl.MergeRequests.merge(w.project.id, mr.iid);
  expect(merged).toMatchObject({ state: "merged", merge_commit_sha: null, sha: rebased.sha });
  await w.ws.ok(["fetch", "-q", "origin"]);
  expect(await w.ws.rev("origin/main")).toBe(rebased.sha);
});

test("semi-linear projects: a merge commit, only once the target is in the source's history", async () => {
  const w = await seed({ merge_method: "rebase_merge" });
  const head = await w.ws.commit("cart", { "cart.rb": "cart\n" }, "Add the cart", "main");
  const mr = await open(w, "cart");
  expect(mr.detailed_merge_status).toBe("mergeable");
  const mainHead = await w.ws.rev("origin/main");
  const merged = await w.alice.gl.MergeRequests.merge(w.project.id, mr.iid);
  await w.ws.ok(["fetch", "-q", "origin"]);
  expect(await w.ws.rev("origin/main")).toBe(merged.merge_commit_sha);
  expect((await w.ws.ok(["log", "-1", "--format=%P", "origin/main"])).trim()).toBe(`${mainHead} ${head}`);
});

test("a push to the source moves sha, diff refs and changes_count, and resets approvals", async () => {
  const w = await seed();
  const carol = await createGitbeakerUser(app, "carol");
  await addMember(app, "projects", w.project.id, carol.id, 30);
  const first = await w.ws.commit("cart", { "a.txt": "a\n" }, "One", "main");
  const mr = await open(w, "cart");
  ok(await carol.api.post(`${w.P}/merge_requests/${mr.iid}/approve`), 201, "approve");
  expect(ok(await w.bob.api.get(`${w.P}/merge_requests/${mr.iid}/approvals`), 200, "approvals").body.approved_by).toHaveLength(1);

  const second = await w.ws.commit("cart", { "b.txt": "b\n" }, "Two");
  expect(second).not.toBe(first);
  await eventually(async () => {
    const listed = ok(await w.bob.api.get(`${w.P}/merge_requests`), 200, "list").body;
    expect(listed[0].sha).toBe(second);
  });
  const now = await mrOf(w, mr.iid);
  expect(now).toMatchObject({ sha: second, changes_count: "2", diff_refs: { head_sha: second } });
  expect(ok(await w.bob.api.get(`${w.P}/merge_requests/${mr.iid}/approvals`), 200, "approvals").body.approved_by).toEqual([]);
});

test("a push to the target that brings in the source head marks the merge request merged", async () => {
  const w = await seed();
  const head = await w.ws.commit("cart", { "a.txt": "a\n" }, "One", "main");
  const mr = await open(w, "cart");
  const alice = await Workspace.clone(git, app.url, w.project.path_with_namespace, w.alice, `clone-${++clones}`);
  await alice.ok(["fetch", "-q", "origin"]);
  await alice.ok(["push", "-q", "origin", `${head}:refs/heads/main`]);
  await eventually(async () => expect(await mrOf(w, mr.iid)).toMatchObject({ state: "merged", merge_commit_sha: head }));
});

test("reading code follows the merge request's visibility: outsiders of a private project get 404", async () => {
  const w = await seed();
  await w.ws.commit("cart", { "a.txt": "a\n" }, "One", "main");
  const mr = await open(w, "cart");
  const outsider = await createGitbeakerUser(app, "outsider");
  for (const path of ["commits", "changes", "diffs", "raw_diffs"]) expect((await outsider.api.get(`${w.P}/merge_requests/${mr.iid}/${path}`)).status).toBe(404);
  expect((await outsider.api.put(`${w.P}/merge_requests/${mr.iid}/rebase`)).status).toBe(404);
  // A Reporter reads the code but may not rebase.
  const reporter = await createGitbeakerUser(app, "reporter");
  await addMember(app, "projects", w.project.id, reporter.id, 20);
  expect((await reporter.api.get(`${w.P}/merge_requests/${mr.iid}/diffs`)).status).toBe(200);
  expect((await reporter.api.put(`${w.P}/merge_requests/${mr.iid}/rebase`)).status).toBe(403);
});

test("a DiffNote sits on a line of the real diff with GitLab's line_code; off the diff or on other diff refs it is refused", async () => {
  const w = await seed();
  await w.ws.commit("cart", { "cart.rb": "class Cart\nend\n" }, "Add the cart", "main");
  const mr = await open(w, "cart");
  const refs = mr.diff_refs as { base_sha: string; start_sha: string; head_sha: string };
  const at = (extra: Record<string, unknown>) => ({ body: "Why a class?", position: { position_type: "text", ...refs, new_path: "cart.rb", old_path: "cart.rb", ...extra } });
  const url = `${w.P}/merge_requests/${mr.iid}/discussions`;

  const thread = ok(await w.alice.api.post(url, { json: at({ new_line: 1 }) }), 201, "diff note").body;
  const pathHash = createHash("sha1").update("cart.rb").digest("hex");
  expect(thread.notes[0]).toMatchObject({ type: "DiffNote", resolvable: true, position: { position_type: "text", new_line: 1, new_path: "cart.rb", head_sha: refs.head_sha, line_code: `${pathHash}_0_1` } });

  const refusal = { message: `400 Bad request - Note {:line_code=>["can't be blank", "must be a valid line code"]}` };
  const off = await w.alice.api.post(url, { json: at({ new_line: 7 }) });
  expect(off.status).toBe(400);
  expect(off.body).toEqual(refusal);
  const removedSide = await w.alice.api.post(url, { json: at({ old_line: 1 }) });
  expect(removedSide.status).toBe(400);
  const stale = await w.alice.api.post(url, { json: at({ new_line: 1, head_sha: refs.base_sha }) });
  expect(stale.status).toBe(400);
  expect((await w.alice.api.get(url)).body).toHaveLength(1);
});
