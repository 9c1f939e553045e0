import { call } from "@collab/core";
import { onStorage, Repositories, ZERO_SHA } from "@collab/repositories-contract";
import { startApp } from "@collab/standalone/test/app";
import { addMember, apiClient, assertStatus, cloneUrl, createProject, createUser, eventually, GitClient, watchEvents, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * git over HTTP through the gateway, with the real git client: clone, fetch and push at
 * /<namespace>/<project>.git, authenticated with HTTP Basic (tokens as passwords), the
 * repositories service checking each pushed ref before it moves and announcing the push.
 */
let app: TestApp;
let git: GitClient;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("git-http");
  root = apiClient(app.url, app.rootToken);
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});
beforeEach(() => app.reset());

const as = (user: TestUser) => ({ username: user.username, password: user.token });
let clones = 0;
const nextDir = () => git.dir(`clone-${++clones}`);

async function projectOf(owner: TestUser, body: Record<string, unknown>) {
  return createProject(owner.api, { initialize_with_readme: true, ...body });
}

test("a project created with initialize_with_readme clones with a token: README.md, the creator's first commit on the default branch", async () => {
  const alice = await createUser(app, "alice", { name: "Alice Liddell" });
  const project = await projectOf(alice, { name: "Wonder Land", description: "Down the hole", visibility: "private" });
  const dir = nextDir();
  await git.ok(["clone", cloneUrl(app.url, project.path_with_namespace, as(alice)), dir]);

  const readme = readFileSync(path.join(dir, "README.md"), "utf8");
  expect(readme.split("\n").slice(0, 3)).toEqual(["# Wonder Land", "", "Down the hole"]);
  expect((await git.ok(["branch", "--show-current"], { cwd: dir })).trim()).toBe("main");
  expect((await git.ok(["log", "--format=%an <%ae>|%s"], { cwd: dir })).trim()).toBe("Alice Liddell <alice@example.com>|Initial commit");
});

