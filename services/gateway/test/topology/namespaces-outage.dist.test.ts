import { call } from "@collab/core";
import { Runners } from "@collab/runners-contract";
import { apiClient, processAlive, eventually, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { topologyControl } = require("../../../../scripts/topology.js") as {
  topologyControl(dir: string): { startNode(service: string, replica: number): Promise<number>; stopPid(pid: number): Promise<void>; pidOf(service: string, replica: number): number };
};

/**
 * Distributed pass only: background work that needs namespaces finishes once namespaces is back.
 * The namespaces process is taken down while a storage move is about to switch its project, and
 * while a due pipeline schedule looks its ref up; neither is lost, finished early nor skipped.
 * Each test starts namespaces again, even when it fails: later files share the topology.
 */
let app: TestApp;
const control = () => topologyControl(process.env.TEST_TOPOLOGY_LOG_DIR!);

beforeAll(async () => {
  app = await startApp("namespaces-outage");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const rows = async <T,>(query: ReturnType<typeof sql>): Promise<T[]> => ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;

const alive = processAlive;

/**
 * Takes a service's replica down (SIGKILL: no goodbye to the bus, or SIGTERM: a graceful stop)
 * and runs `during`; it is started again afterwards whatever happened. `during` gets the function
 * that starts it, to do so itself at the right moment.
 */
async function withoutNode(service: string, replica: number, how: "kill" | "stop", during: (start: () => Promise<void>) => Promise<void>) {
  const pid = control().pidOf(service, replica);
  let down = true;
  const start = async () => {
    await control().startNode(service, replica);
    down = false;
    // Ready itself is not enough: the gateway must have seen it join before the API answers again.
    await eventually(async () => expect((await fetch(`${app.url}/-/readiness`)).status).toBe(200), { timeoutMs: 30_000, intervalMs: 100 });
  };
  try {
    if (how === "kill") {
      process.kill(pid, "SIGKILL");
      await eventually(() => expect(alive(pid)).toBe(false), { timeoutMs: 15_000 });
    } else await control().stopPid(pid);
    await during(start);
  } finally {
    if (down) await start();
  }
}

const withoutNamespaces = (how: "kill" | "stop", during: (startNamespaces: () => Promise<void>) => Promise<void>) => withoutNode("namespaces", 1, how, during);

test("a storage move whose switch was cut off by killing namespaces finishes once namespaces is back; the project ends writable on its new storage", async () => {
  const api = apiClient(app.url, app.rootToken);
  expect((await api.put("/application/settings", { json: { repository_storages_weighted: { default: 100, other: 0 } } })).status).toBe(200);
  const project = await api.post("/projects", { json: { name: `Moving ${Date.now()}` } });
  expect(project.status).toBe(201);
  const move = await api.post(`/projects/${project.body.id}/repository_storage_moves`, { json: { destination_storage_name: "other" } });
  expect(move.status).toBe(201);
  expect(move.body.state).toBe("scheduled");
  const moveRow = async () => (await rows<{ state: string; error_message: string | null }>(sql`SELECT state, error_message FROM admin.repository_storage_moves WHERE id = ${move.body.id}`))[0];

  // Killed at once: the admin worker (every 2 s) starts the move, then its switch gets no answer.
  await withoutNamespaces("kill", async (startNamespaces) => {
    await eventually(
      async () => {
        const row = await moveRow();
        expect(row.state).toBe("started");
        expect(row.error_message).toMatch(/retrying/);
      },
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    // Nothing was finished while namespaces was away: the project is still read-only on its old storage.
    expect((await moveRow()).state).toBe("started");
    expect(await rows(sql`SELECT repository_storage, repository_read_only FROM namespaces.projects WHERE id = ${project.body.id}`)).toEqual([
      { repository_storage: "default", repository_read_only: true },
    ]);
    await startNamespaces();
  });

  await eventually(
    async () => expect((await api.get(`/projects/${project.body.id}/repository_storage_moves/${move.body.id}`)).body).toMatchObject({ state: "finished", destination_storage_name: "other" }),
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  expect((await moveRow()).error_message).toBeNull();
  expect((await api.get(`/projects/${project.body.id}`)).body.repository_storage).toBe("other");
  expect((await api.post(`/projects/${project.body.id}/issues`, { json: { title: "written after the move" } })).status).toBe(201);
}, 150_000);

test("a due pipeline schedule whose ref lookup failed while the repository's replica was stopped still fires, once, when it is back", async () => {
  const api = apiClient(app.url, app.rootToken);
  const project = await api.post("/projects", { json: { name: `Scheduled ${Date.now()}`, initialize_with_readme: true } });
  expect(project.status).toBe(201);
  const schedule = await api.post(`/projects/${project.body.id}/pipeline_schedules`, { json: { description: "nightly", ref: "main", cron: "0 3 * * *" } });
  expect(schedule.status).toBe(201);
  const runners = (JSON.parse(process.env.TEST_TOPOLOGY_NODES ?? "[]") as { service: string; replica: number }[]).filter((n) => n.service === "runners");
  const stillDue = async () =>
    (await rows<{ due: boolean }>(sql`SELECT next_run_at <= now() AS due FROM runners.pipeline_schedules WHERE id = ${schedule.body.id}`))[0].due;
  const pipelines = async () => (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM runners.pipelines WHERE schedule_id = ${schedule.body.id}`))[0].n;

  // The ref is resolved by the repositories replica serving the project's storage (`default`: replica 1).
  await withoutNode("repositories", 1, "stop", async (startRepositories) => {
    await app.database.db.execute(sql`UPDATE runners.pipeline_schedules SET next_run_at = now() - interval '1 minute' WHERE id = ${schedule.body.id}`);
    // A pass on every runners replica: each lookup of the ref fails, so nothing fires…
    for (const r of runners) {
      const tick = await call(app.broker, Runners.scheduler.tick, {}, { nodeID: `runners-${r.replica}` });
      expect(tick.pipeline_ids).toEqual([]);
    }
    // …and the run is not skipped: the schedule is still due.
    expect(await stillDue()).toBe(true);
    expect(await pipelines()).toBe(0);
    await startRepositories();
  });

  // The replicas' timers (every 5 s) fire it now.
  await eventually(async () => expect((await api.get(`/projects/${project.body.id}/pipeline_schedules/${schedule.body.id}/pipelines`)).body).toHaveLength(1), {
    timeoutMs: 30_000,
    intervalMs: 200,
  });
  expect(await stillDue()).toBe(false);
  expect(await pipelines()).toBe(1);
  expect((await api.get(`/projects/${project.body.id}/pipeline_schedules/${schedule.body.id}`)).body.last_pipeline).toMatchObject({ ref: "main", status: "pending" });
}, 150_000);
