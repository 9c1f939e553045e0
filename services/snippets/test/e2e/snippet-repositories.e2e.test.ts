import { call, parseRepositoryStorages } from "@collab/core";
import { onStorage, Repositories } from "@collab/repositories-contract";
import { apiClient, assertStatus, eventually, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";
import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * Each snippet has a git repository on its storage (as GitLab keeps them): its files are the
 * author's first commit on `main`, every change of files is a commit, and the repository goes
 * with the snippet. Read here with git on the storage's folder, as an operator would.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startApp("snippet-repositories");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const ref = (id: number) => ({ container_kind: "snippet" as const, container_id: id });
const findRepository = (id: number) => call(app.broker, Repositories.repositories.find, ref(id), onStorage(app.broker, "default"));

/**
 * A storage's folder: this process's REPOSITORY_STORAGES, or in the distributed pass the folder
 * of the topology's repositories replica serving `default` (scripts/topology.js: replica 1).
 */
const storageFolder = (storage: string): string =>
  app.distributed ? path.join(process.env.TEST_TOPOLOGY_LOG_DIR!, "repositories-1") : parseRepositoryStorages(process.env.REPOSITORY_STORAGES!).get(storage)!;

/** git run on a snippet's bare repository, where the repositories service keeps it. */
async function gitOn(id: number) {
  const repo = await findRepository(id);
  expect(repo).toMatchObject({ storage: "default", exists: true });
  const dir = path.join(storageFolder(repo!.storage), repo!.disk_path);
  return (...args: string[]) => execFileSync("git", ["--git-dir", dir, ...args], { encoding: "utf8", env: { PATH: process.env.PATH, LC_ALL: "C" } });
}

test("a personal snippet's files are its repository's first commit on main, by its author; its storage is the repository's", async () => {
  const alice = await createGitbeakerUser(app, "alice", { name: "Alice Liddell" });
  const snippet = await alice.gl.Snippets.create("Scripts", {
    visibility: "private",
    files: [
      { file_path: "run.sh", content: "#!/bin/sh\necho run\n" },
      { file_path: "conf/app.env", content: "MODE=dev\n" },
    ],
  } as never);

  const git = await gitOn(snippet.id);
  expect(git("log", "--format=%an <%ae>|%s", "main").trim()).toBe("Alice Liddell <alice@example.com>|Initial commit");
  expect(git("ls-tree", "-r", "--name-only", "main").trim().split("\n")).toEqual(["conf/app.env", "run.sh"]);
  expect(git("show", "main:run.sh")).toBe("#!/bin/sh\necho run\n");
  expect(git("symbolic-ref", "HEAD").trim()).toBe("refs/heads/main");

  // What administrators see of the snippet's storage is where the repository is.
  const admin = await apiClient(app.url, app.rootToken).get(`/snippets/${snippet.id}`);
  expect(admin.body).toMatchObject({ id: snippet.id, repository_storage: (await findRepository(snippet.id))!.storage });
});

test("each change of a project snippet's files is a commit on main: create, update, move, delete; a title change commits nothing", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const project = await alice.gl.Projects.create({ name: "Tools", visibility: "private" });
  const snippet = await alice.gl.ProjectSnippets.create(project.id, "Deploy", {
    visibility: "private",
    files: [
      { file_path: "deploy.sh", content: "v1\n" },
      { file_path: "old.txt", content: "old\n" },
      { file_path: "gone.txt", content: "gone\n" },
    ],
  } as never);
  const git = await gitOn(snippet.id);

  await alice.gl.ProjectSnippets.edit(project.id, snippet.id, {
    files: [
      { action: "update", file_path: "deploy.sh", content: "v2\n" },
      { action: "move", previous_path: "old.txt", file_path: "docs/new.txt" },
      { action: "delete", file_path: "gone.txt" },
      { action: "create", file_path: "added.md", content: "# added\n" },
    ],
  } as never);
  expect(git("log", "--format=%s", "main").trim().split("\n")).toEqual(["Update snippet", "Initial commit"]);
  expect(git("ls-tree", "-r", "--name-only", "main").trim().split("\n")).toEqual(["added.md", "deploy.sh", "docs/new.txt"]);
  expect(git("show", "main:deploy.sh")).toBe("v2\n");
  expect(git("show", "main:docs/new.txt")).toBe("old\n");

  // The single-file form renames and rewrites the first file.
  await alice.gl.ProjectSnippets.edit(project.id, snippet.id, { fileName: "ship.sh", content: "v3\n" } as never);
  expect(git("show", "main:ship.sh")).toBe("v3\n");
  expect(git("ls-tree", "-r", "--name-only", "main").trim().split("\n")).toEqual(["added.md", "docs/new.txt", "ship.sh"]);

  await alice.gl.ProjectSnippets.edit(project.id, snippet.id, { title: "Ship it" });
  expect(git("rev-list", "--count", "main").trim()).toBe("3");
  // The API still shows the files as they are in git.
  const shown = await alice.gl.ProjectSnippets.show(project.id, snippet.id);
  expect((shown as { files: { path: string }[] }).files.map((f) => f.path).sort()).toEqual(["added.md", "docs/new.txt", "ship.sh"]);
});

test("a path git refuses is a 400 that changes neither the snippet nor its repository", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const snippet = await alice.gl.Snippets.create("Mine", { fileName: "a.txt", content: "a" } as never);
  const git = await gitOn(snippet.id);
  const head = git("rev-parse", "main").trim();

  expect(await failureStatus(alice.gl.Snippets.edit(snippet.id, { files: [{ action: "create", file_path: "sub/.git/config", content: "x" }] } as never))).toBe(400);
  expect(git("rev-parse", "main").trim()).toBe(head);
  expect((await alice.gl.Snippets.show(snippet.id)) as unknown).toMatchObject({ files: [{ path: "a.txt" }] });

  // Nor is a snippet created with such a path, nor its repository.
  const before = (await alice.gl.Snippets.all()).length;
  expect(await failureStatus(alice.gl.Snippets.create("Bad", { files: [{ file_path: "x/.git/HEAD", content: "x" }] } as never))).toBe(400);
  expect((await alice.gl.Snippets.all()).length).toBe(before);
});

test("a deleted snippet's repository goes, and so do a deleted project's snippets' repositories", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const personal = await alice.gl.Snippets.create("Mine", { fileName: "m.txt", content: "m" } as never);
  const project = await alice.gl.Projects.create({ name: "Doomed", visibility: "private" });
  const projectSnippet = await alice.gl.ProjectSnippets.create(project.id, "Deploy", { visibility: "private", fileName: "d.sh", content: "run" } as never);
  expect(await findRepository(projectSnippet.id)).toMatchObject({ exists: true });

  await alice.gl.Snippets.remove(personal.id);
  await eventually(async () => expect(await findRepository(personal.id)).toBeNull());

  // Ultimate adjourns deletion: mark, then remove at once with the exact path.
  const api = apiClient(app.url, alice.token);
  await api.delete(`/projects/${project.id}`);
  assertStatus(await api.delete(`/projects/${project.id}`, { query: { permanently_remove: "true", full_path: project.path_with_namespace } }), 202, "permanent removal");
  await eventually(async () => expect(await findRepository(projectSnippet.id)).toBeNull(), { timeoutMs: 20_000 });
});
