import { Repositories } from "@collab/repositories-contract";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus, type GitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";
import { apiClient, eventually, watchEvents, type TestApp } from "@collab/testing";
import { createHash } from "node:crypto";

/**
 * GitLab's repository files API on real repositories through @gitbeaker/rest: a file with its
 * metadata (and the X-Gitlab-* headers, on HEAD too), raw, blamed, created, updated (refused when
 * last_commit_id is stale) and deleted, paths URL-encoded as GitLab's; and what each role may do.
 */
let app: TestApp;
let alice: GitbeakerUser;
let guest: GitbeakerUser;
let reporter: GitbeakerUser;
let developer: GitbeakerUser;
let outsider: GitbeakerUser;
let projectId: number;

beforeAll(async () => {
  app = await startApp("content-files");
});
afterAll(() => app.stop());

beforeEach(async () => {
  await app.reset();
  [alice, guest, reporter, developer, outsider] = await Promise.all(["alice", "guest", "reporter", "developer", "outsider"].map((u) => createGitbeakerUser(app, u)));
  projectId = (await alice.gl.Projects.create({ name: "files", visibility: "private", initializeWithReadme: true })).id as number;
  for (const [user, level] of [[guest, 10], [reporter, 20], [developer, 30]] as const) await alice.gl.ProjectMembers.add(projectId, level, { userId: user.id });
  await alice.gl.ProtectedBranches.unprotect(projectId, "main");
});

type FileAnswer = { file_name: string; file_path: string; size: number; encoding: string; content: string; content_sha256: string; ref: string; blob_id: string; commit_id: string; last_commit_id: string; execute_filemode: boolean };

/** The status and message of a gitbeaker failure (gitbeaker keeps the error's message as the cause's description). */
async function failureBody(call: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await call;
  } catch (err) {
    const cause = (err as { cause?: { response?: Response; description?: string } }).cause;
    if (!cause?.response) throw err;
    return { status: cause.response.status, body: { message: cause.description } };
  }
  throw new Error("expected a failure");
}

