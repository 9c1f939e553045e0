import { apiClient, createGroup, createProject, type ApiClient, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";

/**
 * Deletion on the Free tier: adjourned deletion is Premium, so DELETE removes groups and projects
 * at once (as GitLab's community edition does), the restore routes do not exist and the
 * marked_for_deletion_on list filter is ignored. The tier is read from LICENSE_TIER when the
 * services are created, so this file boots its own app.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  process.env.DELETION_PURGE_INTERVAL_MS ??= "0";
  app = await startAppOnTier("adjourned-deletion-free-tier", "free");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

test("DELETE removes a group with its subgroups and projects at once", async () => {
  const platform = await createGroup(root, "Platform", "platform");
  const backend = await createGroup(root, "Backend", "backend", { parent_id: platform.id });
  const project = await createProject(root, { name: "Api", namespace_id: backend.id });
  const res = await root.delete(`/groups/${platform.id}`);
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ message: "202 Accepted" });
  for (const id of [platform.id, backend.id]) expect((await root.get(`/groups/${id}`)).body).toEqual({ message: "404 Group Not Found" });
  expect((await root.get(`/projects/${project.id}`)).body).toEqual({ message: "404 Project Not Found" });
});

test("DELETE removes a project at once; permanently_remove changes nothing", async () => {
  const [first, second] = [await createProject(root, { name: "First" }), await createProject(root, { name: "Second" })];
  expect((await root.delete(`/projects/${first.id}`)).status).toBe(202);
  expect((await root.get(`/projects/${first.id}`)).status).toBe(404);
  expect((await root.delete(`/projects/${second.id}`, { query: { permanently_remove: true } })).status).toBe(202);
  expect((await root.get("/projects")).body).toEqual([]);
});

test("no restore routes, no marked_for_deletion_on filter", async () => {
  const group = await createGroup(root, "Platform", "platform");
  const project = await createProject(root, { name: "Api" });
  expect(await root.post(`/groups/${group.id}/restore`)).toMatchObject({ status: 404, body: { error: "404 Not Found" } });
  expect(await root.post(`/projects/${project.id}/restore`)).toMatchObject({ status: 404, body: { error: "404 Not Found" } });
  const today = new Date().toISOString().slice(0, 10);
  expect((await root.get("/groups", { query: { marked_for_deletion_on: today } })).body.map((g: { id: number }) => g.id)).toEqual([group.id]);
  expect((await root.get("/projects", { query: { marked_for_deletion_on: today } })).body.map((p: { id: number }) => p.id)).toEqual([project.id]);
  expect((await root.get(`/groups/${group.id}`)).body.marked_for_deletion_on).toBeNull();
});
