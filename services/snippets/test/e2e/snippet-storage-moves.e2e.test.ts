import { Repositories } from "@collab/repositories-contract";
import { Admin } from "@collab/admin-contract";
import { call } from "@collab/core";
import { apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/** Administrators move snippets between repository storages as they move projects (the admin service's storage moves). */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("snippet-storage-moves");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const tickUntil = async (path: string, state: string) => {
  for (let i = 0; i < 10; i++) {
    const move = await root.get(path);
    if (move.body.state === state) return move;
    await call(app.broker, Admin.storageMoves.tick, {});
  }
  return root.get(path);
};

test("a snippet moves: read-only meanwhile, on its new storage after, the move embedding it", async () => {
  expect((await root.put("/application/settings", { json: { repository_storages_weighted: { default: 100, other: 0 } } })).status).toBe(200);
  const alice = await createGitbeakerUser(app, "alice");
  const project = await alice.gl.Projects.create({ name: "Tools", visibility: "private" });
  const projectSnippet = await alice.gl.ProjectSnippets.create(project.id, "Deploy", { visibility: "private", fileName: "d.sh", content: "run" } as never);
  const personal = await alice.gl.Snippets.create("Mine", { fileName: "m.txt", content: "m" } as never);
  const mine = apiClient(app.url, alice.token);

  expect((await mine.post(`/snippets/${personal.id}/repository_storage_moves`, { json: { destination_storage_name: "other" } })).status).toBe(403);
  expect((await root.post("/snippets/999999/repository_storage_moves", { json: { destination_storage_name: "other" } })).body).toEqual({ message: "404 Snippet Not Found" });
  const move = await root.post(`/snippets/${personal.id}/repository_storage_moves`, { json: { destination_storage_name: "other" } });
  expect(move.status).toBe(201);
  expect(move.body).toMatchObject({
    state: "scheduled",
    source_storage_name: "default",
    destination_storage_name: "other",
    snippet: { id: personal.id, title: "Mine", project_id: null, web_url: personal.web_url },
  });
  expect((await root.post(`/snippets/${personal.id}/repository_storage_moves`, { json: { destination_storage_name: "other" } })).body).toEqual({ message: { snippet: ["is read-only"] } });

  const readOnly = { status: 403, body: { message: "403 Forbidden - The repository is temporarily read-only. Please try again later." } };
  expect(await mine.put(`/snippets/${personal.id}`, { json: { title: "during" } })).toMatchObject(readOnly);
  expect(await mine.delete(`/snippets/${personal.id}`)).toMatchObject(readOnly);
  expect((await mine.get(`/snippets/${personal.id}/raw`)).text).toBe("m");

  const finished = await tickUntil(`/snippets/${personal.id}/repository_storage_moves/${move.body.id}`, "finished");
  expect(finished.body.state).toBe("finished");
  expect((await root.get(`/snippets/${personal.id}`)).body.repository_storage).toBe("other");
  expect((await mine.put(`/snippets/${personal.id}`, { json: { title: "after" } })).status).toBe(200);
  // The repository moved with it: its record names the new storage, and a file edit commits there.
  expect(await call(app.broker, Repositories.repositories.find, { container_kind: "snippet", container_id: personal.id })).toMatchObject({ storage: "other" });
  expect((await mine.put(`/snippets/${personal.id}`, { json: { content: "moved" } })).status).toBe(200);
  expect((await mine.get(`/snippets/${personal.id}/raw`)).text).toBe("moved");

  // Bulk: every writable snippet still on the source (the project's), 202.
  expect((await root.post("/snippet_repository_storage_moves", { json: { source_storage_name: "default", destination_storage_name: "other" } })).status).toBe(202);
  const all = await root.get("/snippet_repository_storage_moves");
  expect(all.body.map((m: { snippet: { id: number } }) => m.snippet.id).sort()).toEqual([personal.id, projectSnippet.id].sort());
  const bulkMove = all.body.find((m: { snippet: { id: number } }) => m.snippet.id === projectSnippet.id);
  expect(await mine.put(`/projects/${project.id}/snippets/${projectSnippet.id}`, { json: { title: "during" } })).toMatchObject(readOnly);
  expect((await tickUntil(`/snippet_repository_storage_moves/${bulkMove.id}`, "finished")).body.state).toBe("finished");
  expect((await root.get(`/projects/${project.id}/snippets/${projectSnippet.id}`)).body.repository_storage).toBe("other");
  expect((await root.get(`/snippets/${projectSnippet.id}/repository_storage_moves`)).body.map((m: { id: number }) => m.id)).toEqual([bulkMove.id]);
});
