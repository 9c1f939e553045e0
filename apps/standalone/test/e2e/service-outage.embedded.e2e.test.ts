import { schemas as accountsSchemas } from "@collab/accounts";
import { apiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * A domain service going away and coming back, in process: the gateway answers 503 (never a stack
 * trace) and readiness fails meanwhile. The distributed pass kills real processes instead
 * (test/topology/replica-loss.dist.test.ts), so this file is embedded only.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startApp("service-outage");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const readiness = async () => {
  const res = await fetch(`${app.url}/-/readiness`);
  return { status: res.status, body: await res.json() };
};

test("while a service is down the API answers 503 and readiness fails; both recover", async () => {
  const root = apiClient(app.url, app.rootToken);
  await app.broker.destroyService(app.broker.getLocalService("accounts"));
  try {
    const ready = await readiness();
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: "failed", master_check: [{ status: "ok" }], accounts_check: [{ status: "failed", message: "no available node" }] });

    const res = await apiClient(app.url).get("/users", { query: { username: "root" } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: "503 Service Unavailable" });
    expect(res.text).not.toMatch(/\bat |Error|accounts/);
  } finally {
    app.broker.createService(accountsSchemas[0]);
    await app.broker.waitForServices("accounts", 10_000);
  }
  expect((await readiness()).status).toBe(200);
  expect((await root.get("/user")).status).toBe(200);
});
