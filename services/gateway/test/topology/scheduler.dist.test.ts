import { call } from "@collab/core";
import { openDatabase, type Database } from "@collab/db";
import { Runners } from "@collab/runners-contract";
import { apiClient, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

/**
 * Distributed pass only: the runners service runs as two replicas, each with its own scheduler
 * timer. Due schedules (set in the past through the topology's database) must each fire exactly
 * once, whether the replicas' timers or explicit ticks to both replicas claim them.
 */
let app: TestApp;
let database: Database;
beforeAll(async () => {
  app = await startApp("scheduler");
  database = await openDatabase(process.env.TEST_TOPOLOGY_DATABASE_URL);
});
afterAll(async () => {
  await database.release();
  await app.stop();
});
beforeEach(() => app.reset());

test("each due schedule fires exactly once across runners replicas", async () => {
  const nodes: { service: string; replica: number }[] = JSON.parse(process.env.TEST_TOPOLOGY_NODES ?? "[]");
  const replicas = nodes.filter((n) => n.service === "runners").map((n) => `runners-${n.replica}`);
  expect(replicas.length).toBeGreaterThanOrEqual(2);

  const api = apiClient(app.url, app.rootToken);
  const project = await api.post("/projects", { json: { name: "sched", initialize_with_readme: true } });
  expect(project.status).toBe(201);
  const ids: number[] = [];
  for (let i = 0; i < 10; i++) {
    const s = await api.post(`/projects/${project.body.id}/pipeline_schedules`, { json: { description: `s${i}`, ref: "main", cron: "0 3 * * *" } });
    expect(s.status).toBe(201);
    ids.push(s.body.id);
  }
  await database.db.execute(sql`UPDATE runners.pipeline_schedules SET next_run_at = now() - interval '1 minute' WHERE project_id = ${project.body.id}`);

  // Explicit ticks on both replicas at once, racing each other and their own timers.
  const ticks = await Promise.all(replicas.flatMap((nodeID) => Array.from({ length: 4 }, () => call(app.broker, Runners.scheduler.tick, {}, { nodeID }))));
  expect(ticks.length).toBe(replicas.length * 4);

  // Whoever fired them, every schedule has exactly one pipeline and a future next_run_at.
  const deadline = Date.now() + 15_000;
  let counts: number[] = [];
  while (Date.now() < deadline) {
    counts = await Promise.all(ids.map(async (id) => (await api.get(`/projects/${project.body.id}/pipeline_schedules/${id}/pipelines`)).body.length as number));
    if (counts.every((c) => c >= 1)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(counts).toEqual(ids.map(() => 1));
  const rows = await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM runners.pipeline_schedules WHERE project_id = ${project.body.id} AND next_run_at <= now()`);
  expect((rows as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  const pipelines = await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM runners.pipelines WHERE project_id = ${project.body.id}`);
  expect((pipelines as unknown as { rows: { n: number }[] }).rows[0].n).toBe(10);
}, 60_000);