test("create, show, raw, blame, update and delete a file in a folder; each write a commit announced as a push", async () => {
  const watch = await watchEvents(app, [Repositories.events.branchPushed]);
  const path = "docs/guide/été.md";
  expect(await developer.gl.RepositoryFiles.create(projectId, path, "main", "line 1\nline 2\n", "Add the guide")).toEqual({ file_path: path, branch: "main" });
  const created = (await alice.gl.Commits.show(projectId, "main")) as unknown as { id: string; title: string };
  expect(created.title).toBe("Add the guide");

  const file = (await reporter.gl.RepositoryFiles.show(projectId, path, "main")) as unknown as FileAnswer;
  expect(file).toEqual({
    file_name: "été.md",
    file_path: path,
    size: 14,
    encoding: "base64",
    content: Buffer.from("line 1\nline 2\n").toString("base64"),
    content_sha256: createHash("sha256").update("line 1\nline 2\n").digest("hex"),
    ref: "main",
    blob_id: expect.stringMatching(/^[0-9a-f]{40}$/),
    commit_id: created.id,
    last_commit_id: created.id,
    execute_filemode: false,
  });
  expect(await reporter.gl.RepositoryFiles.showRaw(projectId, path, "main")).toBe("line 1\nline 2\n");

  // The same file through the raw API, its path URL-encoded as GitLab documents, and by HEAD.
  const api = apiClient(app.url, reporter.token);
  const encoded = encodeURIComponent(path);
  const head = await api.head(`/projects/${projectId}/repository/files/${encoded}`, { query: { ref: "main" } });
  expect(head.status).toBe(200);
  expect(head.text).toBe("");
  expect(head.headers.get("x-gitlab-blob-id")).toBe(file.blob_id);
  expect(head.headers.get("x-gitlab-last-commit-id")).toBe(created.id);
  expect(head.headers.get("x-gitlab-size")).toBe("14");
  expect(Buffer.from(head.headers.get("x-gitlab-file-path")!, "latin1").toString("utf8")).toBe(path);
  const raw = await api.get(`/projects/${projectId}/repository/files/${encoded}/raw`);
  expect(raw.status).toBe(200);
  expect(raw.text).toBe("line 1\nline 2\n");
  expect(raw.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(raw.headers.get("content-disposition")).toMatch(/^inline; filename=/);
  expect(raw.headers.get("x-gitlab-commit-id")).toBe(created.id);
  expect((await api.get(`/projects/${projectId}/repository/files/${encoded}`)).status).toBe(400); // ref is required
  expect((await api.get(`/projects/${projectId}/repository/files/missing.md`, { query: { ref: "main" } })).body).toEqual({ message: "404 File Not Found" });
  expect((await api.get(`/projects/${projectId}/repository/files/${encoded}`, { query: { ref: "nope" } })).body).toEqual({ message: "404 Commit Not Found" });

  expect(await alice.gl.RepositoryFiles.edit(projectId, path, "main", "line 1\nline two\nline 3\n", "Edit the guide", { lastCommitId: created.id })).toEqual({ file_path: path, branch: "main" });
  const edited = (await alice.gl.Commits.show(projectId, "main")) as unknown as { id: string };
  expect(await failureBody(developer.gl.RepositoryFiles.edit(projectId, path, "main", "stale", "Stale edit", { lastCommitId: created.id }))).toEqual({
    status: 400,
    body: { message: "You are attempting to update a file that has changed since you started editing it." },
  });

  const blame = (await reporter.gl.RepositoryFiles.allFileBlames(projectId, path, "main")) as unknown as { commit: { id: string; author_name: string }; lines: string[] }[];
  expect(blame.map((r) => [r.commit.id, r.lines])).toEqual([
    [created.id, ["line 1"]],
    [edited.id, ["line two", "line 3"]],
  ]);
  expect(blame[0].commit.author_name).toBe("Developer");
  const ranged = (await reporter.gl.RepositoryFiles.allFileBlames(projectId, path, "main", { range: { start: 2, end: 2 } } as never)) as unknown as { lines: string[] }[];
  expect(ranged.map((r) => r.lines)).toEqual([["line two"]]);
  expect((await api.get(`/projects/${projectId}/repository/files/${encoded}/blame`, { query: { ref: "main", "range[start]": 5, "range[end]": 9 } })).status).toBe(400);

  await alice.gl.RepositoryFiles.remove(projectId, path, "main", "Remove the guide");
  expect(await failureStatus(reporter.gl.RepositoryFiles.show(projectId, path, "main"))).toBe(404);
  expect(await reporter.gl.RepositoryFiles.showRaw(projectId, path, edited.id)).toBe("line 1\nline two\nline 3\n");

  await eventually(() => expect(watch.seen.filter((e) => e.payload.projectId === projectId).map((e) => e.payload.commitTitle)).toEqual(["Add the guide", "Edit the guide", "Remove the guide"]));
  await watch.stop();
});

test("GitLab's 400s: a file that exists, one that does not, base64 content, a new branch from start_branch", async () => {
  expect(await failureBody(developer.gl.RepositoryFiles.create(projectId, "README.md", "main", "x", "Again"))).toEqual({ status: 400, body: { message: "A file with this name already exists" } });
  expect(await failureBody(developer.gl.RepositoryFiles.edit(projectId, "missing.md", "main", "x", "Edit"))).toEqual({ status: 400, body: { message: "A file with this name doesn't exist" } });
  expect(await failureBody(developer.gl.RepositoryFiles.remove(projectId, "missing.md", "main", "Remove"))).toEqual({ status: 400, body: { message: "A file with this name doesn't exist" } });

  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]);
  await developer.gl.RepositoryFiles.create(projectId, "img/logo.png", "assets", bytes.toString("base64"), "Add a logo", { encoding: "base64", startBranch: "main", executeFilemode: true } as never);
  const logo = (await developer.gl.RepositoryFiles.show(projectId, "img/logo.png", "assets")) as unknown as FileAnswer;
  expect(Buffer.from(logo.content, "base64")).toEqual(bytes);
  expect(logo.execute_filemode).toBe(true);
  expect(await failureStatus(developer.gl.RepositoryFiles.show(projectId, "img/logo.png", "main"))).toBe(404);
  const raw = await apiClient(app.url, developer.token).get(`/projects/${projectId}/repository/files/img%2Flogo.png/raw`, { query: { ref: "assets" } });
  expect(raw.headers.get("content-type")).toBe("application/octet-stream");
});

test("who may read and write files: Reporters read, Developers write; Guests 403 on a private project, outsiders 404, protected branches kept", async () => {
  expect(await failureStatus(guest.gl.RepositoryFiles.show(projectId, "README.md", "main"))).toBe(403);
  expect(await failureStatus(outsider.gl.RepositoryFiles.show(projectId, "README.md", "main"))).toBe(404);
  expect((await apiClient(app.url).get(`/projects/${projectId}/repository/files/README.md/raw`)).status).toBe(404);
  expect(await failureStatus(reporter.gl.RepositoryFiles.create(projectId, "r.md", "main", "r", "Reporter"))).toBe(403);
  expect(await failureStatus(outsider.gl.RepositoryFiles.create(projectId, "o.md", "main", "o", "Outsider"))).toBe(404);
  await alice.gl.ProtectedBranches.protect(projectId, "stable", { pushAccessLevel: 40 } as never);
  await alice.gl.RepositoryFiles.create(projectId, "s.md", "stable", "s", "Stable", { startBranch: "main" } as never);
  expect(await failureBody(developer.gl.RepositoryFiles.edit(projectId, "s.md", "stable", "d", "Developer"))).toEqual({ status: 403, body: { message: "403 Forbidden - You are not allowed to push into this branch" } });
  expect(await alice.gl.RepositoryFiles.showRaw(projectId, "s.md", "stable")).toBe("s");
});
