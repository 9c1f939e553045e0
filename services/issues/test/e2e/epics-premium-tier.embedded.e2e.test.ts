import { apiClient, assertStatus as ok, type ApiClient, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";

/** On Premium, epics exist but child epics are Ultimate: they can be listed and unassigned, not added. */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startAppOnTier("epics-premium-tier", "premium");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

test("epics work; adding or creating a child epic is 403", async () => {
  const group = ok(await root.post("/groups", { json: { name: "Team", path: "team" } }), 201, "group").body;
  const E = `/groups/${group.id}/epics`;
  const parent = ok(await root.post(E, { json: { title: "Roadmap" } }), 201, "epic").body;
  const other = ok(await root.post(E, { json: { title: "Loose" } }), 201, "epic").body;
  expect(await root.post(`${E}/${parent.iid}/epics/${other.id}`).then((r) => [r.status, r.body])).toEqual([403, { message: "403 Forbidden" }]);
  expect((await root.post(`${E}/${parent.iid}/epics`, { json: { title: "Child" } })).status).toBe(403);
  expect(ok(await root.get(`${E}/${parent.iid}/epics`), 200, "children").body).toEqual([]);
  expect(ok(await root.get(E), 200, "epics").body).toHaveLength(2);
});
