process.env.STORAGE_MOVE_TICK_MS ??= "0";
import { Admin } from "@collab/admin-contract";
import { call } from "@collab/core";
import { GitMessages } from "@collab/repositories-contract";
import { startApp } from "@collab/standalone/test/app";
import { apiClient, cloneUrl, createProject, createUser, GitClient, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import { writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Repository storage moves that move data, with the real git client through the gateway: the
 * destination's repositories replica copies the repository (by path in one process, as a bundle
 * streamed from the source's replica in the distributed pass, where `default` and `other` are
 * served by two replicas), verifies it, then the project switches and the source goes.
 */
let app: TestApp;
let git: GitClient;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("storage-moves");
  root = apiClient(app.url, app.rootToken);
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  expect((await root.put("/application/settings", { json: { repository_storages_weighted: { default: 100, other: 0, nowhere: 0 } } })).status).toBe(200);
});

const as = (user: TestUser) => ({ username: user.username, password: user.token });
let clones = 0;
const nextDir = () => git.dir(`clone-${++clones}`);

/** Every ref of a repository as `<sha> <ref>` lines, sorted (ls-remote through the gateway). */
const remoteRefs = async (url: string) => (await git.ok(["ls-remote", url])).trim().split("\n").sort();

/** Why a move waits or failed (not in the API: read from the admin service's table, for a failure's message). */
const errorOf = async (moveId: number) =>
  ((await app.database.db.execute(sql`SELECT error_message FROM admin.repository_storage_moves WHERE id = ${moveId}`)) as unknown as { rows: { error_message: string | null }[] }).rows[0]
    ?.error_message;

/** Polls the move through the API, stepping the admin worker between polls, until it reaches `state` (or another final one). */
async function moveUntil(projectId: number, moveId: number, state: string) {
  const url = `/projects/${projectId}/repository_storage_moves/${moveId}`;
  for (let i = 0; i < 50; i++) {
    const move = await root.get(url);
    if (move.body.state === state || ["finished", "failed", "cleanup failed"].includes(move.body.state)) return { ...move.body, error_message: await errorOf(moveId) };
    await call(app.broker, Admin.storageMoves.tick, {});
  }
  return { ...(await root.get(url)).body, error_message: await errorOf(moveId) };
}

/** A project with a README, two more branches and an annotated tag pushed with git. */
async function pushedProject(owner: TestUser, name: string) {
  const project = await createProject(owner.api, { name, initialize_with_readme: true });
  const url = cloneUrl(app.url, project.path_with_namespace, as(owner));
  const dir = nextDir();
  await git.ok(["clone", url, dir]);
  for (const branch of ["feature", "fix"]) {
    await git.ok(["switch", "-q", "-c", branch, "main"], { cwd: dir });
    writeFileSync(path.join(dir, `${branch}.txt`), `${branch}\n`);
    await git.ok(["add", "."], { cwd: dir });
    await git.ok(["commit", "-q", "-m", `Work on ${branch}`], { cwd: dir });
  }
  await git.ok(["tag", "-a", "v1.0", "-m", "Release 1.0", "feature"], { cwd: dir });
  await git.ok(["push", "-q", "origin", "feature", "fix", "v1.0"], { cwd: dir });
  return { project, url, dir };
}

test("a project moves to the other storage with every ref; pushes are refused meanwhile and accepted after", async () => {
  const alice = await createUser(app, "alice");
  const { project, url, dir } = await pushedProject(alice, "mover");
  const before = await remoteRefs(url);
  expect(before.map((l) => l.split("\t")[1]).sort()).toEqual(["HEAD", "refs/heads/feature", "refs/heads/fix", "refs/heads/main", "refs/tags/v1.0", "refs/tags/v1.0^{}"]);

  const created = await root.post(`/projects/${project.id}/repository_storage_moves`, { json: { destination_storage_name: "other" } });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ state: "scheduled", source_storage_name: "default", destination_storage_name: "other" });

  // Read-only while it moves: git shows GitLab's reason.
  writeFileSync(path.join(dir, "late.txt"), "late\n");
  await git.ok(["add", "."], { cwd: dir });
  await git.ok(["commit", "-q", "-m", "During the move"], { cwd: dir });
  const refused = await git.run(["push", "origin", "fix"], { cwd: dir });
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain(GitMessages.readOnly);

  const move = await moveUntil(project.id, created.body.id, "finished");
  expect(move).toMatchObject({ state: "finished", destination_storage_name: "other", error_message: null });
  expect((await root.get(`/projects/${project.id}`)).body.repository_storage).toBe("other");

  // A fresh clone from the new home holds every ref, pointing where it did.
  expect(await remoteRefs(url)).toEqual(before);
  const copy = nextDir();
  await git.ok(["clone", "--mirror", url, copy]);
  const mirrored = (await git.ok(["for-each-ref", "--format=%(objectname) %(refname)"], { cwd: copy })).trim().split("\n").sort();
  const local = (await git.ok(["for-each-ref", "--format=%(objectname) %(refname)", "refs/tags", "refs/remotes/origin"], { cwd: dir }))
    .trim()
    .split("\n")
    .filter((l) => !l.endsWith("/HEAD"))
    .map((l) => l.replace(" refs/remotes/origin/", " refs/heads/"))
    .sort();
  expect(mirrored).toEqual(local);
  await git.ok(["fsck", "--no-progress"], { cwd: copy });

  // Writable again: the push refused during the move goes through now.
  await git.ok(["push", "-q", "origin", "fix"], { cwd: dir });
  expect((await git.ok(["ls-remote", url, "refs/heads/fix"])).split("\t")[0]).toBe((await git.ok(["rev-parse", "fix"], { cwd: dir })).trim());
});

test("a move to a storage no replica serves fails; the project stays cloneable and writable on its old storage", async () => {
  const alice = await createUser(app, "alice");
  const { project, url, dir } = await pushedProject(alice, "stayer");
  const before = await remoteRefs(url);

  const created = await root.post(`/projects/${project.id}/repository_storage_moves`, { json: { destination_storage_name: "nowhere" } });
  expect(created.status).toBe(201);
  const move = await moveUntil(project.id, created.body.id, "failed");
  expect(move).toMatchObject({ state: "failed", source_storage_name: "default", destination_storage_name: "nowhere", error_message: "repository storage nowhere is not served by any repositories replica" });
  expect((await root.get(`/projects/${project.id}`)).body.repository_storage).toBe("default");

  const clone = nextDir();
  await git.ok(["clone", url, clone]);
  expect(await remoteRefs(url)).toEqual(before);
  writeFileSync(path.join(dir, "after.txt"), "after\n");
  await git.ok(["add", "."], { cwd: dir });
  await git.ok(["commit", "-q", "-m", "After the failed move"], { cwd: dir });
  await git.ok(["push", "-q", "origin", "fix"], { cwd: dir });
});