test("anonymous callers clone public projects; private ones ask for credentials (401) and stay hidden from outsiders (404)", async () => {
  const alice = await createUser(app, "alice");
  const outsider = await createUser(app, "outsider");
  const open = await projectOf(alice, { name: "open", visibility: "public" });
  const closed = await projectOf(alice, { name: "closed", visibility: "private" });

  // Protocol v0 (the advertisement's service line) and v2 both work.
  await git.ok(["-c", "protocol.version=0", "clone", cloneUrl(app.url, open.path_with_namespace), nextDir()]);
  await git.ok(["clone", `${app.url}/${open.path_with_namespace}`, nextDir()]);

  const refs = (fullPath: string, headers: Record<string, string> = {}) => fetch(`${app.url}/${fullPath}.git/info/refs?service=git-upload-pack`, { headers });
  const anonymous = await refs(closed.path_with_namespace);
  expect(anonymous.status).toBe(401);
  expect(anonymous.headers.get("www-authenticate")).toBe('Basic realm="GitLab"');
  // A push always asks for credentials, even to a public project: git then retries with those it has.
  const anonymousPush = await fetch(`${app.url}/${open.path_with_namespace}.git/info/refs?service=git-receive-pack`);
  expect(anonymousPush.status).toBe(401);
  expect(anonymousPush.headers.get("www-authenticate")).toBe('Basic realm="GitLab"');
  const basic = (user: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}` });
  const hidden = await refs(closed.path_with_namespace, basic("outsider", outsider.token));
  expect(hidden.status).toBe(404);
  expect(await hidden.text()).toBe("The project you were looking for could not be found or you don't have permission to view it.\n");
  expect((await refs(closed.path_with_namespace, basic("alice", "glpat-not-a-token"))).status).toBe(401);
  const ok = await refs(closed.path_with_namespace, basic("anything", alice.token));
  expect(ok.status).toBe(200);
  expect(ok.headers.get("content-type")).toBe("application/x-git-upload-pack-advertisement");

  const refused = await git.run(["clone", cloneUrl(app.url, closed.path_with_namespace), nextDir()]);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/could not read Username|Authentication failed/);
});

test("a pushed branch moves on the server and is announced with its commits", async () => {
  const alice = await createUser(app, "alice");
  const project = await projectOf(alice, { name: "pushy" });
  const watch = await watchEvents(app, [Repositories.events.branchPushed, Repositories.events.tagPushed]);
  const dir = nextDir();
  await git.ok(["clone", cloneUrl(app.url, project.path_with_namespace, as(alice)), dir]);
  await git.ok(["switch", "-c", "feature"], { cwd: dir });
  for (const n of [1, 2, 3]) {
    writeFileSync(path.join(dir, `f${n}.txt`), `${n}\n`);
    await git.ok(["add", "."], { cwd: dir });
    await git.ok(["commit", "-q", "-m", `Add file ${n}\n\nBody ${n}`], { cwd: dir });
  }
  const head = (await git.ok(["rev-parse", "HEAD"], { cwd: dir })).trim();
  await git.ok(["push", "-q", "origin", "feature"], { cwd: dir });

  // Another clone sees it.
  const other = nextDir();
  await git.ok(["clone", "-b", "feature", cloneUrl(app.url, project.path_with_namespace, as(alice)), other]);
  expect((await git.ok(["rev-parse", "HEAD"], { cwd: other })).trim()).toBe(head);

  const event = await eventually(() => {
    const seen = watch.seen.find((e) => e.payload.branch === "feature");
    expect(seen).toBeDefined();
    return seen!.payload;
  });
  // An annotated tag: announced with the commit it points at.
  await git.ok(["tag", "-a", "v1.0", "-m", "Release 1.0"], { cwd: dir });
  await git.ok(["push", "-q", "origin", "v1.0"], { cwd: dir });
  const tag = await eventually(() => {
    const seen = watch.seen.find((e) => e.event === Repositories.events.tagPushed.name);
    expect(seen).toBeDefined();
    return seen!.payload;
  });
  await watch.stop();
  expect(tag).toMatchObject({ projectId: project.id, ref: "refs/tags/v1.0", tag: "v1.0", before: ZERO_SHA, userId: alice.id, totalCommitsCount: 1, commitTitle: "Add file 3" });
  expect(tag.after).toBe((await git.ok(["rev-parse", "v1.0"], { cwd: dir })).trim());
  expect(tag.commits.map((c: { id: string }) => c.id)).toEqual([head]);
  expect(event).toMatchObject({ projectId: project.id, ref: "refs/heads/feature", before: ZERO_SHA, after: head, userId: alice.id, userUsername: "alice", totalCommitsCount: 3, commitCount: 3, commitTitle: "Add file 3" });
  expect(event.commits.map((c: { title: string }) => c.title)).toEqual(["Add file 1", "Add file 2", "Add file 3"]);
  expect(event.commits[2]).toMatchObject({ id: head, message: "Add file 3\n\nBody 3\n", author: { name: "Test Author", email: "author@example.com" }, url: `http://collab.test/${project.path_with_namespace}/-/commit/${head}` });
});

