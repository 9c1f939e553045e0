import { Admin } from "@collab/admin-contract";
import { call, loadConfig, secretsKeyring } from "@collab/core";
import { Integrations } from "@collab/integrations-contract";
import { apiClient, createProject, eventually, type ApiClient, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { reencryptAll } from "@collab/standalone";
import { startApp } from "@collab/standalone/test/app";

/**
 * Stored credentials never leak. Distinctive values go in through the API: integration secrets
 * (the Discord webhook, packagist's token), which are write-only, and credentials GitLab shows to
 * those who manage them (the external pipeline validation token, a pipeline schedule variable). A
 * query carrying them as parameters fails, deliveries go out, a row written in clear by an earlier
 * version is used and resealed. Then: the write-only ones are in no API answer; none is in any log
 * line — the app's own pino output here (logging on, read from process.stdout), every process's
 * log file in the distributed pass (TEST_TOPOLOGY_LOG_DIR) — nor in clear in any table.
 */
/** The distributed pass: the app is the topology's processes, each logging to its file at the topology's level. */
const distributed = Boolean(process.env.TEST_GATEWAY_URL);
if (!distributed) process.env.LOG_LEVEL = "debug"; // everything the app in this process logs
process.env.INTEGRATIONS_DELIVERY_TICK_MS ??= "0";

const canary = (kind: string) => `${kind}-canary-${randomBytes(6).toString("hex")}`;
/** Write-only: never in an answer, a log line or a table in clear. */
const SECRET = canary("write-only");
/** Shown where GitLab shows it, but never in a log line or a table in clear. */
const SHOWN = canary("shown");

let app: TestApp;
let root: ApiClient;
let project: { id: number };
let schedulePath: string;

// ---- what the app says: its answers and its log lines --------------------------------------------

const answers: string[] = [];
const realFetch = globalThis.fetch;
const logged: string[] = [];
let stopCapture = () => undefined as void;

function captureStdout() {
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => (logged.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")), true)) as typeof process.stdout.write;
  stopCapture = () => void (process.stdout.write = write);
}

/** Every log line the app wrote: its processes' files in the distributed pass, this process's stdout otherwise. */
function logLines(): string[] {
  const dir = process.env.TEST_TOPOLOGY_LOG_DIR;
  const files = dir ? fs.readdirSync(dir).filter((f) => f.endsWith(".log")).map((f) => fs.readFileSync(path.join(dir, f), "utf8")) : [];
  return [...files, ...logged].join("").split("\n").filter(Boolean);
}

// ---- the world ------------------------------------------------------------------------------------

let server: http.Server;
const received: { path: string; headers: http.IncomingHttpHeaders }[] = [];
let webhook: string;

beforeAll(async () => {
  captureStdout();
  globalThis.fetch = async (input, init) => {
    const res = await realFetch(input, init);
    if (String(input instanceof Request ? input.url : input).startsWith(app.url)) answers.push(`${JSON.stringify([...res.headers])}\n${await res.clone().text()}`);
    return res;
  };
  server = http.createServer((req, res) => {
    req.resume().on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  webhook = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/1/${SECRET}`;
  app = await startApp("secret-leaks");
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  expect((await root.put("/application/settings", { json: { allow_local_requests_from_web_hooks_and_services: true } })).status).toBe(200);
  project = await createProject(root, { name: "leaky", initialize_with_readme: true });
});

afterAll(async () => {
  await dropRefusal().catch(() => undefined);
  globalThis.fetch = realFetch;
  await app?.stop();
  stopCapture();
  await new Promise<void>((r) => server.close(() => r()));
});

const P = (slug: string) => `/projects/${project.id}/integrations/${slug}`;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await app.database.db.execute(query)) as unknown as { rows: T[] }).rows;
const tick = () => call(app.broker, Integrations.deliveries.tick, {});

/** Tables (every schema) holding `text` anywhere in a row, as PostgreSQL renders the row. */
async function tablesHolding(text: string): Promise<string[]> {
  const tables = await rows<{ name: string }>(sql`SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`);
  const holding: string[] = [];
  for (const { name } of tables) {
    const [{ n }] = await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.raw(name)} t WHERE strpos(t::text, ${text}) > 0`);
    if (n) holding.push(name);
  }
  return holding;
}

/** A trigger refusing packagist rows: their write fails with the values as the query's parameters. */
async function refusePackagist() {
  await app.database.db.execute(sql.raw(`CREATE OR REPLACE FUNCTION integrations.leak_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the leak test'; END $$`));
  await app.database.db.execute(sql.raw(`CREATE TRIGGER leak_test_refuse BEFORE INSERT OR UPDATE ON integrations.integrations FOR EACH ROW WHEN (NEW.slug = 'packagist') EXECUTE FUNCTION integrations.leak_test_refuse()`));
}
async function dropRefusal() {
  await app.database.db.execute(sql.raw(`DROP TRIGGER IF EXISTS leak_test_refuse ON integrations.integrations`));
  await app.database.db.execute(sql.raw(`DROP FUNCTION IF EXISTS integrations.leak_test_refuse()`));
}

// ---- the scenario: each test builds on the previous one ------------------------------------------

test("secrets set up through the API are used, never shown", async () => {
  expect((await root.put(P("discord"), { json: { webhook, branches_to_be_notified: "all" } })).status).toBe(200);
  expect((await root.put(P("asana"), { json: { api_key: `${SECRET}-asana` } })).status).toBe(200);
  expect((await root.get(P("discord"))).body.properties).toEqual({ notify_only_broken_pipelines: true, notify_only_default_branch: false, branches_to_be_notified: "all" });
  expect((await root.get(`/projects/${project.id}/integrations`)).status).toBe(200);

  expect((await root.post(`/projects/${project.id}/issues`, { json: { title: "Heard by the webhook" } })).status).toBe(201);
  await eventually(async () => {
    await tick();
    expect(received).toHaveLength(1);
  });
  // The webhook got its call: its secret path was opened where it is used.
  expect(received[0].path).toBe(`/api/webhooks/1/${SECRET}`);
});

test("credentials GitLab shows to those who manage them are shown to them, and only there", async () => {
  const settings = await root.put("/application/settings", { json: { external_pipeline_validation_service_token: `${SHOWN}-token` } });
  expect(settings.body.external_pipeline_validation_service_token).toBe(`${SHOWN}-token`);
  expect((await root.get("/application/settings")).body.external_pipeline_validation_service_token).toBe(`${SHOWN}-token`);
  // Not in the snapshot every process receives.
  expect(JSON.stringify(await call(app.broker, Admin.settings.current, {}))).not.toContain(SHOWN);

  const schedule = await root.post(`/projects/${project.id}/pipeline_schedules`, { json: { description: "nightly", ref: "main", cron: "0 1 * * *" } });
  expect(schedule.status).toBe(201);
  schedulePath = `/projects/${project.id}/pipeline_schedules/${schedule.body.id}`;
  const variables = `${schedulePath}/variables`;
  expect((await root.post(variables, { json: { key: "DEPLOY_TOKEN", value: `${SHOWN}-variable` } })).body).toMatchObject({ key: "DEPLOY_TOKEN", value: `${SHOWN}-variable` });
  expect((await root.put(`${variables}/DEPLOY_TOKEN`, { json: { value: `${SHOWN}-changed` } })).body.value).toBe(`${SHOWN}-changed`);
  expect((await root.get(schedulePath)).body.variables).toEqual([expect.objectContaining({ value: `${SHOWN}-changed` })]);
});

test("a query carrying them as parameters fails: a 500 without them, logged without them", async () => {
  await refusePackagist();
  try {
    const failed = await root.put(P("packagist"), { json: { username: `${SECRET}-user`, token: `${SECRET}-token` } });
    expect(failed).toMatchObject({ status: 500, body: { message: "500 Internal Server Error" } });
  } finally {
    await dropRefusal();
  }
  // The failure is logged, with its SQL: the log lines below are the ones that would carry the values.
  const failure = await eventually(() => {
    const lines = logLines().filter((l) => l.includes("Failed query") && l.includes('\\"integrations\\".\\"integrations\\"'));
    expect(lines).not.toHaveLength(0);
    return lines;
  });
  // In one process the error reaches the log whole: PostgreSQL's own message is kept.
  if (!distributed) expect(failure.some((l) => l.includes("refused by the leak test"))).toBe(true);
});

test("nothing in clear in any table; rows an earlier version wrote in clear work and are sealed by the re-encryption", async () => {
  expect(await tablesHolding(SECRET)).toEqual([]);
  expect(await tablesHolding(SHOWN)).toEqual([]);
  const [discord] = await rows<{ webhook: string }>(sql`SELECT properties->>'webhook' AS webhook FROM integrations.integrations WHERE slug = 'discord'`);
  expect(discord.webhook).toMatch(/^enc:v1:[0-9a-f]{8}:/);

  // As an earlier version left them: in clear. They still work.
  await app.database.db.execute(sql`UPDATE integrations.integrations SET properties = jsonb_set(properties, '{webhook}', to_jsonb(${webhook}::text)) WHERE slug = 'discord'`);
  await app.database.db.execute(sql`UPDATE admin.application_settings SET values = jsonb_set(values, '{external_pipeline_validation_service_token}', to_jsonb(${`${SHOWN}-token`}::text))`);
  await app.database.db.execute(sql`UPDATE runners.pipeline_schedule_variables SET value = ${`${SHOWN}-changed`}`);
  expect(await tablesHolding(SECRET)).toEqual(["integrations.integrations"]);
  expect(await tablesHolding(SHOWN)).toEqual(["admin.application_settings", "runners.pipeline_schedule_variables"]);
  expect((await root.get("/application/settings")).body.external_pipeline_validation_service_token).toBe(`${SHOWN}-token`);
  expect((await root.get(schedulePath)).body.variables).toEqual([expect.objectContaining({ value: `${SHOWN}-changed` })]);
  expect((await root.post(`/projects/${project.id}/issues`, { json: { title: "Heard through a clear webhook" } })).status).toBe(201);
  await eventually(async () => {
    await tick();
    expect(received).toHaveLength(2);
  });

  // The documented re-encryption (npm run secrets:reencrypt) seals it; it still works.
  const resealed = await reencryptAll(app.database.db, secretsKeyring(loadConfig(), "the test"));
  expect(resealed).toEqual({ admin: 1, runners: 1, integrations: 1 });
  expect(await tablesHolding(SECRET)).toEqual([]);
  expect(await tablesHolding(SHOWN)).toEqual([]);
  expect((await root.get("/application/settings")).body.external_pipeline_validation_service_token).toBe(`${SHOWN}-token`);
  expect((await root.get(schedulePath)).body.variables).toEqual([expect.objectContaining({ value: `${SHOWN}-changed` })]);
  expect((await root.post(`/projects/${project.id}/issues`, { json: { title: "Heard through a resealed webhook" } })).status).toBe(201);
  await eventually(async () => {
    await tick();
    expect(received).toHaveLength(3);
  });
  expect(received.every((r) => r.path === `/api/webhooks/1/${SECRET}`)).toBe(true);
  expect(await rows(sql`SELECT status FROM integrations.integration_deliveries ORDER BY id`)).toEqual([{ status: "delivered" }, { status: "delivered" }, { status: "delivered" }]);
});

test("a webhook's token and custom header values are sent, never shown, and not in clear in any table", async () => {
  const hooks = `/projects/${project.id}/hooks`;
  const created = await root.post(hooks, {
    json: { url: webhook.replace(/\/api\/webhooks\/.*$/, "/project-hook"), token: `${SECRET}-hook-token`, issues_events: true, custom_headers: [{ key: "X-Leak", value: `${SECRET}-header` }] },
  });
  expect(created.status).toBe(201);
  expect((await root.get(hooks)).status).toBe(200);
  expect((await root.post(`/projects/${project.id}/issues`, { json: { title: "Heard by the project hook" } })).status).toBe(201);
  const delivered = await eventually(async () => {
    await tick();
    const hit = received.find((r) => r.path === "/project-hook");
    expect(hit).toBeDefined();
    return hit!;
  });
  expect(delivered.headers).toMatchObject({ "x-gitlab-token": `${SECRET}-hook-token`, "x-leak": `${SECRET}-header` });
  const events = await root.get(`${hooks}/${created.body.id}/events`);
  expect(events.body[0].request_headers).toMatchObject({ "X-Gitlab-Token": "[REDACTED]", "X-Leak": "[REDACTED]" });
  expect(await tablesHolding(SECRET)).toEqual([]);
});

/** Jira's Basic credentials as they go out (base64): in no log line either. */
let jiraAuth = "";

test("Jira's password is sent as GitLab sends it (Basic), never shown, and not in clear in any table", async () => {
  const jiraUrl = webhook.replace(/\/api\/webhooks\/.*$/, "");
  expect((await root.put(P("jira"), { json: { url: jiraUrl, username: "leak-bot", password: `${SECRET}-jira` } })).status).toBe(200);
  expect(JSON.stringify((await root.get(P("jira"))).body)).not.toContain(SECRET);
  expect((await root.post(`/projects/${project.id}/issues`, { json: { title: "Tracked as LEAK-1" } })).status).toBe(201);
  const hit = await eventually(async () => {
    await tick();
    const found = received.find((r) => r.path === "/rest/api/2/issue/LEAK-1");
    expect(found).toBeDefined();
    return found!;
  });
  jiraAuth = Buffer.from(`leak-bot:${SECRET}-jira`).toString("base64");
  expect(hit.headers.authorization).toBe(`Basic ${jiraAuth}`);
  expect(await tablesHolding(SECRET)).toEqual([]);
  expect(await tablesHolding(jiraAuth)).toEqual([]);
});

test("the write-only secrets are in no API answer, and no credential is in any log line", () => {
  expect(answers.length).toBeGreaterThan(10);
  expect(answers.filter((a) => a.includes(SECRET))).toEqual([]);
  const lines = logLines();
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.filter((l) => l.includes(SECRET) || l.includes(SHOWN) || (jiraAuth !== "" && l.includes(jiraAuth)))).toEqual([]);
  expect(jiraAuth).not.toBe("");
});
