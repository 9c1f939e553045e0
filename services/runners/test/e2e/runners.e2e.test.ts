import { loadConfig } from "@collab/core";
import { openDatabase, type Database } from "@collab/db";
import { apiClient, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

/**
 * Runners through the gateway: registration and token flows, status computation, every list
 * filter, project/group assignment and the permission matrix per runner type.
 *
 * World (once per file; tests that mutate it clean up after themselves or use their own runners):
 *   group "ci" (private) ─ project ci/app; root/solo (private)
 *   owner (Owner of ci), maint (Maintainer of app), dev (Developer of app), outsider.
 */
let app: TestApp;
let root: ApiClient;
let database: Database;
const W = {} as {
  group: { id: number };
  app: { id: number };
  solo: { id: number };
  users: Record<string, { id: number; token: string; api: ApiClient }>;
  instance: { id: number; token: string };
  groupRunner: { id: number; token: string };
  projectRunner: { id: number; token: string };
};

function ok<T extends ApiResponse>(res: T, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res;
}

async function user(name: string, scopes = ["api"]) {
  const u = ok(await root.post("/users", { json: { username: name, name, email: `${name}@example.com`, password: "s3cret-passw0rd", skip_confirmation: true } }), 201, name).body;
  const t = ok(await root.post(`/users/${u.id}/personal_access_tokens`, { json: { name: "t", scopes } }), 201, "token").body;
  return { id: u.id as number, token: t.token as string, api: apiClient(app.url, t.token) };
}

beforeAll(async () => {
  app = await startApp("runners");
  // The app's own database (its scratch database or the topology's): to age runners.
  const config = loadConfig();
  database = await openDatabase(config.DATABASE_URL ?? process.env.TEST_TOPOLOGY_DATABASE_URL);
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  W.group = ok(await root.post("/groups", { json: { name: "ci", path: "ci", visibility: "private" } }), 201, "group").body;
  W.app = ok(await root.post("/projects", { json: { name: "app", namespace_id: W.group.id } }), 201, "app").body;
  W.solo = ok(await root.post("/projects", { json: { name: "solo" } }), 201, "solo").body;
  W.users = {};
  for (const n of ["owner", "maint", "dev", "outsider"]) W.users[n] = await user(n);
  ok(await root.post(`/groups/${W.group.id}/members`, { json: { user_id: W.users.owner.id, access_level: 50 } }), 201, "owner");
  ok(await root.post(`/projects/${W.app.id}/members`, { json: { user_id: W.users.maint.id, access_level: 40 } }), 201, "maint");
  ok(await root.post(`/projects/${W.app.id}/members`, { json: { user_id: W.users.dev.id, access_level: 30 } }), 201, "dev");
  const created = async (json: Record<string, unknown>) => ok(await root.post("/user/runners", { json }), 201, "runner").body as { id: number; token: string };
  W.instance = await created({ runner_type: "instance_type", description: "shared", tag_list: ["linux", "docker"] });
  W.groupRunner = await created({ runner_type: "group_type", group_id: W.group.id, description: "group" });
  W.projectRunner = await created({ runner_type: "project_type", project_id: W.app.id, description: "project", paused: true });
});
afterAll(async () => {
  await database.release();
  await app.stop();
});

const ids = (res: ApiResponse) => (res.body as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);

describe("creation and tokens", () => {
  test("POST /user/runners returns a glrt- token once; the runner starts never contacted", async () => {
    expect(W.instance.token).toMatch(/^glrt-/);
    const res = ok(await root.get(`/runners/${W.instance.id}`), 200, "get");
    expect(res.body).toMatchObject({
      id: W.instance.id,
      description: "shared",
      ip_address: "",
      active: true,
      paused: false,
      is_shared: true,
      runner_type: "instance_type",
      online: false,
      status: "never_contacted",
      tag_list: ["docker", "linux"],
      run_untagged: true,
      locked: false,
      access_level: "not_protected",
      contacted_at: null,
      maintenance_note: null,
      projects: [],
    });
    const project = ok(await root.get(`/runners/${W.projectRunner.id}`), 200, "project runner").body;
    expect(project).toMatchObject({ runner_type: "project_type", is_shared: false, paused: true, active: false, projects: [{ id: W.app.id, path_with_namespace: "ci/app" }] });
    const group = ok(await root.get(`/runners/${W.groupRunner.id}`), 200, "group runner").body;
    expect(group.groups).toEqual([expect.objectContaining({ id: W.group.id, name: "ci" })]);
  });

  test("POST /user/runners permissions and params", async () => {
    expect((await W.users.maint.api.post("/user/runners", { json: { runner_type: "instance_type" } })).status).toBe(403);
    expect((await W.users.dev.api.post("/user/runners", { json: { runner_type: "project_type", project_id: W.app.id } })).body).toEqual({ message: "403 Forbidden - Insufficient permissions" });
    expect((await W.users.maint.api.post("/user/runners", { json: { runner_type: "group_type", group_id: W.group.id } })).status).toBe(403);
    expect((await root.post("/user/runners", { json: { runner_type: "group_type" } })).body).toEqual({ message: "400 Bad request - group_id is missing" });
    expect((await root.post("/user/runners", { json: { runner_type: "bogus" } })).body).toEqual({ error: "runner_type does not have a valid value" });
  });

  test("registration tokens: reset (instance/group/project), register, verify, reset, unregister", async () => {
    expect((await W.users.maint.api.post("/runners/reset_registration_token")).status).toBe(403);
    const instanceToken = ok(await root.post("/runners/reset_registration_token"), 201, "instance token").body;
    expect(instanceToken).toEqual({ token: expect.stringMatching(/^GR1348941/), token_expires_at: null });
    expect((await W.users.dev.api.post(`/projects/${W.app.id}/runners/reset_registration_token`)).status).toBe(403);
    const projectToken = ok(await W.users.maint.api.post(`/projects/${W.app.id}/runners/reset_registration_token`), 201, "project token").body.token;
    expect((await W.users.maint.api.post(`/groups/${W.group.id}/runners/reset_registration_token`)).status).toBe(403);
    const groupToken = ok(await W.users.owner.api.post(`/groups/${W.group.id}/runners/reset_registration_token`), 201, "group token").body.token;

    const anon = apiClient(app.url);
    expect((await anon.post("/runners", { json: { token: "nope" } })).status).toBe(403);
    expect((await anon.post("/runners", { json: {} })).body).toEqual({ error: "token is missing" });
    const reg = ok(await anon.post("/runners", { json: { token: projectToken, description: "registered", tag_list: "a,b", info: { version: "17.1.0", platform: "linux" } } }), 201, "register").body;
    expect(reg).toEqual({ id: expect.any(Number), token: expect.any(String), token_expires_at: null });
    const detail = ok(await root.get(`/runners/${reg.id}`), 200, "detail").body;
    expect(detail).toMatchObject({ runner_type: "project_type", description: "registered", tag_list: ["a", "b"], version: "17.1.0", platform: "linux", projects: [{ id: W.app.id }] });
    const viaGroup = ok(await anon.post("/runners", { json: { token: groupToken } }), 201, "group register").body;
    expect(ok(await root.get(`/runners/${viaGroup.id}`), 200, "g").body.runner_type).toBe("group_type");
    const viaInstance = ok(await anon.post("/runners", { json: { token: instanceToken.token } }), 201, "instance register").body;
    expect(ok(await root.get(`/runners/${viaInstance.id}`), 200, "i").body.runner_type).toBe("instance_type");
    // An old registration token stops working after a reset.
    ok(await root.post("/runners/reset_registration_token"), 201, "again");
    expect((await anon.post("/runners", { json: { token: instanceToken.token } })).status).toBe(403);

    expect((await anon.post("/runners/verify", { json: { token: "bad" } })).status).toBe(403);
    expect(ok(await anon.post("/runners/verify", { json: { token: reg.token } }), 200, "verify").body).toEqual({ id: reg.id, token: reg.token, token_expires_at: null });
    expect(ok(await root.get(`/runners/${reg.id}`), 200, "online").body).toMatchObject({ status: "online", online: true, contacted_at: expect.any(String) });

    const reset = ok(await anon.post("/runners/reset_authentication_token", { json: { token: reg.token } }), 201, "reset own").body;
    expect(reset.token).not.toBe(reg.token);
    expect((await anon.post("/runners/verify", { json: { token: reg.token } })).status).toBe(403);
    const byId = ok(await W.users.maint.api.post(`/runners/${reg.id}/reset_authentication_token`), 201, "reset by id").body;
    expect(byId).toEqual({ token: expect.any(String), token_expires_at: null });
    expect((await W.users.dev.api.post(`/runners/${reg.id}/reset_authentication_token`)).body).toEqual({ message: "403 Forbidden - No access granted" });

    expect((await anon.delete("/runners", { query: { token: reset.token } })).status).toBe(403);
    expect((await anon.delete("/runners", { query: { token: byId.token } })).status).toBe(204);
    expect((await root.get(`/runners/${reg.id}`)).body).toEqual({ message: "404 Runner Not Found" });
    for (const r of [viaGroup, viaInstance]) ok(await root.delete(`/runners/${r.id}`), 204, "cleanup");
  });
});

/** Sets a runner's timestamps relative to now (hours ago; null = never). */
async function age(id: number, contactedHoursAgo: number | null, createdHoursAgo = 1) {
  await database.db.execute(sql`UPDATE runners.runners SET
    contacted_at = ${contactedHoursAgo === null ? null : new Date(Date.now() - contactedHoursAgo * 3600_000)},
    created_at = ${new Date(Date.now() - createdHoursAgo * 3600_000)} WHERE id = ${id}`);
}

describe("status and filters", () => {
  // Six admin-created instance runners in every status, plus the world's three.
  const R: Record<string, number> = {};
  beforeAll(async () => {
    const make = async (name: string, json: Record<string, unknown> = {}) => {
      R[name] = ok(await root.post("/user/runners", { json: { runner_type: "instance_type", description: name, ...json } }), 201, name).body.id;
    };
    await make("online", { tag_list: ["linux", "gpu"] });
    await make("offline", { tag_list: ["linux"] });
    await make("stale");
    await make("staleNever");
    await make("never", { paused: true });
    await make("versioned");
    await age(R.online, 0.5);
    await age(R.offline, 3);
    await age(R.stale, 24 * 8, 24 * 30);
    await age(R.staleNever, null, 24 * 8);
    await age(R.versioned, 1);
    await database.db.execute(sql`UPDATE runners.runners SET version = '17.1.2' WHERE id = ${R.versioned}`);
    await database.db.execute(sql`UPDATE runners.runners SET version = '16.11.0' WHERE id = ${R.online}`);
  });
  afterAll(async () => {
    for (const id of Object.values(R)) await root.delete(`/runners/${id}`);
  });

  test("status is computed from contacted_at and created_at", async () => {
    const status = async (id: number) => ok(await root.get(`/runners/${id}`), 200, "get").body;
    expect(await status(R.online)).toMatchObject({ status: "online", online: true });
    expect(await status(R.offline)).toMatchObject({ status: "offline", online: false });
    expect(await status(R.stale)).toMatchObject({ status: "stale", online: false });
    expect(await status(R.staleNever)).toMatchObject({ status: "stale", contacted_at: null });
    expect(await status(R.never)).toMatchObject({ status: "never_contacted", paused: true, active: false });
  });

  const all = (query: Record<string, string | number | boolean | string[]>) => root.get("/runners/all", { query: { per_page: 100, ...query } });
  const only = (...names: string[]) => names.map((n) => R[n]).sort((a, b) => a - b);
  const mine = (res: ApiResponse) => ids(res).filter((id) => Object.values(R).includes(id));

  test("status filter: online, offline (stale included), stale, never_contacted, deprecated active/paused", async () => {
    expect(mine(ok(await all({ status: "online" }), 200, "online"))).toEqual(only("online", "versioned"));
    expect(mine(await all({ status: "offline" }))).toEqual(only("offline", "stale"));
    expect(mine(await all({ status: "stale" }))).toEqual(only("stale", "staleNever"));
    expect(mine(await all({ status: "never_contacted" }))).toEqual(only("staleNever", "never"));
    expect(mine(await all({ status: "paused" }))).toEqual(only("never"));
    expect(mine(await all({ status: "active" }))).toEqual(only("online", "offline", "stale", "staleNever", "versioned"));
    expect((await all({ status: "sleeping" })).body).toEqual({ error: "status does not have a valid value" });
  });

  test("type, paused, tag_list, version_prefix and scope filters", async () => {
    const byType = ids(await all({ type: "project_type" }));
    expect(byType).toContain(W.projectRunner.id);
    expect(byType).not.toContain(W.groupRunner.id);
    expect(ids(await all({ type: "group_type" }))).toEqual([W.groupRunner.id]);
    expect((await all({ type: "shared" })).body).toEqual({ error: "type does not have a valid value" });
    expect(mine(await all({ paused: true }))).toEqual(only("never"));
    expect(mine(await all({ paused: "false" }))).toHaveLength(5);
    expect(mine(await all({ tag_list: ["linux", "gpu"] }))).toEqual(only("online"));
    expect(mine(await all({ tag_list: "linux" }))).toEqual(only("online", "offline"));
    expect(mine(await all({ version_prefix: "17" }))).toEqual(only("versioned"));
    expect(mine(await all({ version_prefix: "16.11" }))).toEqual(only("online"));
    expect((await all({ version_prefix: "v17" })).body).toEqual({ error: "version_prefix is invalid" });
    // Deprecated scope: every value on /runners/all, statuses only on /runners.
    expect(ids(await all({ scope: "specific" }))).toEqual([W.groupRunner.id, W.projectRunner.id].sort((a, b) => a - b));
    expect(mine(await all({ scope: "shared" }))).toHaveLength(6);
    expect(mine(await all({ scope: "online" }))).toEqual(only("online", "versioned"));
    expect((await all({ scope: "bogus" })).body).toEqual({ error: "scope does not have a valid value" });
    expect((await W.users.maint.api.get("/runners", { query: { scope: "specific" } })).body).toEqual({ message: "Scope contains invalid value" });
    expect((await root.get("/runners", { query: { scope: "shared" } })).status).toBe(400);
    // Pagination headers.
    const paged = ok(await root.get("/runners/all", { query: { per_page: 2 } }), 200, "page");
    expect(paged.body).toHaveLength(2);
    expect(Number(paged.headers.get("x-total"))).toBeGreaterThanOrEqual(9);
  });

  test("list item shape", async () => {
    const item = (ok(await all({ status: "online" }), 200, "all").body as { id: number }[]).find((r) => r.id === R.online);
    expect(item).toEqual({ id: R.online, description: "online", ip_address: "", active: true, paused: false, is_shared: true, runner_type: "instance_type", name: null, online: true, status: "online" });
  });
});

describe("who sees and manages which runner", () => {
  test("GET /runners lists the caller's own runners; /runners/all is for administrators", async () => {
    expect(ids(ok(await W.users.maint.api.get("/runners"), 200, "maint"))).toEqual([W.projectRunner.id]);
    // A group Owner owns the group's runners and, as an inherited Maintainer, those of its projects.
    expect(ids(await W.users.owner.api.get("/runners"))).toEqual([W.groupRunner.id, W.projectRunner.id]);
    expect(ids(await W.users.owner.api.get("/runners", { query: { type: "group_type" } }))).toEqual([W.groupRunner.id]);
    expect(ids(await W.users.dev.api.get("/runners"))).toEqual([]);
    expect((await W.users.maint.api.get("/runners/all")).status).toBe(403);
    expect((await apiClient(app.url).get("/runners")).status).toBe(401);
  });

  test("project and group runner lists", async () => {
    const projectList = ids(ok(await W.users.maint.api.get(`/projects/${W.app.id}/runners`), 200, "project runners"));
    expect(projectList).toEqual(expect.arrayContaining([W.instance.id, W.groupRunner.id, W.projectRunner.id]));
    expect(ids(await W.users.maint.api.get(`/projects/${W.app.id}/runners`, { query: { type: "project_type" } }))).toEqual([W.projectRunner.id]);
    expect((await W.users.dev.api.get(`/projects/${W.app.id}/runners`)).status).toBe(403);
    expect((await W.users.outsider.api.get(`/projects/${W.app.id}/runners`)).body).toEqual({ message: "404 Project Not Found" });
    const groupList = ids(ok(await W.users.owner.api.get(`/groups/${W.group.id}/runners`, { query: { type: "group_type" } }), 200, "group runners"));
    expect(groupList).toEqual([W.groupRunner.id]);
    expect((await W.users.maint.api.get(`/groups/${W.group.id}/runners`)).status).toBe(403);
  });

  test.each([
    // who, runner, read, update
    ["outsider", "instance", 200, 403],
    ["dev", "instance", 200, 403],
    ["dev", "projectRunner", 200, 403],
    ["maint", "projectRunner", 200, 200],
    ["outsider", "projectRunner", 403, 403],
    ["maint", "groupRunner", 403, 403],
    ["owner", "groupRunner", 200, 200],
    ["owner", "projectRunner", 200, 200],
  ] as const)("%s on the %s runner: read %i, update %i", async (who, which, read, update) => {
    const runner = W[which];
    const api = W.users[who].api;
    expect((await api.get(`/runners/${runner.id}`)).status).toBe(read);
    const res = await api.put(`/runners/${runner.id}`, { json: { description: `by ${who}` } });
    expect(res.status).toBe(update);
    if (update === 403) expect(res.body).toEqual({ message: "403 Forbidden - No access granted" });
  });

  test("manage_runner tokens reach /runners/:id routes only", async () => {
    const t = ok(await root.post(`/users/${W.users.maint.id}/personal_access_tokens`, { json: { name: "mr", scopes: ["manage_runner"] } }), 201, "token").body.token;
    const api = apiClient(app.url, t);
    expect((await api.get(`/runners/${W.projectRunner.id}`)).status).toBe(200);
    expect((await api.put(`/runners/${W.projectRunner.id}`, { json: { maintenance_note: "via manage_runner" } })).status).toBe(200);
    expect((await api.get("/runners")).body).toMatchObject({ error: "insufficient_scope", scope: "api read_api" });
    expect((await api.get(`/projects/${W.app.id}/runners`)).status).toBe(403);
  });

  test("update validation: at least one param, active/paused exclusive, maintenance_note length, timeout", async () => {
    const put = (json: Record<string, unknown>) => root.put(`/runners/${W.instance.id}`, { json });
    expect((await put({})).body).toEqual({ error: "description, active, paused, tag_list, run_untagged, locked, access_level, maximum_timeout, maintenance_note are missing, at least one parameter must be provided" });
    expect((await put({ active: true, paused: true })).body).toEqual({ error: "active, paused are mutually exclusive" });
    expect((await put({ maintenance_note: "x".repeat(1025) })).body).toEqual({ message: { maintenance_note: ["is too long (maximum is 1024 characters)"] } });
    expect((await put({ maximum_timeout: 60 })).body).toEqual({ message: { maximum_timeout: ["needs to be at least 10 minutes"] } });
    expect((await put({ access_level: "everyone" })).body).toEqual({ error: "access_level does not have a valid value" });
    const updated = ok(await put({ maintenance_note: "x".repeat(1024), paused: true, tag_list: ["b", "a"], access_level: "ref_protected", maximum_timeout: 3600, locked: true }), 200, "update").body;
    expect(updated).toMatchObject({ paused: true, active: false, tag_list: ["a", "b"], access_level: "ref_protected", maximum_timeout: 3600, locked: true });
    expect(ok(await put({ active: true }), 200, "active").body).toMatchObject({ paused: false, active: true });
    expect((await root.put("/runners/999999", { json: { description: "x" } })).body).toEqual({ message: "404 Runner Not Found" });
  });

  test("assigning project runners to projects and removing them", async () => {
    const solo2 = ok(await W.users.maint.api.post("/projects", { json: { name: "maint-own" } }), 201, "own project").body;
    expect((await W.users.maint.api.post(`/projects/${solo2.id}/runners`, { json: { runner_id: W.groupRunner.id } })).body).toEqual({ message: "403 Forbidden - Runner is a group runner" });
    expect((await W.users.maint.api.post(`/projects/${W.solo.id}/runners`, { json: { runner_id: W.projectRunner.id } })).status).toBe(404);
    const enabled = ok(await W.users.maint.api.post(`/projects/${solo2.id}/runners`, { json: { runner_id: W.projectRunner.id } }), 201, "enable").body;
    expect(enabled).toMatchObject({ id: W.projectRunner.id, runner_type: "project_type" });
    expect((await W.users.maint.api.post(`/projects/${solo2.id}/runners`, { json: { runner_id: W.projectRunner.id } })).status).toBe(400);
    expect(ok(await root.get(`/runners/${W.projectRunner.id}`), 200, "get").body.projects.map((p: { id: number }) => p.id)).toEqual([W.app.id, solo2.id]);
    // With two projects only an administrator deletes the runner.
    expect((await W.users.maint.api.delete(`/runners/${W.projectRunner.id}`)).body).toEqual({ message: "403 Forbidden - Runner associated with more than one project" });
    expect((await W.users.maint.api.delete(`/projects/${solo2.id}/runners/${W.projectRunner.id}`)).status).toBe(204);
    expect((await W.users.maint.api.delete(`/projects/${W.app.id}/runners/${W.projectRunner.id}`)).body).toEqual({
      message: "403 Forbidden - Only one project associated with the runner. Please remove the runner instead",
    });
    expect((await W.users.maint.api.delete(`/projects/${solo2.id}/runners/${W.projectRunner.id}`)).body).toEqual({ message: "404 Runner Not Found" });
    // A locked runner cannot be assigned by non-administrators.
    ok(await root.put(`/runners/${W.projectRunner.id}`, { json: { locked: true } }), 200, "lock");
    expect((await W.users.maint.api.post(`/projects/${solo2.id}/runners`, { json: { runner_id: W.projectRunner.id } })).body).toEqual({ message: "403 Forbidden - Runner is locked" });
    ok(await root.put(`/runners/${W.projectRunner.id}`, { json: { locked: false } }), 200, "unlock");
  });

  test("deleting runners: 204 for the manager, 403 otherwise", async () => {
    const r = ok(await W.users.maint.api.post("/user/runners", { json: { runner_type: "project_type", project_id: W.app.id } }), 201, "runner").body;
    expect((await W.users.dev.api.delete(`/runners/${r.id}`)).status).toBe(403);
    expect((await W.users.maint.api.delete(`/runners/${r.id}`)).status).toBe(204);
    const i = ok(await root.post("/user/runners", { json: { runner_type: "instance_type" } }), 201, "instance").body;
    expect((await W.users.owner.api.delete(`/runners/${i.id}`)).status).toBe(403);
    expect((await root.delete(`/runners/${i.id}`)).status).toBe(204);
  });
});

describe("jobs", () => {
  test("GET /runners/:id/jobs lists the runner's jobs with status filter and order", async () => {
    ok(await root.post(`/projects/${W.app.id}/repository/branches`, { json: { branch: "jobs", ref: "main" } }), 400, "no repo");
    const p = ok(await W.users.maint.api.post("/projects", { json: { name: "with-repo", initialize_with_readme: true } }), 201, "project").body;
    const r = ok(await W.users.maint.api.post("/user/runners", { json: { runner_type: "project_type", project_id: p.id } }), 201, "runner").body;
    const schedule = ok(await W.users.maint.api.post(`/projects/${p.id}/pipeline_schedules`, { json: { description: "s", ref: "main", cron: "0 1 * * *" } }), 201, "schedule").body;
    for (let i = 0; i < 3; i++) ok(await W.users.maint.api.post(`/projects/${p.id}/pipeline_schedules/${schedule.id}/play`), 201, "play");
    // The runner's job API: each picked job carries its own job token, which reports its end.
    const runnerApi = apiClient(app.url);
    const picked: { id: number; token: string }[] = [];
    for (let i = 0; i < 3; i++) picked.push(ok(await runnerApi.post("/jobs/request", { json: { token: r.token } }), 201, "request").body);
    expect(new Set(picked.map((j) => j.token)).size).toBe(3);
    expect(picked[0].token).toMatch(/^glcbt-/);
    expect((await runnerApi.post("/jobs/request", { json: { token: r.token } })).status).toBe(204);
    expect((await runnerApi.post("/jobs/request", { json: { token: "not-a-runner" } })).status).toBe(403);
    expect((await runnerApi.put(`/jobs/${picked[0].id}`, { json: { token: picked[1].token, state: "success" } })).status).toBe(403);
    expect(ok(await runnerApi.put(`/jobs/${picked[0].id}`, { json: { token: picked[0].token, state: "success" } }), 200, "finish").body).toEqual({ id: picked[0].id, status: "success" });
    expect((await runnerApi.put(`/jobs/${picked[0].id}`, { json: { token: picked[0].token, state: "failed" } })).status).toBe(403);
    ok(await runnerApi.put(`/jobs/${picked[1].id}`, { json: { token: picked[1].token, state: "failed" } }), 200, "fail");

    const list = ok(await W.users.maint.api.get(`/runners/${r.id}/jobs`), 200, "jobs").body;
    expect(list.map((j: { id: number }) => j.id)).toEqual(picked.map((j) => j.id).reverse());
    expect(list[2]).toMatchObject({
      id: picked[0].id,
      status: "success",
      stage: "build",
      name: "build",
      ref: "main",
      tag: false,
      coverage: null,
      allow_failure: false,
      web_url: `${p.web_url}/-/jobs/${picked[0].id}`,
      pipeline: { project_id: p.id, ref: "main", status: "success", source: "schedule", sha: expect.stringMatching(/^[0-9a-f]{40}$/) },
      project: { id: p.id, path_with_namespace: "maint/with-repo" },
      user: { username: "maint" },
      commit: { id: expect.stringMatching(/^[0-9a-f]{40}$/) },
    });
    expect(list[2].duration).toEqual(expect.any(Number));
    expect(ok(await W.users.maint.api.get(`/runners/${r.id}/jobs`, { query: { status: "running" } }), 200, "running").body.map((j: { id: number }) => j.id)).toEqual([picked[2].id]);
    expect(ok(await W.users.maint.api.get(`/runners/${r.id}/jobs`, { query: { sort: "asc" } }), 200, "asc").body.map((j: { id: number }) => j.id)).toEqual(picked.map((j) => j.id));
    expect((await W.users.maint.api.get(`/runners/${r.id}/jobs`, { query: { status: "bogus" } })).body).toEqual({ error: "status does not have a valid value" });
    expect((await W.users.dev.api.get(`/runners/${r.id}/jobs`)).body).toEqual({ message: "403 Forbidden - No access granted" });
    expect(ok(await root.get(`/runners/${r.id}`), 200, "runner").body.status).toBe("online");
  });
});