test("protected branches: pushes below the push level, force pushes and deletions are refused with GitLab's reasons, and nothing moves", async () => {
  const alice = await createUser(app, "alice");
  const bob = await createUser(app, "bob");
  const project = await projectOf(alice, { name: "guarded" });
  await addMember(app, "projects", project.id, bob.id, 30);
  const before = (await git.ok(["ls-remote", cloneUrl(app.url, project.path_with_namespace, as(alice)), "refs/heads/main"])).split("\t")[0];

  // A Developer may not push to the default branch (protected, Maintainers push).
  const dir = nextDir();
  await git.ok(["clone", cloneUrl(app.url, project.path_with_namespace, as(bob)), dir]);
  writeFileSync(path.join(dir, "bob.txt"), "bob\n");
  await git.ok(["add", "."], { cwd: dir });
  await git.ok(["commit", "-q", "-m", "Bob's change"], { cwd: dir });
  const denied = await git.run(["push", "origin", "main"], { cwd: dir });
  expect(denied.code).not.toBe(0);
  expect(denied.stderr).toContain("remote: GitLab: You are not allowed to push code to protected branches on this project.");
  // …but a branch of their own is fine.
  await git.ok(["push", "-q", "origin", "HEAD:bobs-branch"], { cwd: dir });

  // A Maintainer may push, but not rewrite history, nor delete the default branch.
  const mine = nextDir();
  await git.ok(["clone", cloneUrl(app.url, project.path_with_namespace, as(alice)), mine]);
  await git.ok(["commit", "-q", "--amend", "-m", "Rewritten"], { cwd: mine });
  const forced = await git.run(["push", "--force", "origin", "main"], { cwd: mine });
  expect(forced.code).not.toBe(0);
  expect(forced.stderr).toContain("remote: GitLab: You are not allowed to force push code to a protected branch on this project.");
  const deleted = await git.run(["push", "origin", ":main"], { cwd: mine });
  expect(deleted.code).not.toBe(0);
  expect(deleted.stderr).toContain("remote: GitLab: The default branch of a project cannot be deleted.");

  const after = (await git.ok(["ls-remote", cloneUrl(app.url, project.path_with_namespace, as(alice)), "refs/heads/main"])).split("\t")[0];
  expect(after).toBe(before);

  // With force pushes allowed on the branch, the Maintainer's rewrite goes through.
  assertStatus(await root.patch(`/projects/${project.id}/protected_branches/main`, { json: { allow_force_push: true } }), 200, "allow force push");
  await git.ok(["push", "-q", "--force", "origin", "main"], { cwd: mine });
});

test("a deploy token with read_repository clones but cannot push; a Guest cannot clone a private project", async () => {
  const alice = await createUser(app, "alice");
  const guest = await createUser(app, "guest");
  const project = await projectOf(alice, { name: "deployed", visibility: "private" });
  await addMember(app, "projects", project.id, guest.id, 10);
  const token = assertStatus(await alice.api.post(`/projects/${project.id}/deploy_tokens`, { json: { name: "ci", scopes: ["read_repository"] } }), 201, "deploy token").body as { username: string; token: string };

  const dir = nextDir();
  await git.ok(["clone", cloneUrl(app.url, project.path_with_namespace, { username: token.username, password: token.token }), dir]);
  expect(existsSync(path.join(dir, "README.md"))).toBe(true);
  writeFileSync(path.join(dir, "x.txt"), "x\n");
  await git.ok(["add", "."], { cwd: dir });
  await git.ok(["commit", "-q", "-m", "From a deploy token"], { cwd: dir });
  const push = await git.run(["push", "origin", "HEAD:deploy"], { cwd: dir });
  expect(push.code).not.toBe(0);
  expect(push.stderr).toContain("You are not allowed to push code to this project.");

  const denied = await git.run(["clone", cloneUrl(app.url, project.path_with_namespace, as(guest)), nextDir()]);
  expect(denied.code).not.toBe(0);
  expect(denied.stderr).toContain("You are not allowed to download code from this project.");
});

test("deleting a project removes its repository", async () => {
  const alice = await createUser(app, "alice");
  const project = await projectOf(alice, { name: "doomed" });
  const ref = { container_kind: "project" as const, container_id: project.id };
  const repo = await call(app.broker, Repositories.repositories.find, ref, onStorage(app.broker, "default"));
  expect(repo).toMatchObject({ storage: "default", exists: true });
  expect(repo!.disk_path).toMatch(/^@hashed\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.git$/);

  // Ultimate adjourns deletion: mark, then remove at once with the exact path.
  await alice.api.delete(`/projects/${project.id}`);
  assertStatus(await alice.api.delete(`/projects/${project.id}`, { query: { permanently_remove: "true", full_path: project.path_with_namespace } }), 202, "permanent removal");
  await eventually(async () => expect(await call(app.broker, Repositories.repositories.find, ref, onStorage(app.broker, "default"))).toBeNull());
  if (!app.distributed) {
    const folder = process.env.REPOSITORY_STORAGES!.replace(/^default:/, "");
    expect(existsSync(path.join(folder, repo!.disk_path))).toBe(false);
  }
  expect((await fetch(`${app.url}/${project.path_with_namespace}.git/info/refs?service=git-upload-pack`, { headers: { authorization: `Basic ${Buffer.from(`alice:${alice.token}`).toString("base64")}` } })).status).toBe(404);
});
