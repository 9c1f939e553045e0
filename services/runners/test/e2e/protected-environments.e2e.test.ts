import { Gitlab } from "@gitbeaker/rest";
import { apiClient, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Group protected environments (protect, list, get, update entries by id and `_destroy`,
 * unprotect → 200, validation 422 and duplicate 409), then a scripted walk with @gitbeaker/rest
 * over runners, pipeline schedules and protected environments.
 *
 * World (once per file): group "ops" with subgroup "ops/web" and an outside group "other";
 * owner (Owner of ops), maint (Maintainer of ops), dev (Developer of ops).
 */
let app: TestApp;
let root: ApiClient;
const W = {} as { ops: { id: number }; sub: { id: number }; other: { id: number }; users: Record<string, { id: number; token: string; api: ApiClient }> };

function ok<T extends ApiResponse>(res: T, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res;
}

beforeAll(async () => {
  app = await startApp("protected-environments");
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  W.ops = ok(await root.post("/groups", { json: { name: "ops", path: "ops" } }), 201, "ops").body;
  W.sub = ok(await root.post("/groups", { json: { name: "web", path: "web", parent_id: W.ops.id } }), 201, "sub").body;
  W.other = ok(await root.post("/groups", { json: { name: "other", path: "other" } }), 201, "other").body;
  W.users = {};
  for (const [name, level] of [["owner", 50], ["maint", 40], ["dev", 30]] as const) {
    const u = ok(await root.post("/users", { json: { username: name, name: `${name[0].toUpperCase()}${name.slice(1)}`, email: `${name}@example.com`, password: "s3cret-passw0rd", skip_confirmation: true } }), 201, name).body;
    const t = ok(await root.post(`/users/${u.id}/personal_access_tokens`, { json: { name: "t", scopes: ["api"] } }), 201, "token").body.token;
    ok(await root.post(`/groups/${W.ops.id}/members`, { json: { user_id: u.id, access_level: level } }), 201, "member");
    W.users[name] = { id: u.id, token: t, api: apiClient(app.url, t) };
  }
});
afterAll(() => app.stop());

const E = () => `/groups/${W.ops.id}/protected_environments`;

describe("group protected environments", () => {
  test("protect: shape, 409 duplicate, 422 invalid entries, 400 params, permissions", async () => {
    const { maint, dev, owner } = W.users;
    const created = ok(
      await maint.api.post(E(), {
        json: {
          name: "staging",
          deploy_access_levels: [{ access_level: 40 }, { user_id: owner.id }, { group_id: W.sub.id }],
          approval_rules: [{ access_level: 30, required_approvals: 2 }],
        },
      }),
      201,
      "protect",
    ).body;
    expect(created).toEqual({
      name: "staging",
      deploy_access_levels: [
        { id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", user_id: null, group_id: null, group_inheritance_type: 0 },
        { id: expect.any(Number), access_level: null, access_level_description: "Owner", user_id: owner.id, group_id: null, group_inheritance_type: 0 },
        { id: expect.any(Number), access_level: null, access_level_description: "web", user_id: null, group_id: W.sub.id, group_inheritance_type: 0 },
      ],
      required_approval_count: 0,
      approval_rules: [{ id: expect.any(Number), access_level: 30, access_level_description: "Developers + Maintainers", user_id: null, group_id: null, group_inheritance_type: 0, required_approvals: 2 }],
    });
    expect((await maint.api.post(E(), { json: { name: "staging", deploy_access_levels: [{ access_level: 40 }] } })).body).toEqual({ message: "Protected environment 'staging' already exists" });
    expect((await maint.api.post(E(), { json: { name: "staging", deploy_access_levels: [{ access_level: 40 }] } })).status).toBe(409);
    const invalid = await maint.api.post(E(), { json: { name: "production", deploy_access_levels: [{ user_id: dev.id }, { group_id: W.other.id }, { access_level: 20 }] } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.message).toHaveLength(3);
    expect((await maint.api.post(E(), { json: { name: "qa", deploy_access_levels: [{ access_level: 40 }] } })).body).toEqual({ error: "name does not have a valid value" });
    expect((await maint.api.post(E(), { json: { name: "production" } })).body).toEqual({ error: "deploy_access_levels is missing" });
    expect((await dev.api.post(E(), { json: { name: "production", deploy_access_levels: [{ access_level: 40 }] } })).status).toBe(403);
    expect((await dev.api.get(E())).status).toBe(403);
  });

  test("list (sorted by name), get, update entries by id and _destroy, unprotect 200", async () => {
    const { maint, owner } = W.users;
    ok(await maint.api.post(E(), { json: { name: "production", deploy_access_levels: [{ access_level: 40 }, { access_level: 60 }] } }), 201, "production");
    const list = ok(await maint.api.get(E()), 200, "list").body;
    expect(list.map((e: { name: string }) => e.name)).toEqual(["production", "staging"]);
    const prod = ok(await maint.api.get(`${E()}/production`), 200, "get").body;
    expect(prod.deploy_access_levels.map((d: { access_level: number }) => d.access_level)).toEqual([40, 60]);
    expect((await maint.api.get(`${E()}/development`)).body).toEqual({ message: "404 Not found" });

    const [keep, drop] = prod.deploy_access_levels;
    const updated = ok(
      await maint.api.put(`${E()}/production`, {
        json: {
          deploy_access_levels: [{ id: drop.id, _destroy: true }, { id: keep.id, access_level: 30 }, { user_id: owner.id }],
          approval_rules: [{ group_id: W.sub.id, required_approvals: 1 }],
          required_approval_count: 1,
        },
      }),
      200,
      "update",
    ).body;
    expect(updated.deploy_access_levels).toEqual([
      expect.objectContaining({ id: keep.id, access_level: 30, access_level_description: "Developers + Maintainers" }),
      expect.objectContaining({ user_id: owner.id, access_level_description: "Owner" }),
    ]);
    expect(updated.approval_rules).toEqual([expect.objectContaining({ group_id: W.sub.id, required_approvals: 1 })]);
    expect(updated.required_approval_count).toBe(1);
    expect((await maint.api.put(`${E()}/production`, { json: { deploy_access_levels: [{ user_id: W.users.dev.id }] } })).status).toBe(422);
    expect((await maint.api.put(`${E()}/production`, { json: { deploy_access_levels: [{ id: 999999, _destroy: true }] } })).status).toBe(404);

    const removed = await maint.api.delete(`${E()}/production`);
    expect(removed.status).toBe(200);
    expect(removed.body.name).toBe("production");
    expect((await maint.api.get(`${E()}/production`)).status).toBe(404);
    expect((await maint.api.delete(`${E()}/production`)).status).toBe(404);
  });
});

describe("@gitbeaker/rest walk", () => {
  test("runners, pipeline schedules and protected environments through the client library", async () => {
    const api = new Gitlab({ host: app.url, token: app.rootToken });
    // Protected environments.
    const env = await api.GroupProtectedEnvironments.create(W.ops.id, "testing", [{ access_level: 40 }]);
    expect(env.name).toBe("testing");
    expect((await api.GroupProtectedEnvironments.all(W.ops.id)).map((e) => e.name)).toContain("testing");
    const edited = await api.GroupProtectedEnvironments.edit(W.ops.id, "testing", { deployAccessLevels: [{ access_level: 60 }] });
    expect(edited.deploy_access_levels).toHaveLength(2);
    expect((await api.GroupProtectedEnvironments.show(W.ops.id, "testing")).name).toBe("testing");
    await api.GroupProtectedEnvironments.remove(W.ops.id, "testing");

    // Runners: a registration token, register, verify, edit, list, jobs, remove.
    const project = await api.Projects.create({ name: "walk", initializeWithReadme: true });
    const reg = await root.post(`/projects/${project.id}/runners/reset_registration_token`);
    const runner = await api.Runners.register(reg.body.token, { description: "walker", tagList: ["walk"] });
    expect(runner.token).toEqual(expect.any(String));
    const verified = await api.Runners.verify({ token: runner.token });
    expect(verified).toMatchObject({ id: runner.id });
    const shown = await api.Runners.show(runner.id);
    expect(shown).toMatchObject({ description: "walker", status: "online", tag_list: ["walk"] });
    expect((await api.Runners.edit(runner.id, { paused: true, maintenanceNote: "walk" })).paused).toBe(true);
    expect((await api.Runners.all({ projectId: project.id, type: "project_type" })).map((r) => r.id)).toEqual([runner.id]);
    expect((await api.Runners.all({ allRunners: true, status: "online" } as never)).map((r) => r.id)).toContain(runner.id);

    // Pipeline schedules and their variables.
    const schedule = await api.PipelineSchedules.create(project.id, "walk schedule", "main", "0 4 * * 1-5", { cronTimezone: "Europe/Berlin" });
    expect(schedule).toMatchObject({ ref: "refs/heads/main", cron_timezone: "Europe/Berlin" });
    await api.PipelineScheduleVariables.create(project.id, schedule.id, "WALK", "yes");
    await api.PipelineScheduleVariables.edit(project.id, schedule.id, "WALK", "still");
    const detail = await api.PipelineSchedules.show(project.id, schedule.id);
    expect(detail.variables).toEqual([{ key: "WALK", value: "still", variable_type: "env_var", raw: false }]);
    await api.PipelineSchedules.edit(project.id, schedule.id, { cron: "0 5 * * *" });
    await api.PipelineSchedules.run(project.id, schedule.id);
    expect(await api.PipelineSchedules.allTriggeredPipelines(project.id, schedule.id)).toHaveLength(1);
    expect((await api.PipelineSchedules.all(project.id)).map((s) => s.id)).toEqual([schedule.id]);
    await api.PipelineScheduleVariables.remove(project.id, schedule.id, "WALK");
    await api.PipelineSchedules.remove(project.id, schedule.id);
    expect(await api.PipelineSchedules.all(project.id)).toEqual([]);

    await api.Runners.remove({ runnerId: runner.id });
    await expect(api.Runners.show(runner.id)).rejects.toThrow();
  });
});
