import { call } from "@collab/core";
import { ErrorTracking } from "@collab/error-tracking-contract";
import { addMember, apiClient, createGroup, createProject, createUser, eventually, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { defaultStackParser, makeNodeTransport, NodeClient } from "@sentry/node";
import { sql } from "drizzle-orm";
import { gzipSync } from "node:zlib";
import { startApp } from "@collab/standalone/test/app";

/**
 * Error tracking: the project setting (GET/PATCH/PUT), client keys, and the collector a real
 * Sentry SDK (@sentry/node) submits to with a key's DSN; a deleted project's data goes with it.
 *
 * World: private group "team" with project "app", maint (40) and dev (30) of the group; outsider.
 */
let app: TestApp;
let root: ApiClient;
const U = {} as Record<"maint" | "dev" | "outsider", TestUser>;
let project: { id: number };
let other: { id: number };

beforeAll(async () => {
  app = await startApp("error-tracking");
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  const team = await createGroup(root, "team", "team", { visibility: "private" });
  project = await createProject(root, { name: "app", namespace_id: team.id, visibility: "private" });
  other = await createProject(root, { name: "other", namespace_id: team.id, visibility: "private" });
  for (const [name, level] of Object.entries({ maint: 40, dev: 30 })) {
    U[name as "maint" | "dev"] = await createUser(app, name);
    await addMember(app, "groups", team.id, U[name as "maint" | "dev"].id, level);
  }
  U.outsider = await createUser(app, "outsider");
});
afterAll(() => app.stop());

const SETTINGS = (p: { id: number }) => `/projects/${p.id}/error_tracking/settings`;
const KEYS = (p: { id: number }) => `/projects/${p.id}/error_tracking/client_keys`;
const listErrors = (projectId: number) => call(app.broker, ErrorTracking.errors.list, { project_id: projectId });

/** The key's DSN, its host swapped for the test app's (EXTERNAL_URL names a host no one listens on). */
function localDsn(dsn: string): string {
  const url = new URL(dsn);
  const local = new URL(app.url);
  url.protocol = local.protocol;
  url.host = local.host;
  return url.toString().replace(/\/$/, "");
}

/** A Sentry Node client for a DSN, with the SDK's own HTTP transport; the statuses it got back are recorded. */
function sentryClient(dsn: string) {
  const statuses: (number | undefined)[] = [];
  const client = new NodeClient({ dsn, transport: makeNodeTransport, stackParser: defaultStackParser, integrations: [], environment: "staging", release: "app@1.0.0" });
  client.on("afterSendEvent", (_event, response) => statuses.push(response?.statusCode));
  client.init();
  return { client, statuses };
}

async function enableIntegrated(p: { id: number }) {
  expect((await U.maint.api.put(SETTINGS(p), { json: { active: true, integrated: true } })).status).toBe(200);
}

describe("error tracking settings", () => {
  test("404 until configured; PUT configures, PATCH switches, GET reads", async () => {
    expect(await U.maint.api.get(SETTINGS(project))).toMatchObject({ status: 404, body: { message: "404 Error Tracking Setting Not Found" } });
    expect(await U.maint.api.patch(SETTINGS(project), { json: { active: true } })).toMatchObject({ status: 404, body: { message: "404 Error Tracking Setting Not Found" } });

    const put = await U.maint.api.put(SETTINGS(project), { json: { active: true, integrated: true } });
    expect(put).toMatchObject({ status: 200, body: { active: true, project_name: null, tracker_external_url: null, api_url: null, integrated: true } });
    expect(Object.keys(put.body).sort()).toEqual(["active", "api_url", "integrated", "project_name", "tracker_external_url"]);

    const patched = await U.maint.api.patch(SETTINGS(project), { json: { active: false } });
    expect(patched).toMatchObject({ status: 200, body: { active: false, integrated: true } });
    expect((await U.maint.api.get(SETTINGS(project))).body).toEqual(patched.body);
    expect((await U.maint.api.patch(SETTINGS(project), { form: { active: "true", integrated: "true" } })).body).toMatchObject({ active: true, integrated: true });
  });

  test("an enabled external tracker needs its API URL; a disabled one is kept", async () => {
    expect(await U.maint.api.put(SETTINGS(project), { json: { active: true, integrated: false } })).toMatchObject({ status: 400, body: { message: { api_url: ["is a required field"] } } });
    expect(await U.maint.api.put(SETTINGS(project), { json: { active: false, integrated: false } })).toMatchObject({ status: 200, body: { active: false, integrated: false } });
  });

  test("validation: active is missing; integrated required on PUT; invalid booleans", async () => {
    expect(await U.maint.api.patch(SETTINGS(project), { json: {} })).toMatchObject({ status: 400, body: { error: "active is missing" } });
    expect(await U.maint.api.put(SETTINGS(project), { json: { active: true } })).toMatchObject({ status: 400, body: { error: "integrated is missing" } });
    expect((await U.maint.api.put(SETTINGS(project), { json: { active: "maybe", integrated: true } })).status).toBe(400);
  });

  test("Maintainer only: Developer 403, outsider of the private project 404, anonymous 401", async () => {
    await enableIntegrated(project);
    expect(await U.dev.api.get(SETTINGS(project))).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await U.dev.api.put(SETTINGS(project), { json: { active: false, integrated: true } })).status).toBe(403);
    expect(await U.outsider.api.get(SETTINGS(project))).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await apiClient(app.url).get(SETTINGS(project))).status).toBe(401);
    expect((await U.maint.api.get(SETTINGS(project))).body.active).toBe(true);
  });
});

