import { apiClient, createUserAccount, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * The dead-letter admin API in every pass: administrators only; an unknown letter is 404. In one
 * process there is no JetStream and so no dead letters (failing events wait in their outbox);
 * listing, replaying and deleting real letters: test/topology/dead-letters.dist.test.ts.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startApp("dead-letters");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

test("administrators only; an unknown letter is 404", async () => {
  const root = apiClient(app.url, app.rootToken);
  const list = await root.get("/admin/dead_letters");
  expect(list.status).toBe(200);
  expect(Array.isArray(list.body)).toBe(true);
  if (!app.distributed) expect(list.body).toEqual([]);
  expect(list.headers.get("x-total")).toBe(String(list.body.length));

  for (const [method, path] of [["get", "/admin/dead_letters/987654321"], ["post", "/admin/dead_letters/987654321/replay"], ["delete", "/admin/dead_letters/987654321"]] as const) {
    const res = await root[method](path);
    expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 404, body: { message: "404 Not found" } });
  }
  expect((await root.get("/admin/dead_letters/abc")).status).toBe(400);

  const bob = await createUserAccount(app, "bob");
  const token = await root.post(`/users/${bob.id}/personal_access_tokens`, { json: { name: "t", scopes: ["api"] } });
  const asBob = apiClient(app.url, token.body.token);
  for (const [method, path] of [["get", "/admin/dead_letters"], ["post", "/admin/dead_letters/replay"], ["delete", "/admin/dead_letters/1"]] as const)
    expect({ path, status: (await asBob[method](path)).status }).toEqual({ path, status: 403 });
  expect((await apiClient(app.url).get("/admin/dead_letters")).status).toBe(401);
});
