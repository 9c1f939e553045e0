import { call } from "@collab/core";
import { Integrations } from "@collab/integrations-contract";
import { apiClient, createGroup, createProject, eventually, type ApiClient, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { startApp } from "@collab/standalone/test/app";

/**
 * A receiver that is down gets every event once it is back (issue 32's "down for a minute"): while
 * its port refuses connections, then answers 503, issues are opened, edited and commented on; the
 * hook's first delivery is retried with back-off and the later ones wait behind it. Once the
 * receiver answers again every event arrives exactly once, in the order it happened.
 *
 * The back-off is INTEGRATIONS_RETRY_BACKOFF_MS (10 s by default, doubling: the default's four
 * attempts span 70 s, more than a minute; the distributed pass runs its topology with 1 s, see
 * scripts/jest-distributed-setup.js; this file's own process with 500 ms), so the test waits on
 * the receiver and the hook's logs rather than on a clock.
 */
process.env.INTEGRATIONS_DELIVERY_TICK_MS ??= "0";
process.env.INTEGRATIONS_RETRY_BACKOFF_MS ??= "500";

let app: TestApp;
let root: ApiClient;
let project: { id: number };

interface Received {
  event: string;
  uuid: string;
  body: any;
}
let received: Received[] = [];
/** What the receiver answers while it listens (503: a server error; 200 once back). */
let answer = 200;
let server: http.Server | undefined;
let port = 0;

const listen = () =>
  new Promise<void>((resolve, reject) => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        if (answer === 200) received.push({ event: String(req.headers["x-gitlab-event"]), uuid: String(req.headers["x-gitlab-event-uuid"]), body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        res.writeHead(answer).end();
      });
    });
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      port = (server!.address() as AddressInfo).port;
      resolve();
    });
  });
const down = () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

beforeAll(async () => {
  app = await startApp("webhook-outage");
  await listen();
});
afterAll(async () => {
  await down();
  await app.stop();
});
beforeEach(async () => {
  await app.reset();
  received = [];
  root = apiClient(app.url, app.rootToken);
  const team = await createGroup(root, "team", "team", { visibility: "private" });
  project = await createProject(root, { name: "app", namespace_id: team.id, visibility: "private" });
  expect((await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
});

const tick = () => call(app.broker, Integrations.deliveries.tick, {});
const logs = async (hookId: number) => (await root.get(`/projects/${project.id}/hooks/${hookId}/events`, { query: { per_page: 100 } })).body as { response_status: string }[];
const statuses = async () =>
  ((await app.database.db.execute(sql`SELECT status FROM integrations.integration_deliveries WHERE web_hook_id IS NOT NULL ORDER BY id`)) as unknown as { rows: { status: string }[] }).rows.map((r) => r.status);

test("a receiver that is down (connection refused, then 503) gets every event once it is back, once each, in order", async () => {
  const hook = (await root.post(`/projects/${project.id}/hooks`, { json: { url: `http://127.0.0.1:${port}/hook`, push_events: false, issues_events: true, note_events: true } })).body as { id: number };
  await down();

  // While nothing listens: an issue opened, edited, commented on; a second one opened and closed.
  const first = (await root.post(`/projects/${project.id}/issues`, { json: { title: "Outage 1" } })).body as { iid: number };
  await root.put(`/projects/${project.id}/issues/${first.iid}`, { json: { title: "Outage 1 (edited)" } });
  await root.post(`/projects/${project.id}/issues/${first.iid}/notes`, { json: { body: "still down?" } });
  const second = (await root.post(`/projects/${project.id}/issues`, { json: { title: "Outage 2" } })).body as { iid: number };
  await root.put(`/projects/${project.id}/issues/${second.iid}`, { json: { state_event: "close" } });

  // Each event becomes a delivery of the hook, waiting behind the first, which fails with the port
  // closed, and again after its back-off.
  await eventually(
    async () => {
      await tick();
      expect(await statuses()).toEqual(["pending", "pending", "pending", "pending", "pending"]);
    },
    { timeoutMs: 30_000 },
  );
  await eventually(
    async () => {
      await tick();
      expect((await logs(hook.id)).filter((l) => l.response_status === "internal error")).toHaveLength(2);
    },
    { timeoutMs: 30_000 },
  );

  // Back, but failing: a 503 is one more failure (three in a row: the hook stays enabled).
  answer = 503;
  await listen();
  await eventually(
    async () => {
      await tick();
      expect((await logs(hook.id)).filter((l) => l.response_status === "503")).toHaveLength(1);
    },
    { timeoutMs: 30_000 },
  );
  expect(received).toEqual([]);

  // Healthy again: every event arrives, once, in the order it happened.
  answer = 200;
  await eventually(
    async () => {
      await tick();
      expect(received).toHaveLength(5);
    },
    { timeoutMs: 30_000 },
  );
  expect(received.map((r) => [r.event, r.body.object_kind, r.body.object_attributes.action ?? null, r.body.object_attributes.title ?? r.body.object_attributes.note])).toEqual([
    ["Issue Hook", "issue", "open", "Outage 1"],
    ["Issue Hook", "issue", "update", "Outage 1 (edited)"],
    ["Note Hook", "note", "create", "still down?"],
    ["Issue Hook", "issue", "open", "Outage 2"],
    ["Issue Hook", "issue", "close", "Outage 2"],
  ]);
  expect(received[1].body.changes.title).toEqual({ previous: "Outage 1", current: "Outage 1 (edited)" });
  expect(new Set(received.map((r) => r.uuid)).size).toBe(5);
  // Nothing more comes, however often the worker runs.
  for (let i = 0; i < 3; i++) await tick();
  expect(received).toHaveLength(5);
  expect(await statuses()).toEqual(["delivered", "delivered", "delivered", "delivered", "delivered"]);
  expect((await root.get(`/projects/${project.id}/hooks/${hook.id}`)).body.alert_status).toBe("executable");
});
