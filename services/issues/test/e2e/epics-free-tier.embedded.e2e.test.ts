import { apiClient, assertStatus as ok, type ApiClient, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";

/** On the Free tier (GitLab CE) the epics API does not exist: every route is the catch-all 404. */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startAppOnTier("epics-free-tier", "free");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

test("epic routes answer 404 Not Found and create nothing", async () => {
  const group = ok(await root.post("/groups", { json: { name: "Team", path: "team" } }), 201, "group").body;
  const E = `/groups/${group.id}/epics`;
  const notFound = { error: "404 Not Found" };
  expect(await root.post(E, { json: { title: "Roadmap" } }).then((r) => [r.status, r.body])).toEqual([404, notFound]);
  expect(await root.get(E).then((r) => [r.status, r.body])).toEqual([404, notFound]);
  expect(await root.get(`${E}/1`).then((r) => [r.status, r.body])).toEqual([404, notFound]);
  expect(await root.put(`${E}/1`, { json: { title: "x" } }).then((r) => [r.status, r.body])).toEqual([404, notFound]);
  expect(await root.delete(`${E}/1`).then((r) => [r.status, r.body])).toEqual([404, notFound]);
  expect(await root.get(`${E}/1/epics`).then((r) => [r.status, r.body])).toEqual([404, notFound]);
  expect(await root.post(`${E}/1/epics`, { json: { title: "Child" } }).then((r) => [r.status, r.body])).toEqual([404, notFound]);
});

test("epic notes, discussions and state events answer 404 Not Found and write nothing", async () => {
  const group = ok(await root.post("/groups", { json: { name: "Team", path: "team" } }), 201, "group").body;
  const E = `/groups/${group.id}/epics/1`;
  const notFound = { error: "404 Not Found" };
  const answers = (res: Promise<{ status: number; body: unknown }>) => res.then((r) => [r.status, r.body]);
  expect(await answers(root.get(`${E}/notes`))).toEqual([404, notFound]);
  expect(await answers(root.post(`${E}/notes`, { json: { body: "hello" } }))).toEqual([404, notFound]);
  expect(await answers(root.get(`${E}/notes/1`))).toEqual([404, notFound]);
  expect(await answers(root.put(`${E}/notes/1`, { json: { body: "x" } }))).toEqual([404, notFound]);
  expect(await answers(root.delete(`${E}/notes/1`))).toEqual([404, notFound]);
  expect(await answers(root.get(`${E}/discussions`))).toEqual([404, notFound]);
  expect(await answers(root.post(`${E}/discussions`, { json: { body: "thread" } }))).toEqual([404, notFound]);
  expect(await answers(root.post(`${E}/discussions/abc/notes`, { json: { body: "reply" } }))).toEqual([404, notFound]);
  expect(await answers(root.get(`${E}/resource_state_events`))).toEqual([404, notFound]);
  expect(await answers(root.get(`${E}/resource_state_events/1`))).toEqual([404, notFound]);
});

test("epic issue routes answer 404 Not Found to everyone, and issues know no epic", async () => {
  const group = ok(await root.post("/groups", { json: { name: "Team", path: "team" } }), 201, "group").body;
  const project = ok(await root.post("/projects", { json: { name: "app", namespace_id: group.id } }), 201, "project").body;
  const E = `/groups/${group.id}/epics/1/issues`;
  const notFound = { error: "404 Not Found" };
  for (const client of [root, apiClient(app.url)]) {
    expect(await client.get(E).then((r) => [r.status, r.body])).toEqual([404, notFound]);
    expect(await client.post(`${E}/1`).then((r) => [r.status, r.body])).toEqual([404, notFound]);
    expect(await client.put(`${E}/1`, { json: { move_after_id: 2 } }).then((r) => [r.status, r.body])).toEqual([404, notFound]);
    expect(await client.delete(`${E}/1`).then((r) => [r.status, r.body])).toEqual([404, notFound]);
  }
  // GitLab CE ignores the epic params of an issue write and shows no epic fields.
  const issue = ok(await root.post(`/projects/${project.id}/issues`, { json: { title: "Plain", epic_id: 1 } }), 201, "issue").body;
  expect(["epic", "epic_iid"].filter((k) => k in issue)).toEqual([]);
  expect(ok(await root.put(`/projects/${project.id}/issues/1`, { json: { title: "Still plain", epic_iid: 1 } }), 200, "edit").body.title).toBe("Still plain");
});