describe("client keys", () => {
  test("create (201, glet_ key, DSN), list paginated, delete (200 with the key), then 404", async () => {
    const created = await U.maint.api.post(KEYS(project));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), active: true, public_key: expect.stringMatching(/^glet_[0-9a-f]{32}$/), sentry_dsn: expect.any(String) });
    expect(created.body.sentry_dsn).toBe(`http://${created.body.public_key}@collab.test/api/v4/error_tracking/collector/${project.id}`);
    const second = (await U.maint.api.post(KEYS(project))).body;

    const first = await U.maint.api.get(KEYS(project), { query: { per_page: 1 } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual([created.body]);
    expect(first.headers.get("x-total")).toBe("2");
    expect((await U.maint.api.get(KEYS(project), { query: { page: 2, per_page: 1 } })).body).toEqual([second]);

    expect(await U.maint.api.delete(`${KEYS(project)}/${created.body.id}`)).toMatchObject({ status: 200, body: created.body });
    expect(await U.maint.api.delete(`${KEYS(project)}/${created.body.id}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await U.maint.api.get(KEYS(project))).body).toEqual([second]);
  });

  test("a key is found only in its own project; roles as for settings", async () => {
    const key = (await U.maint.api.post(KEYS(other))).body;
    expect(await U.maint.api.delete(`${KEYS(project)}/${key.id}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await U.maint.api.get(KEYS(other))).body).toHaveLength(1);
    expect((await U.dev.api.post(KEYS(project))).status).toBe(403);
    expect((await U.dev.api.get(KEYS(project))).status).toBe(403);
    expect(await U.outsider.api.get(KEYS(project))).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await apiClient(app.url).post(KEYS(project))).status).toBe(401);
  });
});

