import { apiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

let app: TestApp;
beforeAll(async () => {
  app = await startApp("smoke");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

test("root can read itself", async () => {
  const api = apiClient(app.url, app.rootToken);
  const res = await api.get("/user");
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ id: 1, username: "root", is_admin: true });
});
