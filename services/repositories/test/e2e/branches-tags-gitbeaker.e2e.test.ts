process.env.STORAGE_MOVE_TICK_MS ??= "0";
import { Admin } from "@collab/admin-contract";
import { call } from "@collab/core";
import { Repositories, ZERO_SHA } from "@collab/repositories-contract";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";
import { addMember, apiClient, assertStatus as ok, cloneUrl, createUser, eventually, GitClient, watchEvents, type ApiClient, type TestApp } from "@collab/testing";
import { writeFileSync } from "node:fs";
import path from "node:path";

/**
 * GitLab's branches and tags API on real repositories, through @gitbeaker/rest as a release
 * script would drive it, on each storage (a project moved to `other` first; in the distributed
 * pass `default` and `other` are served by two repositories replicas, so a call landing on the
 * wrong one is forwarded). Raw HTTP checks
 * what gitbeaker hides: statuses, error bodies, pagination headers.
 */
let app: TestApp;
let root: ApiClient;
let git: GitClient;
beforeAll(async () => {
  app = await startApp("branches-tags");
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  // The storages a move may name: the settings' weights.
  ok(await root.put("/application/settings", { json: { repository_storages_weighted: { default: 100, other: 0 } } }), 200, "storages");
});

/** Moves a project's repository to `storage` with a storage move, stepping the admin worker until it finished. */
async function moveTo(projectId: number, storage: string) {
  if (storage === "default") return;
  const move = ok(await root.post(`/projects/${projectId}/repository_storage_moves`, { json: { destination_storage_name: storage } }), 201, "move").body;
  for (let i = 0; i < 50; i++) {
    const state = (await root.get(`/projects/${projectId}/repository_storage_moves/${move.id}`)).body.state;
    if (state === "finished") return;
    if (state === "failed" || state === "cleanup failed") throw new Error(`the move to ${storage} ${state}`);
    await call(app.broker, Admin.storageMoves.tick, {});
  }
  throw new Error(`the move to ${storage} did not finish`);
}

/** A private project with a README on `storage`, its owner, a Developer, a Reporter and a Guest. */
async function team(storage: string) {
  const owner = await createGitbeakerUser(app, "owner");
  const dev = await createGitbeakerUser(app, "dev");
  const reporter = await createGitbeakerUser(app, "reporter");
  const guest = await createGitbeakerUser(app, "guest");
  const outsider = await createGitbeakerUser(app, "outsider");
  const project = ok(await owner.api.post("/projects", { json: { name: "shop", visibility: "private", initialize_with_readme: true } }), 201, "project").body;
  await moveTo(project.id, storage);
  expect((await root.get(`/projects/${project.id}`)).body.repository_storage).toBe(storage);
  for (const [u, level] of [[dev, 30], [reporter, 20], [guest, 10]] as const) await addMember(app, "projects", project.id, u.id, level);
  return { owner, dev, reporter, guest, outsider, id: project.id as number, path: project.path_with_namespace as string, webUrl: project.web_url as string };
}

const status = failureStatus;

