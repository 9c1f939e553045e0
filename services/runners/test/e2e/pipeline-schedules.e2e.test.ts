import { call, loadConfig } from "@collab/core";
import { openDatabase, type Database } from "@collab/db";
import { Runners } from "@collab/runners-contract";
import { apiClient, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";
import { Repositories } from "@collab/repositories-contract";

/**
 * Repository refs (branches, tags, repositories.refs.resolve) and pipeline schedules: CRUD,
 * validation, ownership, run-now, variables, and the scheduler firing each due run exactly once.
 *
 * World (once per file): project root/app (private, initialized: branch main), with branch
 * `feature`, tag `v1` and an ambiguous `both` (branch and tag); maint (Maintainer), dev and dev2
 * (Developers), reporter (Reporter). Tests create their own schedules.
 */
let app: TestApp;
let root: ApiClient;
let database: Database;
let P: { id: number; web_url: string };
const U = {} as Record<"maint" | "dev" | "dev2" | "reporter" | "outsider", { id: number; api: ApiClient }>;

function ok<T extends ApiResponse>(res: T, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res;
}

beforeAll(async () => {
  app = await startApp("pipeline-schedules");
  await app.reset();
  const config = loadConfig();
  database = await openDatabase(config.DATABASE_URL ?? process.env.TEST_TOPOLOGY_DATABASE_URL);
  root = apiClient(app.url, app.rootToken);
  P = ok(await root.post("/projects", { json: { name: "app", initialize_with_readme: true } }), 201, "project").body;
  const levels = { maint: 40, dev: 30, dev2: 30, reporter: 20, outsider: 0 } as const;
  for (const [name, level] of Object.entries(levels)) {
    const u = ok(await root.post("/users", { json: { username: name, name, email: `${name}@example.com`, password: "s3cret-passw0rd", skip_confirmation: true } }), 201, name).body;
    const t = ok(await root.post(`/users/${u.id}/personal_access_tokens`, { json: { name: "t", scopes: ["api"] } }), 201, "token").body;
    if (level) ok(await root.post(`/projects/${P.id}/members`, { json: { user_id: u.id, access_level: level } }), 201, "member");
    U[name as keyof typeof U] = { id: u.id, api: apiClient(app.url, t.token) };
  }
  ok(await root.post(`/projects/${P.id}/repository/branches`, { json: { branch: "feature", ref: "main" } }), 201, "feature");
  ok(await root.post(`/projects/${P.id}/repository/tags`, { json: { tag_name: "v1", ref: "main" } }), 201, "v1");
  ok(await root.post(`/projects/${P.id}/repository/branches`, { json: { branch: "both", ref: "main" } }), 201, "both branch");
  ok(await root.post(`/projects/${P.id}/repository/tags`, { json: { tag_name: "both", ref: "feature" } }), 201, "both tag");
});
afterAll(async () => {
  await database.release();
  await app.stop();
});

const S = () => `/projects/${P.id}/pipeline_schedules`;
const schedule = async (api: ApiClient, json: Record<string, unknown> = {}) =>
  ok(await api.post(S(), { json: { description: "nightly", ref: "main", cron: "0 1 * * *", ...json } }), 201, "schedule").body as { id: number; next_run_at: string };

describe("repository refs", () => {
  test("branches: the default branch exists, list/get shapes, create and delete rules", async () => {
    const list = ok(await U.reporter.api.get(`/projects/${P.id}/repository/branches`), 200, "branches").body;
    expect(list.map((b: { name: string }) => b.name)).toEqual(["both", "feature", "main"]);
    const main = ok(await U.dev.api.get(`/projects/${P.id}/repository/branches/main`), 200, "main").body;
    expect(main).toEqual({
      name: "main",
      merged: false,
      protected: true,
      developers_can_push: false,
      developers_can_merge: false,
      can_push: false,
      default: true,
      web_url: `${P.web_url}/-/tree/main`,
      commit: expect.objectContaining({ id: expect.stringMatching(/^[0-9a-f]{40}$/), short_id: expect.stringMatching(/^[0-9a-f]{8}$/), title: "Initial commit", created_at: expect.any(String) }),
    });
    const feature = ok(await U.dev.api.get(`/projects/${P.id}/repository/branches/feature`), 200, "feature").body;
    expect(feature).toMatchObject({ default: false, protected: false, can_push: true });
    expect(feature.commit.id).toBe(main.commit.id);
    expect((await U.reporter.api.post(`/projects/${P.id}/repository/branches`, { json: { branch: "x", ref: "main" } })).status).toBe(403);
    expect((await U.dev.api.post(`/projects/${P.id}/repository/branches`, { json: { branch: "x", ref: "nope" } })).body).toEqual({ message: "Invalid reference name: nope" });
    expect((await U.dev.api.post(`/projects/${P.id}/repository/branches`, { json: { branch: "feature", ref: "main" } })).body).toEqual({ message: "Branch already exists" });
    expect((await U.dev.api.post(`/projects/${P.id}/repository/branches`, { json: { ref: "main" } })).body).toEqual({ error: "branch is missing" });
    ok(await U.dev.api.post(`/projects/${P.id}/repository/branches`, { json: { branch: "from-tag", ref: "v1" } }), 201, "from tag");
    expect((await U.dev.api.delete(`/projects/${P.id}/repository/branches/main`)).body).toEqual({ message: "The default branch of a project cannot be deleted." });
    expect((await U.dev.api.delete(`/projects/${P.id}/repository/branches/from-tag`)).status).toBe(204);
    expect((await U.dev.api.get(`/projects/${P.id}/repository/branches/from-tag`)).body).toEqual({ message: "404 Branch Not Found" });
    expect((await U.outsider.api.get(`/projects/${P.id}/repository/branches`)).body).toEqual({ message: "404 Project Not Found" });
  });

  test("tags", async () => {
    const tags = ok(await U.reporter.api.get(`/projects/${P.id}/repository/tags`), 200, "tags").body;
    expect(tags.map((t: { name: string }) => t.name)).toEqual(["both", "v1"]);
    expect(tags[1]).toMatchObject({ name: "v1", target: expect.stringMatching(/^[0-9a-f]{40}$/), release: null, protected: false });
    expect((await U.dev.api.post(`/projects/${P.id}/repository/tags`, { json: { tag_name: "v1", ref: "main" } })).body).toEqual({ message: "Tag v1 already exists" });
    ok(await U.dev.api.post(`/projects/${P.id}/repository/tags`, { json: { tag_name: "tmp", ref: "main", message: "annotated" } }), 201, "tmp");
    expect((await U.dev.api.delete(`/projects/${P.id}/repository/tags/tmp`)).status).toBe(204);
    expect((await U.dev.api.get(`/projects/${P.id}/repository/tags/tmp`)).body).toEqual({ message: "404 Tag Not Found" });
  });

  test("repositories.refs.resolve: short and full forms, ambiguity", async () => {
    const resolve = (ref: string) => call(app.broker, Repositories.refs.resolve, { project_id: P.id, ref });
    expect(await resolve("main")).toMatchObject({ status: "ok", kind: "branch", name: "main", full_ref: "refs/heads/main" });
    expect(await resolve("refs/heads/main")).toMatchObject({ status: "ok", full_ref: "refs/heads/main" });
    expect(await resolve("v1")).toMatchObject({ status: "ok", kind: "tag", full_ref: "refs/tags/v1" });
    expect(await resolve("refs/tags/v1")).toMatchObject({ status: "ok", kind: "tag" });
    expect(await resolve("both")).toEqual({ status: "ambiguous" });
    expect(await resolve("refs/tags/both")).toMatchObject({ status: "ok", kind: "tag" });
    expect(await resolve("refs/heads/v1")).toEqual({ status: "missing" });
    expect(await resolve("nope")).toEqual({ status: "missing" });
  });
});

describe("pipeline schedules", () => {
  test("create: full ref form, next_run_at, owner, detail shape; validation errors", async () => {
    const before = Date.now();
    const s = ok(await U.dev.api.post(S(), { json: { description: "nightly", ref: "main", cron: "0 1 * * *", cron_timezone: "Asia/Tokyo" } }), 201, "create").body;
    expect(s).toEqual({
      id: expect.any(Number),
      description: "nightly",
      ref: "refs/heads/main",
      cron: "0 1 * * *",
      cron_timezone: "Asia/Tokyo",
      next_run_at: expect.any(String),
      active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      owner: expect.objectContaining({ username: "dev" }),
      last_pipeline: null,
      variables: [],
    });
    const next = new Date(s.next_run_at);
    expect(next.getUTCHours()).toBe(16); // 01:00 in Tokyo
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getTime() - before).toBeLessThanOrEqual(24 * 3600_000);
    expect(ok(await U.dev.api.post(S(), { json: { description: "tag", ref: "v1", cron: "@daily", cron_timezone: "Tokyo" } }), 201, "tag").body.ref).toBe("refs/tags/v1");

    const bad = (json: Record<string, unknown>) => U.dev.api.post(S(), { json: { description: "d", ref: "main", cron: "* * * * *", ...json } });
    expect((await bad({ cron: "61 * * * *" })).body).toEqual({ message: { cron: [" is invalid syntax"] } });
    expect((await bad({ cron_timezone: "Mars/Olympus" })).body).toEqual({ message: { cron_timezone: [" is invalid syntax"] } });
    expect((await bad({ ref: "both" })).body).toEqual({ message: { ref: ["is ambiguous"] } });
    expect((await bad({ active: "maybe" })).body).toEqual({ error: "active is invalid" });
    expect((await U.dev.api.post(S(), { json: {} })).body).toEqual({ error: "description is missing, ref is missing, cron is missing" });
    expect((await U.reporter.api.post(S(), { json: { description: "d", ref: "main", cron: "* * * * *" } })).status).toBe(403);
  });

  test("list with scope, get, 404s and read permissions", async () => {
    const a = await schedule(U.dev.api, { description: "active" });
    const i = await schedule(U.dev.api, { description: "inactive", active: false });
    const idsOf = (res: ApiResponse) => (res.body as { id: number }[]).map((s) => s.id);
    const all = ok(await U.reporter.api.get(S()), 200, "list");
    expect(idsOf(all)).toEqual(expect.arrayContaining([a.id, i.id]));
    expect(all.body[0]).not.toHaveProperty("variables");
    expect(idsOf(await U.reporter.api.get(S(), { query: { scope: "active" } }))).not.toContain(i.id);
    expect(idsOf(await U.reporter.api.get(S(), { query: { scope: "inactive" } }))).toContain(i.id);
    expect((await U.reporter.api.get(S(), { query: { scope: "paused" } })).body).toEqual({ error: "scope does not have a valid value" });
    // Reporters read schedules but not their variables.
    expect(ok(await U.reporter.api.get(`${S()}/${a.id}`), 200, "get").body).not.toHaveProperty("variables");
    expect((await U.reporter.api.get(`${S()}/999999`)).body).toEqual({ message: "404 Pipeline Schedule Not Found" });
    expect((await U.outsider.api.get(S())).body).toEqual({ message: "404 Project Not Found" });
  });

  test("edit recomputes next_run_at; only the owner edits; take ownership 201 then 200; delete 204", async () => {
    const s = await schedule(U.dev.api);
    expect((await U.maint.api.put(`${S()}/${s.id}`, { json: { cron: "30 2 * * *" } })).status).toBe(403);
    expect((await U.dev2.api.put(`${S()}/${s.id}`, { json: { description: "x" } })).status).toBe(403);
    const edited = ok(await U.dev.api.put(`${S()}/${s.id}`, { json: { cron: "30 2 * * *", ref: "feature", active: false } }), 200, "edit").body;
    expect(edited).toMatchObject({ cron: "30 2 * * *", ref: "refs/heads/feature", active: false });
    expect(new Date(edited.next_run_at).getUTCMinutes()).toBe(30);
    expect(edited.next_run_at).not.toBe(s.next_run_at);
    expect((await U.dev.api.put(`${S()}/${s.id}`, { json: { cron_timezone: "Nowhere" } })).body).toEqual({ message: { cron_timezone: [" is invalid syntax"] } });

    expect((await U.dev2.api.post(`${S()}/${s.id}/take_ownership`)).status).toBe(403);
    const taken = await U.maint.api.post(`${S()}/${s.id}/take_ownership`);
    expect(taken.status).toBe(201);
    expect(taken.body.owner.username).toBe("maint");
    expect((await U.maint.api.post(`${S()}/${s.id}/take_ownership`)).status).toBe(200);
    expect((await U.dev.api.delete(`${S()}/${s.id}`)).status).toBe(403);
    expect((await U.maint.api.delete(`${S()}/${s.id}`)).status).toBe(204);
    expect((await U.maint.api.get(`${S()}/${s.id}`)).status).toBe(404);
  });

  test("play creates a schedule pipeline without moving next_run_at", async () => {
    const s = await schedule(U.dev.api, { ref: "v1" });
    expect((await U.reporter.api.post(`${S()}/${s.id}/play`)).status).toBe(403);
    const played = await U.dev.api.post(`${S()}/${s.id}/play`);
    expect(played.status).toBe(201);
    expect(played.body).toEqual({ message: "201 Created" });
    const detail = ok(await U.dev.api.get(`${S()}/${s.id}`), 200, "detail").body;
    expect(detail.next_run_at).toBe(s.next_run_at);
    expect(detail.last_pipeline).toMatchObject({ id: expect.any(Number), ref: "v1", status: "pending", sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const pipelines = ok(await U.reporter.api.get(`${S()}/${s.id}/pipelines`), 200, "pipelines").body;
    expect(pipelines).toEqual([
      {
        id: detail.last_pipeline.id,
        iid: expect.any(Number),
        project_id: P.id,
        sha: detail.last_pipeline.sha,
        ref: "v1",
        status: "pending",
        source: "schedule",
        created_at: expect.any(String),
        updated_at: expect.any(String),
        web_url: `${P.web_url}/-/pipelines/${detail.last_pipeline.id}`,
      },
    ]);
  });

  test("variables: create 201, update 200, delete 202 with the variable; key rules", async () => {
    const s = await schedule(U.dev.api);
    const V = `${S()}/${s.id}/variables`;
    expect(ok(await U.dev.api.post(V, { json: { key: "DEPLOY_ENV", value: "prod" } }), 201, "create").body).toEqual({ key: "DEPLOY_ENV", variable_type: "env_var", value: "prod", raw: false });
    expect((await U.dev.api.post(V, { json: { key: "DEPLOY_ENV", value: "x" } })).body).toEqual({ message: { key: ["(DEPLOY_ENV) has already been taken"] } });
    expect((await U.dev.api.post(V, { json: { key: "bad-key", value: "x" } })).body).toEqual({ message: { key: ["can contain only letters, digits and '_'."] } });
    expect((await U.dev.api.post(V, { json: { key: "K".repeat(256), value: "x" } })).body).toEqual({ message: { key: ["is too long (maximum is 255 characters)"] } });
    ok(await U.dev.api.post(V, { json: { key: "K".repeat(255), value: "x", variable_type: "file" } }), 201, "255");
    expect((await U.dev.api.post(V, { json: { key: "T", value: "x", variable_type: "yaml" } })).body).toEqual({ error: "variable_type does not have a valid value" });
    expect((await U.maint.api.post(V, { json: { key: "OTHER", value: "x" } })).status).toBe(403);
    expect(ok(await U.dev.api.put(`${V}/DEPLOY_ENV`, { json: { value: "staging", variable_type: "file" } }), 200, "update").body).toEqual({ key: "DEPLOY_ENV", variable_type: "file", value: "staging", raw: false });
    // Both params are optional: an update with none (`{}`, or a JSON body that is no object) answers the variable unchanged.
    for (const json of [{}, null, []]) expect(ok(await U.dev.api.put(`${V}/DEPLOY_ENV`, { json }), 200, `update with ${JSON.stringify(json)}`).body).toEqual({ key: "DEPLOY_ENV", variable_type: "file", value: "staging", raw: false });
    expect((await U.dev.api.put(`${V}/NOPE`, { json: { value: "x" } })).body).toEqual({ message: "404 Pipeline Schedule Variable Not Found" });
    expect(ok(await U.dev.api.get(`${S()}/${s.id}`), 200, "detail").body.variables).toHaveLength(2);
    const del = await U.dev.api.delete(`${V}/DEPLOY_ENV`);
    expect(del.status).toBe(202);
    expect(del.body).toEqual({ key: "DEPLOY_ENV", variable_type: "file", value: "staging", raw: false });
  });

  test("the scheduler fires each due run exactly once under concurrent ticks, and advances next_run_at", async () => {
    const due = await Promise.all([schedule(U.dev.api, { cron: "*/5 * * * *" }), schedule(U.dev.api, { cron: "0 * * * *", ref: "v1" }), schedule(U.dev.api, { cron: "0 0 * * *", active: false })]);
    const ids = due.map((s) => s.id);
    await database.db.execute(sql`UPDATE runners.pipeline_schedules SET next_run_at = now() - interval '1 minute' WHERE id IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`);
    const results = await Promise.all(Array.from({ length: 8 }, () => call(app.broker, Runners.scheduler.tick, {})));
    const fired = results.flatMap((r) => r.pipeline_ids);
    const counts = await Promise.all(due.map(async (s) => (ok(await U.dev.api.get(`${S()}/${s.id}/pipelines`), 200, "pipelines").body as unknown[]).length));
    expect(counts).toEqual([1, 1, 0]);
    expect(new Set(fired).size).toBe(fired.length);
    const after = ok(await U.dev.api.get(`${S()}/${due[0].id}`), 200, "after").body;
    expect(new Date(after.next_run_at).getTime()).toBeGreaterThan(Date.now());
    expect(after.last_pipeline).toMatchObject({ status: "pending", ref: "main" });
    // Nothing is due any more.
    expect((await call(app.broker, Runners.scheduler.tick, {})).pipeline_ids.filter((id) => !fired.includes(id))).toEqual([]);
  });
});
