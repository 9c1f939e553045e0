import { apiClient, eventually, type TestApp } from "@collab/testing";
import { Client } from "pg";
import { startApp } from "@collab/standalone/test/app";
import { Namespaces } from "@collab/namespaces-contract";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { topologyControl } = require("../../../../scripts/topology.js") as {
  topologyControl(dir: string): { restartNats(): Promise<void>; startNode(service: string, replica: number): Promise<number>; stopPid(pid: number): Promise<void>; pidOf(service: string, replica: number): number };
};

/**
 * Distributed pass only: domain events are durable. The issues service (both replicas) is taken
 * down while namespaces acknowledges label deletions; the events wait in JetStream (through a
 * nats-server restart too), and once issues is back every one is applied, exactly once.
 */
let app: TestApp;
let db: Client;
const control = () => topologyControl(process.env.TEST_TOPOLOGY_LOG_DIR!);
/** The replica numbers of issues in the topology. */
const issuesReplicas = () => (JSON.parse(process.env.TEST_TOPOLOGY_NODES ?? "[]") as { service: string; replica: number }[]).filter((n) => n.service === "issues").map((n) => n.replica);

beforeAll(async () => {
  app = await startApp("durable-events");
  db = new Client({ connectionString: process.env.TEST_TOPOLOGY_DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await app.stop();
});
beforeEach(() => app.reset());

/** Stops every issues replica (whatever pids earlier tests left them with); answers a function that starts them again. */
async function stopIssues(): Promise<() => Promise<void>> {
  const replicas = issuesReplicas();
  await Promise.all(replicas.map((r) => control().stopPid(control().pidOf("issues", r))));
  return async () => {
    for (const r of replicas) await control().startNode("issues", r);
  };
}

async function labelledIssues(api: ReturnType<typeof apiClient>, count: number) {
  const project = await api.post("/projects", { json: { name: `Durable ${Date.now()}` } });
  expect(project.status).toBe(201);
  const labels: string[] = [];
  for (let i = 0; i < count; i++) {
    const label = await api.post(`/projects/${project.body.id}/labels`, { json: { name: `doomed-${i}`, color: "#ff0000" } });
    expect(label.status).toBe(201);
    labels.push(label.body.name);
  }
  const issue = await api.post(`/projects/${project.body.id}/issues`, { json: { title: "Labelled", labels: labels.join(",") } });
  expect(issue.status).toBe(201);
  expect(issue.body.labels).toHaveLength(count);
  return { projectId: project.body.id as number, iid: issue.body.iid as number, labels };
}

const pendingOutbox = async () => Number((await db.query("SELECT count(*) AS n FROM namespaces.outbox")).rows[0].n);
const appliedTimes = async (eventName: string, since: Date) =>
  Number((await db.query("SELECT count(*) AS n FROM issues.processed_events WHERE name = $1 AND processed_at >= $2", [eventName, since])).rows[0].n);

test("label deletions acknowledged while the issues service is down reach it once it is back, once each", async () => {
  const api = apiClient(app.url, app.rootToken);
  const { projectId, iid, labels } = await labelledIssues(api, 3);
  const since = new Date(Date.now() - 1000);

  const startIssues = await stopIssues();
  for (const name of labels) expect((await api.delete(`/projects/${projectId}/labels/${encodeURIComponent(name)}`)).status).toBe(204);
  // Handed over to JetStream: nothing left in the producer's outbox, nothing applied yet.
  await eventually(async () => expect(await pendingOutbox()).toBe(0));
  expect(await appliedTimes(Namespaces.events.labelDeleted.name, since)).toBe(0);

  await startIssues();
  await eventually(async () => {
    const issue = await api.get(`/projects/${projectId}/issues/${iid}`);
    expect(issue.status).toBe(200);
    expect(issue.body.labels).toEqual([]);
  }, { timeoutMs: 30_000 });
  await eventually(async () => expect(await appliedTimes(Namespaces.events.labelDeleted.name, since)).toBe(labels.length));
}, 120_000);

test("events waiting in JetStream survive a nats-server restart", async () => {
  const api = apiClient(app.url, app.rootToken);
  const { projectId, iid, labels } = await labelledIssues(api, 2);
  const since = new Date(Date.now() - 1000);

  const startIssues = await stopIssues();
  for (const name of labels) expect((await api.delete(`/projects/${projectId}/labels/${encodeURIComponent(name)}`)).status).toBe(204);
  await eventually(async () => expect(await pendingOutbox()).toBe(0));

  await control().restartNats();
  await startIssues();
  await eventually(async () => {
    const issue = await api.get(`/projects/${projectId}/issues/${iid}`);
    expect(issue.status).toBe(200);
    expect(issue.body.labels).toEqual([]);
  }, { timeoutMs: 45_000 });
  await eventually(async () => expect(await appliedTimes(Namespaces.events.labelDeleted.name, since)).toBe(labels.length));
  // The whole API answers again after the restart.
  await eventually(async () => expect((await api.post(`/projects/${projectId}/issues`, { json: { title: "after the restart" } })).status).toBe(201), { timeoutMs: 30_000 });
}, 150_000);
