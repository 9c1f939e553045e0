import { apiClient, createUserAccount, eventually, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { topologyControl } = require("../../../../scripts/topology.js") as {
  topologyControl(dir: string): {
    startNode(service: string, replica: number, opts?: { ready?: boolean }): Promise<number>;
    stopPid(pid: number): Promise<void>;
    pidOf(service: string, replica: number): number;
    healthUrl(service: string, replica: number): string;
  };
};

/**
 * Distributed pass only: a service away while the others go on. Users' deletions are durable
 * events, so namespaces applies one it missed; a process started while admin is away waits for
 * the administrator's settings instead of acting on defaults.
 */
let app: TestApp;
let root: ApiClient;
const control = () => topologyControl(process.env.TEST_TOPOLOGY_LOG_DIR!);

beforeAll(async () => {
  app = await startApp("service-restarts");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** Stops a single-replica service and answers what starts it again (idempotent: safe in finally). */
async function stopService(service: string) {
  await control().stopPid(control().pidOf(service, 1));
  let started = false;
  return async (opts?: { ready?: boolean }) => {
    if (started) return;
    started = true;
    await control().startNode(service, 1, opts);
  };
}

test("a user deleted while namespaces is stopped loses their memberships once it is back", async () => {
  const bob = await createUserAccount(app, "bob");
  const project = await root.post("/projects", { json: { name: "Membership" } });
  expect(project.status).toBe(201);
  expect((await root.post(`/projects/${project.body.id}/members`, { json: { user_id: bob.id, access_level: 30 } })).status).toBe(201);

  const startNamespaces = await stopService("namespaces");
  try {
    expect((await root.delete(`/users/${bob.id}`)).status).toBe(204);
  } finally {
    await startNamespaces();
  }
  await eventually(
    async () => {
      const members = await root.get(`/projects/${project.body.id}/members`);
      expect(members.status).toBe(200);
      expect((members.body as { username: string }[]).map((m) => m.username)).not.toContain("bob");
    },
    { timeoutMs: 30_000 },
  );
}, 120_000);

test("a process started while admin is down is not ready until it has the administrator's settings, then acts on them", async () => {
  const changed = await root.put("/application/settings", { json: { default_project_visibility: "internal" } });
  expect(changed.status).toBe(200);
  const startAdmin = await stopService("admin");
  const startNamespaces = await stopService("namespaces");
  try {
    await startNamespaces({ ready: false });
    const readiness = async () => {
      const res = await fetch(`${control().healthUrl("namespaces", 1)}/-/readiness`);
      return { status: res.status, body: (await res.json()) as Record<string, { status: string }[]> };
    };
    // Started (migrations done, service registered) yet not ready: no settings without admin.
    await eventually(
      async () => {
        const r = await readiness();
        expect(r.body.namespaces_check?.[0].status).toBe("ok");
        expect(r.status).toBe(503);
        expect(r.body.settings_check).toEqual([{ status: "failed", message: "application settings not loaded yet" }]);
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    // A request that needs the settings is refused, not served on the defaults.
    const refused = await root.post("/projects", { json: { name: "Too early" } });
    expect(refused.status).toBe(503);

    await startAdmin();
    await eventually(async () => expect((await readiness()).status).toBe(200), { timeoutMs: 30_000, intervalMs: 200 });
  } finally {
    await startAdmin();
    await startNamespaces();
  }
  const created = await root.post("/projects", { json: { name: "Acting on settings" } });
  expect(created.status).toBe(201);
  expect(created.body.visibility).toBe("internal");
}, 180_000);