describe("collector", () => {
  test("a real Sentry client's exception is stored; once its key is deleted the collector refuses it and stores nothing", async () => {
    await enableIntegrated(project);
    const key = (await U.maint.api.post(KEYS(project))).body;
    const { client, statuses } = sentryClient(localDsn(key.sentry_dsn));

    class PaymentError extends Error {
      override name = "PaymentError";
    }
    client.captureException(new PaymentError("card declined"));
    expect(await client.flush(5000)).toBe(true);
    expect(statuses).toEqual([200]);

    const [stored] = await eventually(async () => {
      const rows = await listErrors(project.id);
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(stored).toMatchObject({ project_id: project.id, exception_type: "PaymentError", exception_message: "card declined", platform: "node", environment: "staging" });
    expect(stored.event_id).toMatch(/^[0-9a-f]{32}$/);
    expect((stored.payload as { release?: string }).release).toBe("app@1.0.0");
    expect(await listErrors(other.id)).toEqual([]);

    expect((await U.maint.api.delete(`${KEYS(project)}/${key.id}`)).status).toBe(200);
    client.captureException(new PaymentError("after deletion"));
    await client.flush(5000);
    // A deleted key authenticates nothing: 401.
    expect(statuses).toEqual([200, 401]);
    expect(await listErrors(project.id)).toHaveLength(1);
    await client.close();
  });

  test("GitLab's order of refusals: project, integrated setting, key; the key may come in X-Sentry-Auth; gzip bodies", async () => {
    const key = (await U.maint.api.post(KEYS(project))).body;
    const eventId = "0123456789abcdef0123456789abcdef";
    const event = { event_id: eventId, platform: "python", timestamp: 1_700_000_000.5, exception: { values: [{ type: "KeyError", value: "'id'" }] } };
    const envelope = [JSON.stringify({ event_id: eventId }), JSON.stringify({ type: "event" }), JSON.stringify(event)].join("\n");
    const post = (projectId: number, kind: string, body: Buffer | string, headers: Record<string, string> = {}) =>
      fetch(`${app.url}/api/v4/error_tracking/collector/api/${projectId}/${kind}`, { method: "POST", headers: { "Content-Type": "application/x-sentry-envelope", ...headers }, body });
    const auth = (publicKey: string) => ({ "X-Sentry-Auth": `Sentry sentry_version=7, sentry_client=raven-python/6.0, sentry_key=${publicKey}` });

    const missing = await post(999_999, "envelope", envelope, auth(key.public_key));
    expect([missing.status, await missing.json()]).toEqual([404, { message: "404 Project Not Found" }]);
    const disabled = await post(project.id, "envelope", envelope, auth(key.public_key));
    expect([disabled.status, await disabled.json()]).toEqual([404, { message: "404 Not Found" }]);

    await enableIntegrated(project);
    expect((await post(project.id, "envelope", envelope, auth("glet_unknown"))).status).toBe(401);
    expect((await post(project.id, "envelope", envelope)).status).toBe(401);
    const badHeader = await post(project.id, "envelope", envelope, { "X-Sentry-Auth": "Sentry nonsense" });
    expect([badHeader.status, await badHeader.json()]).toEqual([400, { message: "400 Bad request - Failed to parse sentry request" }]);

    // An inactive key (no API route switches one off, as in GitLab) authenticates nothing either.
    const dormant = (await U.maint.api.post(KEYS(project))).body;
    await app.database.db.execute(sql`UPDATE error_tracking.client_keys SET active = false WHERE id = ${dormant.id}`);
    const inactive = await post(project.id, "envelope", envelope, auth(dormant.public_key));
    expect([inactive.status, await inactive.json()]).toEqual([401, { message: "401 Unauthorized" }]);

    const ok = await post(project.id, "envelope", gzipSync(envelope), { ...auth(key.public_key), "Content-Encoding": "gzip" });
    expect([ok.status, await ok.json()]).toEqual([200, {}]);
    // A resubmission of the same event is stored once.
    expect((await post(project.id, "envelope", envelope, auth(key.public_key))).status).toBe(200);
    const rows = await listErrors(project.id);
    expect(rows).toEqual([expect.objectContaining({ event_id: eventId, exception_type: "KeyError", exception_message: "'id'", platform: "python", occurred_at: "2023-11-14T22:13:20.500Z" })]);

    const session = [JSON.stringify({}), JSON.stringify({ type: "session" }), JSON.stringify({ sid: "x" })].join("\n");
    const refused = await post(project.id, "envelope", session, auth(key.public_key));
    expect([refused.status, await refused.json()]).toEqual([400, { message: "400 Bad Request" }]);
    const noException = [JSON.stringify({}), JSON.stringify({ type: "event" }), JSON.stringify({ event_id: eventId.replace("0", "f") })].join("\n");
    const unsupported = await post(project.id, "envelope", noException, auth(key.public_key));
    expect([unsupported.status, await unsupported.json()]).toEqual([400, { message: "400 Bad request - Unsupported sentry payload" }]);
    expect((await post(project.id, "envelope", "not json", auth(key.public_key))).status).toBe(400);
    // The raw body is bounded like any other (MAX_BODY_BYTES, 5 MiB by default), inflated size included.
    const huge = await post(project.id, "envelope", gzipSync(Buffer.alloc(6 * 1024 * 1024, 0x20)), { ...auth(key.public_key), "Content-Encoding": "gzip" });
    expect([huge.status, await huge.json()]).toEqual([413, { message: "413 Request Entity Too Large" }]);

    // The older store endpoint takes the event itself; the key may be a query param.
    const stored = await fetch(`${app.url}/api/v4/error_tracking/collector/api/${project.id}/store?sentry_key=${key.public_key}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...event, event_id: "fedcba9876543210fedcba9876543210" }),
    });
    expect(stored.status).toBe(200);
    expect(await listErrors(project.id)).toHaveLength(2);
  });

  test("a deleted project's setting, keys and events go with it", async () => {
    await enableIntegrated(project);
    const key = (await U.maint.api.post(KEYS(project))).body;
    const { client } = sentryClient(localDsn(key.sentry_dsn));
    client.captureException(new Error("gone soon"));
    await client.flush(5000);
    await client.close();
    await eventually(async () => expect(await listErrors(project.id)).toHaveLength(1));

    // Marked for deletion first, then removed for good (GitLab's delayed deletion).
    expect((await root.delete(`/projects/${project.id}`)).status).toBe(202);
    expect((await root.delete(`/projects/${project.id}`, { query: { permanently_remove: true, full_path: "team/app" } })).status).toBe(202);
    await eventually(async () => expect(await listErrors(project.id)).toEqual([]), { timeoutMs: 15_000 });
    const keys = await app.database.db.execute(sql`SELECT count(*)::int AS n FROM error_tracking.client_keys WHERE project_id = ${project.id}`);
    expect((keys as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
    expect((await root.get(SETTINGS(other))).status).toBe(404); // another project's (absent) setting untouched
  });
});
