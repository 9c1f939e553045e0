import { apiClient, processAlive, eventually, type ApiClient, type TestApp } from "@collab/testing";
import { randomUUID } from "node:crypto";
import { connect, JSONCodec } from "nats";
import { Client } from "pg";
import { startApp } from "@collab/standalone/test/app";
import { eventSubject } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * Distributed pass only: the database misbehaving under a running topology (every service in its
 * own process, reaching PostgreSQL through scripts/db-proxy.js with a 5 s read timeout). Backends
 * terminated mid-burst, the database refusing connections for a minute while events are on their
 * way, and connections frozen half-open: no process exits, nothing acknowledged is lost, and the
 * API recovers by itself.
 */
let app: TestApp;
let admin: Client; // superuser, straight to the server (not through the proxy)
let root: ApiClient;
const database = () => new URL(process.env.TEST_TOPOLOGY_DATABASE_URL!).pathname.slice(1);
const nodes = () => JSON.parse(process.env.TEST_TOPOLOGY_NODES ?? "[]") as { service: string; replica: number; pid: number }[];
const alive = processAlive;
// Other files stop and start replicas: the pids to watch are the ones running when a test starts.
const livePids = () => {
  const file = `${process.env.TEST_TOPOLOGY_LOG_DIR}/pids.json`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pids = JSON.parse(require("node:fs").readFileSync(file, "utf8")) as Record<string, number>;
  return Object.entries(pids).filter(([, pid]) => alive(pid));
};