describe.each(["default", "other"])("on storage %s", (storage) => {
  test("branches: list, show, create, delete, with protection flags, search and GitLab's errors", async () => {
    const t = await team(storage);
    const watch = await watchEvents(app, [Repositories.events.branchPushed]);

    const [main] = await t.reporter.gl.Branches.all(t.id);
    expect(main).toMatchObject({
      name: "main",
      default: true,
      merged: false,
      protected: true, // the default branch is protected on a new project
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
      web_url: `${t.webUrl}/-/tree/main`,
      commit: { title: "Initial commit", message: expect.any(String), parent_ids: [], short_id: main.commit.id.slice(0, 8), web_url: `${t.webUrl}/-/commit/${main.commit.id}` },
    });
    expect(main.commit.id).toMatch(/^[0-9a-f]{40}$/);
    expect(main.commit).toEqual(expect.objectContaining({ author_name: expect.any(String), committer_email: expect.any(String), authored_date: expect.any(String), committed_date: expect.any(String), created_at: expect.any(String), trailers: {}, extended_trailers: {} }));
    expect((await t.owner.gl.Branches.show(t.id, "main")).can_push).toBe(true);

    const feature = await t.dev.gl.Branches.create(t.id, "feature/login", "main");
    expect(feature).toMatchObject({ name: "feature/login", default: false, merged: false, protected: false, can_push: true, commit: { id: main.commit.id } });
    expect(await t.reporter.gl.Branches.show(t.id, "feature/login")).toMatchObject({ name: "feature/login", can_push: false });
    // From a sha and from a tag.
    await t.dev.gl.Branches.create(t.id, "from-sha", main.commit.id.slice(0, 10));
    await t.dev.gl.Tags.create(t.id, "v0", "main");
    await t.dev.gl.Branches.create(t.id, "from-tag", "v0");

    // The branch is real: git sees it.
    const ls = await git.ok(["ls-remote", cloneUrl(app.url, t.path, { username: t.dev.username, password: t.dev.token }), "refs/heads/*"]);
    expect(ls.trim().split("\n").map((l) => l.split("\t")[1]).sort()).toEqual(["refs/heads/feature/login", "refs/heads/from-sha", "refs/heads/from-tag", "refs/heads/main"]);

    // GitLab's search anchors.
    const names = async (search: string) => (await t.reporter.gl.Branches.all(t.id, { search })).map((b) => b.name);
    expect(await names("FROM")).toEqual(["from-sha", "from-tag"]);
    expect(await names("^feat")).toEqual(["feature/login"]);
    expect(await names("tag$")).toEqual(["from-tag"]);
    expect(await names("^main$")).toEqual(["main"]);

    // Errors, with GitLab's bodies.
    const post = (json: object) => t.dev.api.post(`/projects/${t.id}/repository/branches`, { json });
    expect((await post({ branch: "feature/login", ref: "main" })).body).toEqual({ message: "Branch already exists" });
    const badRef = await post({ branch: "x", ref: "nowhere" });
    expect([badRef.status, badRef.body]).toEqual([400, { message: "Invalid reference name: nowhere" }]);
    expect((await post({ branch: "bad..name", ref: "main" })).body).toEqual({ message: "Branch name is invalid" });
    expect((await post({ ref: "main" })).status).toBe(400);
    expect((await t.dev.api.get(`/projects/${t.id}/repository/branches/nope`)).body).toEqual({ message: "404 Branch Not Found" });
    expect(await status(t.reporter.gl.Branches.create(t.id, "r", "main"))).toBe(403);
    expect(await status(t.guest.gl.Branches.all(t.id))).toBe(403);
    expect(await status(t.guest.gl.Branches.show(t.id, "main"))).toBe(403);
    expect(await status(t.outsider.gl.Branches.all(t.id))).toBe(404);
    expect((await apiClient(app.url).get(`/projects/${t.id}/repository/branches`)).status).toBe(404);

    // Deletion: the default branch never, a protected branch by Maintainers only.
    const del = (who: GitbeakerUser, name: string) => who.api.delete(`/projects/${t.id}/repository/branches/${encodeURIComponent(name)}`);
    expect((await del(t.owner, "main")).body).toEqual({ message: "The default branch of a project cannot be deleted." });
    ok(await t.owner.api.post(`/projects/${t.id}/protected_branches`, { json: { name: "from-*", push_access_level: 30, merge_access_level: 40 } }), 201, "protect");
    const [fromSha] = await t.dev.gl.Branches.all(t.id, { search: "^from-sha" });
    expect(fromSha).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: false, can_push: true });
    const refused = await del(t.dev, "from-sha");
    expect([refused.status, refused.body.message]).toEqual([400, expect.stringMatching(/^You are not allowed to delete protected branches/)]);
    expect((await del(t.reporter, "from-sha")).status).toBe(403);
    expect((await del(t.dev, "nope")).body).toEqual({ message: "404 Branch Not Found" });
    await t.owner.gl.Branches.remove(t.id, "from-sha");
    await t.dev.gl.Branches.remove(t.id, "feature/login");
    expect((await t.dev.gl.Branches.all(t.id)).map((b) => b.name)).toEqual(["from-tag", "main"]);

    // Each change is announced as a push of the ref.
    const seen = await eventually(() => {
      const mine = watch.seen.filter((e) => e.payload.projectId === t.id).map((e) => [e.payload.branch, e.payload.before === ZERO_SHA ? "created" : e.payload.after === ZERO_SHA ? "removed" : "moved"]);
      expect(mine).toHaveLength(5);
      return mine;
    });
    await watch.stop();
    expect(seen).toEqual(
      expect.arrayContaining([
        ["feature/login", "created"],
        ["from-sha", "created"],
        ["from-tag", "created"],
        ["from-sha", "removed"],
        ["feature/login", "removed"],
      ]),
    );
  });

  test("branch pages: pagination headers, order, merged into the default branch, merged branches removed", async () => {
    const t = await team(storage);
    for (const n of [1, 2, 3, 4, 5]) await t.dev.gl.Branches.create(t.id, `b${n}`, "main");
    const res = await t.dev.api.get(`/projects/${t.id}/repository/branches`, { query: { per_page: 2, page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body.map((b: { name: string }) => b.name)).toEqual(["b3", "b4"]);
    expect(res.headers.get("x-total")).toBe("6");
    expect(res.headers.get("x-total-pages")).toBe("3");
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-per-page")).toBe("2");
    expect(res.headers.get("x-next-page")).toBe("3");
    expect(res.headers.get("x-prev-page")).toBe("1");
    const { data, paginationInfo } = await t.dev.gl.Branches.all(t.id, { perPage: 4, page: 2, showExpanded: true, maxPages: 1 });
    expect(data.map((b) => b.name)).toEqual(["b5", "main"]);
    expect(paginationInfo).toMatchObject({ total: 6, totalPages: 2, current: 2 });

    // A branch moved ahead of main by a push, and main moved past another: merged is about main.
    const dir = git.dir(`merged-${storage}`);
    await git.ok(["clone", cloneUrl(app.url, t.path, { username: t.owner.username, password: t.owner.token }), dir]);
    await git.ok(["switch", "-q", "-c", "b1", "origin/b1"], { cwd: dir });
    writeFileSync(path.join(dir, "one.txt"), "1\n");
    await git.ok(["add", "."], { cwd: dir });
    await git.ok(["commit", "-q", "-m", "One"], { cwd: dir });
    await git.ok(["push", "-q", "origin", "b1"], { cwd: dir });
    await git.ok(["push", "-q", "origin", "b1:main"], { cwd: dir });
    await git.ok(["switch", "-q", "-c", "b2", "origin/b2"], { cwd: dir });
    writeFileSync(path.join(dir, "two.txt"), "2\n");
    await git.ok(["add", "."], { cwd: dir });
    await git.ok(["commit", "-q", "-m", "Two"], { cwd: dir });
    await git.ok(["push", "-q", "origin", "b2"], { cwd: dir });
    const byName = Object.fromEntries((await t.dev.gl.Branches.all(t.id)).map((b) => [b.name, b.merged]));
    // b1 is main's head (not merged: identical), b2 is ahead, b3..b5 are behind main (merged).
    expect(byName).toEqual({ b1: false, b2: false, b3: true, b4: true, b5: true, main: false });
    expect((await t.dev.api.get(`/projects/${t.id}/repository/branches`, { query: { sort: "newest" } })).body).toEqual({ error: "sort does not have a valid value" });

    ok(await t.owner.api.post(`/projects/${t.id}/protected_branches`, { json: { name: "b4" } }), 201, "protect b4");
    expect(await status(t.reporter.gl.Branches.removeMerged(t.id))).toBe(403);
    const accepted = await t.dev.api.delete(`/projects/${t.id}/repository/merged_branches`);
    expect([accepted.status, accepted.body]).toEqual([202, { message: "202 Accepted" }]);
    expect((await t.dev.gl.Branches.all(t.id)).map((b) => b.name)).toEqual(["b1", "b2", "b4", "main"]);
  });

  test("tags: lightweight and annotated, list orders, show, delete, and GitLab's errors", async () => {
    const t = await team(storage);
    const watch = await watchEvents(app, [Repositories.events.tagPushed]);
    const [main] = await t.dev.gl.Branches.all(t.id);
    const light = await t.dev.gl.Tags.create(t.id, "v1.0", "main");
    expect(light).toEqual({ name: "v1.0", message: "", target: main.commit.id, commit: expect.objectContaining({ id: main.commit.id, title: "Initial commit" }), release: null, protected: false, created_at: null });
    const annotated = await t.dev.gl.Tags.create(t.id, "v1.1", main.commit.id, { message: "Release 1.1\n\nNotes" });
    expect(annotated).toMatchObject({ name: "v1.1", message: "Release 1.1\n\nNotes", commit: { id: main.commit.id }, created_at: expect.any(String) });
    expect(annotated.target).toMatch(/^[0-9a-f]{40}$/);
    expect(annotated.target).not.toBe(main.commit.id);
    await t.dev.gl.Tags.create(t.id, "v1.10", "v1.0");

    expect(await t.reporter.gl.Tags.show(t.id, "v1.1")).toEqual(annotated);
    const order = async (o: object) => (await t.reporter.gl.Tags.all(t.id, o)).map((x) => x.name);
    expect(await order({ orderBy: "name", sort: "asc" })).toEqual(["v1.0", "v1.1", "v1.10"]);
    expect(await order({ orderBy: "version", sort: "desc" })).toEqual(["v1.10", "v1.1", "v1.0"]);
    expect(await order({ search: "^v1.1" })).toHaveLength(2);
    const page = await t.reporter.api.get(`/projects/${t.id}/repository/tags`, { query: { per_page: 1 } });
    expect([page.body.length, page.headers.get("x-total"), page.headers.get("x-next-page")]).toEqual([1, "3", "2"]);

    const post = (json: object) => t.dev.api.post(`/projects/${t.id}/repository/tags`, { json });
    const dup = await post({ tag_name: "v1.0", ref: "main" });
    expect([dup.status, dup.body]).toEqual([400, { message: "Tag v1.0 already exists" }]);
    expect((await post({ tag_name: "v2", ref: "nowhere" })).body).toEqual({ message: "Target nowhere is invalid" });
    expect((await post({ tag_name: "bad tag", ref: "main" })).body).toEqual({ message: "Tag name invalid" });
    expect(await status(t.reporter.gl.Tags.create(t.id, "r", "main"))).toBe(403);
    expect(await status(t.guest.gl.Tags.all(t.id))).toBe(403);
    expect(await status(t.outsider.gl.Tags.show(t.id, "v1.0"))).toBe(404);
    expect((await t.dev.api.get(`/projects/${t.id}/repository/tags/nope`)).body).toEqual({ message: "404 Tag Not Found" });

    await t.dev.gl.Tags.remove(t.id, "v1.1");
    expect((await t.dev.api.delete(`/projects/${t.id}/repository/tags/v1.1`)).body).toEqual({ message: "404 Tag Not Found" });
    expect(await order({ orderBy: "name", sort: "asc" })).toEqual(["v1.0", "v1.10"]);

    const seen = await eventually(() => {
      const mine = watch.seen.filter((e) => e.payload.projectId === t.id);
      expect(mine).toHaveLength(4);
      return mine.map((e) => e.payload);
    });
    await watch.stop();
    expect(seen).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ tag: "v1.1", before: ZERO_SHA, after: annotated.target, userId: t.dev.id, commitTitle: "Initial commit" }),
        expect.objectContaining({ tag: "v1.1", before: annotated.target, after: ZERO_SHA, commits: [] }),
      ]),
    );
  });
});

test("a public project's branches are readable anonymously; an empty repository has none", async () => {
  const alice = await createUser(app, "alice");
  const open = ok(await alice.api.post("/projects", { json: { name: "open", visibility: "public", initialize_with_readme: true } }), 201, "open").body;
  const anonymous = apiClient(app.url);
  const res = await anonymous.get(`/projects/${open.id}/repository/branches`);
  expect([res.status, res.body.map((b: { name: string; can_push: boolean }) => [b.name, b.can_push])]).toEqual([200, [["main", false]]]);
  expect((await anonymous.post(`/projects/${open.id}/repository/branches`, { json: { branch: "x", ref: "main" } })).status).toBe(401);
  const empty = ok(await alice.api.post("/projects", { json: { name: "empty" } }), 201, "empty").body;
  const none = await alice.api.get(`/projects/${empty.id}/repository/branches`);
  expect([none.status, none.body, none.headers.get("x-total")]).toEqual([200, [], "0"]);
  expect((await alice.api.post(`/projects/${empty.id}/repository/branches`, { json: { branch: "x", ref: "main" } })).body).toEqual({ message: "Invalid reference name: main" });
});
