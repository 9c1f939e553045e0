import { startApp } from "@collab/standalone/test/app";
import { cloneUrl, createProject, createUser, eventually, GitClient, type TestApp, type TestUser } from "@collab/testing";
import { writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A project created without a README has an empty repository and no default branch; the first
 * branch pushed with the real git client makes it non-empty and becomes its default branch, as
 * GitLab's first push does. The project API shows both.
 */
let app: TestApp;
let git: GitClient;
beforeAll(async () => {
  app = await startApp("first-push");
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});
beforeEach(() => app.reset());

const as = (user: TestUser) => ({ username: user.username, password: user.token });
let dirs = 0;

/** A local repository with one commit on `branch`, its origin the project. */
async function localRepository(user: TestUser, fullPath: string, branch: string): Promise<string> {
  const dir = git.dir(`work-${++dirs}`);
  await git.ok(["init", "-q", "-b", branch, dir]);
  writeFileSync(path.join(dir, "app.txt"), "hello\n");
  await git.ok(["add", "."], { cwd: dir });
  await git.ok(["commit", "-q", "-m", "First"], { cwd: dir });
  await git.ok(["remote", "add", "origin", cloneUrl(app.url, fullPath, as(user))], { cwd: dir });
  return dir;
}

test("the first branch pushed to an empty project makes it non-empty and its default branch; later pushes keep it", async () => {
  const alice = await createUser(app, "alice");
  const project = await createProject(alice.api, { name: "blank", visibility: "private" });
  const before = await alice.api.get(`/projects/${project.id}`);
  expect(before.body).toMatchObject({ empty_repo: true, default_branch: null });

  const dir = await localRepository(alice, project.path_with_namespace, "trunk");
  await git.ok(["push", "-q", "origin", "trunk"], { cwd: dir });
  await eventually(async () => expect((await alice.api.get(`/projects/${project.id}`)).body).toMatchObject({ empty_repo: false, default_branch: "trunk" }));

  // Another branch pushed later is not the default; a clone checks out the default.
  await git.ok(["push", "-q", "origin", "trunk:other"], { cwd: dir });
  const clone = git.dir(`clone-${++dirs}`);
  await git.ok(["clone", "-q", cloneUrl(app.url, project.path_with_namespace, as(alice)), clone]);
  expect((await git.ok(["branch", "--show-current"], { cwd: clone })).trim()).toBe("trunk");
  expect((await alice.api.get(`/projects/${project.id}`)).body).toMatchObject({ empty_repo: false, default_branch: "trunk" });
});

test("a removed branch changes nothing: a project whose only pushed branch was deleted is still not empty", async () => {
  const alice = await createUser(app, "alice");
  const project = await createProject(alice.api, { name: "again", visibility: "private" });
  const dir = await localRepository(alice, project.path_with_namespace, "main");
  await git.ok(["push", "-q", "origin", "main"], { cwd: dir });
  await eventually(async () => expect((await alice.api.get(`/projects/${project.id}`)).body).toMatchObject({ empty_repo: false, default_branch: "main" }));
  await git.ok(["push", "-q", "origin", "main:scratch"], { cwd: dir });
  await git.ok(["push", "-q", "origin", "--delete", "scratch"], { cwd: dir });
  const after = await alice.api.get(`/projects/${project.id}`);
  expect(after.body).toMatchObject({ empty_repo: false, default_branch: "main" });
});