beforeAll(async () => {
  app = await startApp("database-faults");
  admin = new Client({ connectionString: new URL("/postgres", process.env.TEST_TOPOLOGY_DATABASE_URL).toString() });
  await admin.connect();
});
afterAll(async () => {
  await admin?.query(`ALTER DATABASE "${database()}" ALLOW_CONNECTIONS true`).catch(() => undefined);
  await fetch(`${process.env.TEST_DB_PROXY_CONTROL}/thaw`, { method: "POST" }).catch(() => undefined);
  await admin?.end();
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const terminateBackends = () =>
  admin.query("SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [database()]);

async function project(name: string): Promise<number> {
  const res = await root.post("/projects", { json: { name } });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

test("backends terminated mid-burst: no process exits, every issue answered 201 is there, writes work again within 5 s", async () => {
  const pids = livePids();
  expect(pids.length).toBe(nodes().length);
  const projectId = await project("Burst");
  const created: number[] = [];
  const answers: { startedAt: number; endedAt: number; status: number }[] = [];
  let stop = false;
  const client = async () => {
    while (!stop) {
      const startedAt = Date.now();
      const res = await root.post(`/projects/${projectId}/issues`, { json: { title: `burst ${randomUUID()}` } });
      answers.push({ startedAt, endedAt: Date.now(), status: res.status });
      if (res.status === 201) created.push(res.body.iid as number);
    }
  };
  const clients = Array.from({ length: 6 }, client);
  await eventually(() => expect(created.length).toBeGreaterThan(10), { timeoutMs: 30_000 });
  const { rows } = await terminateBackends();
  expect(Number(rows[0].n)).toBeGreaterThan(0);
  const terminatedAt = Date.now();
  const before = created.length;
  await eventually(() => expect(created.length).toBeGreaterThan(before + 5), { timeoutMs: 30_000 });
  stop = true;
  await Promise.all(clients);
  // Writes the termination interrupted are 503 (send again), never 500; a write sent after it
  // succeeds within 5 s.
  expect(answers.filter((a) => a.status !== 201 && a.status !== 503)).toEqual([]);
  const firstAfter = answers.filter((a) => a.startedAt >= terminatedAt && a.status === 201).sort((a, b) => a.endedAt - b.endedAt)[0];
  expect(firstAfter.endedAt - terminatedAt).toBeLessThan(5_000);
  for (const [name, pid] of pids) expect({ name, alive: alive(pid) }).toEqual({ name, alive: true });
  for (const iid of created) expect((await root.get(`/projects/${projectId}/issues/${iid}`)).status).toBe(200);
}, 120_000);

test("events on their way while the database refuses connections for 60 s are applied once it is back, exactly once, none dead-lettered", async () => {
  const pids = livePids();
  const projectId = await project("Refused");
  const labels: { id: number; name: string }[] = [];
  for (const name of ["a", "b", "c"]) {
    const res = await root.post(`/projects/${projectId}/labels`, { json: { name: `refused-${name}`, color: "#00ff00" } });
    expect(res.status).toBe(201);
    labels.push(res.body);
  }
  const issue = await root.post(`/projects/${projectId}/issues`, { json: { title: "Labelled", labels: labels.map((l) => l.name).join(",") } });
  expect(issue.status).toBe(201);

  await admin.query(`ALTER DATABASE "${database()}" ALLOW_CONNECTIONS false`);
  await terminateBackends();
  const ids = labels.map(() => randomUUID());
  try {
    // The label deletions reach JetStream (as namespaces' relay publishes them) while no service
    // can reach the database: every issues replica's delivery fails and is retried later.
    const nc = await connect({ servers: process.env.TEST_TRANSPORTER!.replace("nats://", ""), user: process.env.NATS_USER, pass: process.env.NATS_PASSWORD });
    const js = nc.jetstream();
    const codec = JSONCodec();
    for (const [i, label] of labels.entries()) {
      const envelope = { id: ids[i], name: Namespaces.events.labelDeleted.name, occurredAt: new Date().toISOString(), payload: { labelIds: [label.id], projectId, groupId: null } };
      await js.publish(eventSubject(Namespaces.events.labelDeleted.name), codec.encode(envelope), { msgID: ids[i] });
    }
    await nc.drain();
    // While refused, the API answers 503 with Retry-After.
    const refused = await root.get(`/projects/${projectId}/issues`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    await new Promise((r) => setTimeout(r, 60_000)); // the outage itself
  } finally {
    await admin.query(`ALTER DATABASE "${database()}" ALLOW_CONNECTIONS true`);
  }
  await eventually(
    async () => {
      const res = await root.get(`/projects/${projectId}/issues/${issue.body.iid}`);
      expect(res.status).toBe(200);
      expect(res.body.labels).toEqual([]);
    },
    { timeoutMs: 90_000 },
  );
  const db = new Client({ connectionString: process.env.TEST_TOPOLOGY_DATABASE_URL });
  await db.connect();
  try {
    const applied = await db.query("SELECT event_id FROM issues.processed_events WHERE event_id = ANY($1::uuid[])", [ids]);
    expect(applied.rows.map((r) => r.event_id).sort()).toEqual([...ids].sort());
  } finally {
    await db.end();
  }
  const letters = await root.get("/admin/dead_letters");
  expect(letters.status).toBe(200);
  expect(letters.body).toEqual([]);
  for (const [name, pid] of pids) expect({ name, alive: alive(pid) }).toEqual({ name, alive: true });
}, 240_000);

test("connections frozen half-open: the services give them up and an event written after the freeze is delivered within 30 s", async () => {
  const pids = livePids();
  const projectId = await project("Frozen");
  const frozen = await fetch(`${process.env.TEST_DB_PROXY_CONTROL}/freeze`, { method: "POST" });
  expect((await frozen.json()).connections).toBeGreaterThan(0);
  try {
    // Written after the freeze, within 30 s of it: an issue (the API may answer 503 while the
    // frozen connections time out).
    let iid: number | undefined;
    await eventually(
      async () => {
        const res = await root.post(`/projects/${projectId}/issues`, { json: { title: "After the freeze" } });
        expect([201, 503]).toContain(res.status);
        expect(res.status).toBe(201);
        iid = res.body.iid;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    // Its event delivered within 30 s of the write: the activity service records the opening.
    await eventually(
      async () => {
        const events = await root.get(`/projects/${projectId}/events`, { query: { target_type: "issue" } });
        expect(events.status).toBe(200);
        expect((events.body as { target_iid: number; action_name: string }[]).some((e) => e.target_iid === iid && e.action_name === "opened")).toBe(true);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
  } finally {
    await fetch(`${process.env.TEST_DB_PROXY_CONTROL}/thaw`, { method: "POST" });
  }
  for (const [name, pid] of pids) expect({ name, alive: alive(pid) }).toEqual({ name, alive: true });
}, 120_000);
