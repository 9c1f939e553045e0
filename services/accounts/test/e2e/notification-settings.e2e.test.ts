import { Accounts } from "@collab/accounts-contract";
import { call } from "@collab/core";
import { Gitlab } from "@gitbeaker/rest";
import {
  apiClient,
  assertStatus as ok,
  createGroup,
  createPersonalAccessToken,
  createProject,
  createUser,
  createUserAccount,
  eventually,
  type ApiClient,
  type TestApp,
  type TestUser,
} from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

// No purge timer: groups and projects are removed at once with permanently_remove.
process.env.DELETION_PURGE_INTERVAL_MS ??= "0";

/**
 * GitLab's notification settings API (lib/api/notification_settings.rb) on the default tier,
 * Ultimate: the caller's global setting (with notification_email) and their group and project
 * settings, the effective level mail features ask for on the bus, and the cleanup when a group,
 * project or user goes.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("notification-settings");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const LEVELS = ["disabled", "participating", "watch", "global", "mention", "custom"] as const;
const EVENTS = [
  "new_note",
  "new_issue",
  "reopen_issue",
  "close_issue",
  "reassign_issue",
  "issue_due",
  "new_merge_request",
  "push_to_merge_request",
  "reopen_merge_request",
  "close_merge_request",
  "reassign_merge_request",
  "merge_merge_request",
  "failed_pipeline",
  "fixed_pipeline",
  "success_pipeline",
  "moved_project",
  "merge_when_pipeline_succeeds",
];
const ULTIMATE_EVENTS = [...EVENTS, "new_epic"];

/** Every event switched to `on`, except the ones named, which take the opposite. */
const switches = (events: string[], on: boolean, flipped: string[] = []) => Object.fromEntries(events.map((e) => [e, flipped.includes(e) ? !on : on]));

const effective = (userIds: number[], where: { project_id?: number; group_ids?: number[] }) =>
  call(app.broker, Accounts.notifications.effectiveLevel, { user_ids: userIds, ...where });

async function aliceWithGroupAndProject() {
  const alice = await createUser(app, "alice");
  const group = await createGroup(alice.api, "Team", "team", { visibility: "private" });
  const project = await createProject(alice.api, { name: "api", namespace_id: group.id, visibility: "private" });
  return { alice, group, project };
}

describe("global settings", () => {
  test("participating and the primary address by default; every level round-trips", async () => {
    const alice = await createUser(app, "alice");
    expect(ok(await alice.api.get("/notification_settings"), 200, "GET").body).toEqual({ level: "participating", notification_email: "alice@example.com" });
    for (const level of LEVELS.filter((l) => l !== "custom")) {
      const put = await alice.api.put("/notification_settings", { json: { level } });
      expect([put.status, put.body]).toEqual([200, { level, notification_email: "alice@example.com" }]);
      expect((await alice.api.get("/notification_settings")).body).toEqual({ level, notification_email: "alice@example.com" });
    }
  });

  test("custom exposes every event, new_epic included on Ultimate; switches set at any level are kept", async () => {
    const alice = await createUser(app, "alice");
    // Query-string params, as GitLab's docs show them; events set under another level are stored too.
    ok(await alice.api.put("/notification_settings", { query: { level: "watch", new_note: true, new_epic: "true" } }), 200, "PUT watch");
    const custom = await alice.api.put("/notification_settings", { json: { level: "custom", success_pipeline: true, failed_pipeline: false } });
    expect(custom.status).toBe(200);
    expect(custom.body).toEqual({
      level: "custom",
      events: { ...switches(ULTIMATE_EVENTS, false, ["fixed_pipeline", "moved_project"]), new_note: true, new_epic: true, success_pipeline: true },
      notification_email: "alice@example.com",
    });
    expect(Object.keys(custom.body.events)).toEqual(ULTIMATE_EVENTS);
    expect((await alice.api.get("/notification_settings")).body).toEqual(custom.body);
    // Leaving custom hides the events; a PUT without params changes nothing.
    ok(await alice.api.put("/notification_settings", { json: { level: "mention" } }), 200, "PUT mention");
    expect((await alice.api.put("/notification_settings")).body).toEqual({ level: "mention", notification_email: "alice@example.com" });
  });

  test("every event switches on and off", async () => {
    const alice = await createUser(app, "alice");
    const on = await alice.api.put("/notification_settings", { json: { level: "custom", ...switches(ULTIMATE_EVENTS, true) } });
    expect(on.body.events).toEqual(switches(ULTIMATE_EVENTS, true));
    const off = await alice.api.put("/notification_settings", { form: Object.fromEntries(ULTIMATE_EVENTS.map((e) => [e, "false"])) });
    expect(off.body.events).toEqual(switches(ULTIMATE_EVENTS, false));
  });

  test("notification_email must be an address the user has verified", async () => {
    const alice = await createUser(app, "alice");
    const verified = await alice.api.put("/notification_settings", { json: { notification_email: "Alice@Example.com", level: "watch" } });
    expect([verified.status, verified.body]).toEqual([200, { level: "watch", notification_email: "alice@example.com" }]);

    const other = await alice.api.put("/notification_settings", { json: { notification_email: "somebody@else.test", level: "disabled" } });
    expect([other.status, other.body]).toEqual([400, { message: { notification_email: ["must be an email you have verified"] } }]);
    // Nothing of a refused PUT is written.
    expect((await alice.api.get("/notification_settings")).body).toEqual({ level: "watch", notification_email: "alice@example.com" });

    // Another user's address is not this user's, and a blank one goes back to the primary address.
    await createUserAccount(app, "bob");
    expect((await alice.api.put("/notification_settings", { json: { notification_email: "bob@example.com" } })).status).toBe(400);
    expect((await alice.api.put("/notification_settings", { json: { notification_email: "" } })).body).toEqual({ level: "watch", notification_email: "alice@example.com" });
  });

  test("an unconfirmed primary address is not verified, and a changed primary address is what mail uses", async () => {
    const carol = await createUserAccount(app, "carol", { skip_confirmation: false });
    const { token } = await createPersonalAccessToken(app, carol.id);
    const api = apiClient(app.url, token);
    expect((await api.get("/notification_settings")).body).toEqual({ level: "participating", notification_email: "carol@example.com" });
    const res = await api.put("/notification_settings", { json: { notification_email: "carol@example.com" } });
    expect([res.status, res.body]).toEqual([400, { message: { notification_email: ["must be an email you have verified"] } }]);

    const alice = await createUser(app, "alice");
    ok(await alice.api.put("/notification_settings", { json: { notification_email: "alice@example.com" } }), 200, "PUT email");
    ok(await root.put(`/users/${alice.id}`, { json: { email: "alice@new.test" } }), 200, "change email");
    expect((await alice.api.get("/notification_settings")).body.notification_email).toBe("alice@new.test");
    expect((await effective([alice.id], {}))[0]).toMatchObject({ notification_email: "alice@new.test" });
  });
});

describe("group and project settings", () => {
  test("global by default; every level and a custom event set round-trip", async () => {
    const { alice, group, project } = await aliceWithGroupAndProject();
    for (const [kind, id] of [["groups", group.id], ["projects", project.id]] as const) {
      const path = `/${kind}/${id}/notification_settings`;
      expect([kind, (await alice.api.get(path)).body]).toEqual([kind, { level: "global" }]);
      for (const level of LEVELS.filter((l) => l !== "custom")) {
        expect([kind, (await alice.api.put(path, { json: { level } })).body]).toEqual([kind, { level }]);
        expect([kind, (await alice.api.get(path)).body]).toEqual([kind, { level }]);
      }
    }
    // Epics live in groups: new_epic is a group event (on Ultimate), never a project one.
    const groupCustom = await alice.api.put(`/groups/${group.id}/notification_settings`, { json: { level: "custom", new_epic: true, new_issue: true } });
    expect(groupCustom.body).toEqual({ level: "custom", events: { ...switches(ULTIMATE_EVENTS, false, ["failed_pipeline", "fixed_pipeline", "moved_project"]), new_issue: true, new_epic: true } });
    const projectCustom = await alice.api.put(`/projects/${project.id}/notification_settings`, { json: { level: "custom", new_note: true, moved_project: false, new_epic: true } });
    expect(projectCustom.body).toEqual({ level: "custom", events: { ...switches(EVENTS, false, ["failed_pipeline", "fixed_pipeline"]), new_note: true } });
    expect((await alice.api.get(`/projects/${project.id}/notification_settings`)).body).toEqual(projectCustom.body);
    expect((await alice.api.get(`/groups/${group.id}/notification_settings`)).body).toEqual(groupCustom.body);
    // Settings are per user: root's are untouched.
    expect((await root.get(`/projects/${project.id}/notification_settings`)).body).toEqual({ level: "global" });
  });

  test("groups and projects by path; out-of-range ids are 404", async () => {
    const { alice, project } = await aliceWithGroupAndProject();
    ok(await alice.api.put(`/projects/${encodeURIComponent("team/api")}/notification_settings`, { json: { level: "watch" } }), 200, "by path");
    expect((await alice.api.get(`/projects/${project.id}/notification_settings`)).body).toEqual({ level: "watch" });
    ok(await alice.api.put("/groups/team/notification_settings", { json: { level: "mention" } }), 200, "group by path");
    expect((await alice.api.get("/groups/team/notification_settings")).body).toEqual({ level: "mention" });
    expect((await alice.api.get("/projects/2147483648/notification_settings")).status).toBe(404);
  });

  test("an unknown level is Grape's 400 and writes nothing", async () => {
    const { alice, group, project } = await aliceWithGroupAndProject();
    for (const path of ["/notification_settings", `/groups/${group.id}/notification_settings`, `/projects/${project.id}/notification_settings`]) {
      const res = await alice.api.put(path, { json: { level: "loud", new_note: true } });
      expect([path, res.status, res.body]).toEqual([path, 400, { error: "level does not have a valid value" }]);
    }
    expect((await alice.api.get("/notification_settings")).body.level).toBe("participating");
    expect((await alice.api.get(`/projects/${project.id}/notification_settings`)).body).toEqual({ level: "global" });
  });

  test("a private group or project of others is 404; a public one may be followed", async () => {
    const { group, project } = await aliceWithGroupAndProject();
    const bob = await createUser(app, "bob");
    for (const method of ["get", "put"] as const) {
      const g = await bob.api[method](`/groups/${group.id}/notification_settings`, { json: method === "put" ? { level: "watch" } : undefined });
      expect([method, g.status, g.body]).toEqual([method, 404, { message: "404 Group Not Found" }]);
      const p = await bob.api[method](`/projects/${project.id}/notification_settings`, { json: method === "put" ? { level: "watch" } : undefined });
      expect([method, p.status, p.body]).toEqual([method, 404, { message: "404 Project Not Found" }]);
    }
    expect((await bob.api.get("/projects/nobody%2Fnothing/notification_settings")).body).toEqual({ message: "404 Project Not Found" });
    const open = await createProject(root, { name: "open", visibility: "public" });
    expect((await bob.api.put(`/projects/${open.id}/notification_settings`, { json: { level: "watch" } })).body).toEqual({ level: "watch" });
    // An administrator sees everything.
    expect((await root.put(`/groups/${group.id}/notification_settings`, { json: { level: "disabled" } })).body).toEqual({ level: "disabled" });
  });

  test("anonymous callers are 401; a read_api token reads but cannot write", async () => {
    const { alice, group, project } = await aliceWithGroupAndProject();
    const anonymous = apiClient(app.url);
    const paths = ["/notification_settings", `/groups/${group.id}/notification_settings`, `/projects/${project.id}/notification_settings`];
    const { token } = await createPersonalAccessToken(app, alice.id, { scopes: ["read_api"] });
    const reader = apiClient(app.url, token);
    for (const path of paths) {
      for (const method of ["get", "put"] as const) {
        const res = await anonymous[method](path, { json: method === "put" ? { level: "watch" } : undefined });
        expect([path, method, res.status, res.body]).toEqual([path, method, 401, { message: "401 Unauthorized" }]);
      }
      expect([path, (await reader.get(path)).status]).toEqual([path, 200]);
      const put = await reader.put(path, { json: { level: "watch" } });
      expect([path, put.status, put.body]).toEqual([
        path,
        403,
        { error: "insufficient_scope", error_description: "The request requires higher privileges than provided by the access token.", scope: "api" },
      ]);
    }
    expect((await alice.api.get("/notification_settings")).body.level).toBe("participating");
  });

  test("@gitbeaker/rest's NotificationSettings works unchanged", async () => {
    const { alice, group, project } = await aliceWithGroupAndProject();
    const gl = new Gitlab({ host: app.url, token: alice.token });
    expect(await gl.NotificationSettings.show()).toEqual({ level: "participating", notification_email: "alice@example.com" });
    expect(await gl.NotificationSettings.edit({ level: "watch", notificationEmail: "alice@example.com" })).toEqual({ level: "watch", notification_email: "alice@example.com" });
    expect(await gl.NotificationSettings.edit({ groupId: group.id, level: "mention" })).toEqual({ level: "mention" });
    const custom = await gl.NotificationSettings.edit({ projectId: project.id, level: "custom", newNote: true, mergeWhenPipelineSucceeds: true });
    expect(custom).toMatchObject({ level: "custom", events: { new_note: true, merge_when_pipeline_succeeds: true, new_issue: false } });
    expect(await gl.NotificationSettings.show({ projectId: project.id })).toEqual(custom);
    expect(await gl.NotificationSettings.show({ groupId: "team" })).toEqual({ level: "mention" });
    await expect(gl.NotificationSettings.edit({ projectId: project.id, level: "loud" })).rejects.toMatchObject({ cause: { response: { status: 400 } } });
  });
});

describe("effective level (accounts.notifications.effectiveLevel)", () => {
  test("a project at global follows its group, a group at global the user's global setting", async () => {
    const { alice, group, project } = await aliceWithGroupAndProject();
    const sub = await createGroup(alice.api, "Sub", "sub", { parent_id: group.id, visibility: "private" });
    const inner = await createProject(alice.api, { name: "inner", namespace_id: sub.id, visibility: "private" });
    const onProject = { project_id: project.id, group_ids: [group.id] };
    const onInner = { project_id: inner.id, group_ids: [group.id, sub.id] };

    expect(await effective([alice.id], onProject)).toEqual([
      { user_id: alice.id, level: "participating", source: "global", source_id: null, events: expect.any(Object), notification_email: "alice@example.com" },
    ]);

    // Project global → group watch → effective watch, also two levels down through a subgroup at global.
    ok(await alice.api.put(`/groups/${group.id}/notification_settings`, { json: { level: "watch" } }), 200, "group watch");
    ok(await alice.api.put(`/projects/${project.id}/notification_settings`, { json: { level: "global" } }), 200, "project global");
    ok(await alice.api.put(`/groups/${sub.id}/notification_settings`, { json: { level: "global" } }), 200, "sub global");
    expect(await effective([alice.id], onProject)).toMatchObject([{ level: "watch", source: "group", source_id: group.id }]);
    expect(await effective([alice.id], onInner)).toMatchObject([{ level: "watch", source: "group", source_id: group.id }]);

    // The closest group that says something wins; the project's own level wins over both.
    ok(await alice.api.put(`/groups/${sub.id}/notification_settings`, { json: { level: "mention" } }), 200, "sub mention");
    expect(await effective([alice.id], onInner)).toMatchObject([{ level: "mention", source: "group", source_id: sub.id }]);
    ok(await alice.api.put(`/projects/${inner.id}/notification_settings`, { json: { level: "disabled" } }), 200, "inner disabled");
    expect(await effective([alice.id], onInner)).toMatchObject([{ level: "disabled", source: "project", source_id: inner.id }]);

    // Group global → the user's global setting, custom with its events.
    ok(await alice.api.put(`/groups/${group.id}/notification_settings`, { json: { level: "global" } }), 200, "group global");
    ok(await alice.api.put("/notification_settings", { json: { level: "custom", new_issue: true } }), 200, "global custom");
    const [mine] = await effective([alice.id], onProject);
    expect(mine).toMatchObject({ level: "custom", source: "global", source_id: null });
    expect(mine.events).toMatchObject({ new_issue: true, new_note: false, failed_pipeline: true });
    expect(await effective([alice.id], { group_ids: [group.id] })).toMatchObject([{ level: "custom", source: "global" }]);
  });

  test("batch-shaped: one answer per known user", async () => {
    const { alice, group } = await aliceWithGroupAndProject();
    const bob = await createUser(app, "bob");
    ok(await bob.api.put("/notification_settings", { json: { level: "disabled" } }), 200, "bob disabled");
    ok(await alice.api.put(`/groups/${group.id}/notification_settings`, { json: { level: "watch" } }), 200, "alice watch");
    const answer = await effective([alice.id, bob.id, 999_999], { group_ids: [group.id] });
    expect(answer.map((e) => [e.user_id, e.level, e.source]).sort()).toEqual(
      [
        [alice.id, "watch", "group"],
        [bob.id, "disabled", "global"],
      ].sort(),
    );
  });
});

describe("cleanup", () => {
  const rowsFor = async (where: ReturnType<typeof sql>) =>
    ((await app.database.db.execute(sql`SELECT count(*)::int AS n FROM accounts.notification_settings WHERE ${where}`)).rows[0] as { n: number }).n;

  async function removeForGood(kind: "groups" | "projects", id: number, fullPath: string) {
    expect((await root.delete(`/${kind}/${id}`)).status).toBe(202);
    expect((await root.delete(`/${kind}/${id}`, { query: { permanently_remove: true, full_path: fullPath } })).status).toBe(202);
  }

  async function follow(users: TestUser[], kind: "groups" | "projects", id: number) {
    for (const u of users) ok(await u.api.put(`/${kind}/${id}/notification_settings`, { json: { level: "watch" } }), 200, `${u.username} follows ${kind}/${id}`);
  }

  test("a project or group removed for good takes every user's settings on it", async () => {
    const { alice, group, project } = await aliceWithGroupAndProject();
    const sub = await createGroup(alice.api, "Sub", "sub", { parent_id: group.id });
    const kept = await createGroup(alice.api, "Kept", "kept");
    const bob = await createUser(app, "bob");
    for (const id of [group.id, kept.id]) ok(await root.post(`/groups/${id}/members`, { json: { user_id: bob.id, access_level: 30 } }), 201, "member");
    await follow([alice, bob], "projects", project.id);
    await follow([alice, bob], "groups", group.id);
    await follow([alice, bob], "groups", sub.id);
    await follow([alice], "groups", kept.id);
    expect(await rowsFor(sql`source_type = 'project' AND source_id = ${project.id}`)).toBe(2);

    await removeForGood("projects", project.id, project.path_with_namespace);
    await eventually(async () => expect(await rowsFor(sql`source_type = 'project' AND source_id = ${project.id}`)).toBe(0));
    expect(await effective([alice.id], { project_id: project.id, group_ids: [group.id] })).toMatchObject([{ level: "watch", source: "group" }]);

    await removeForGood("groups", group.id, group.full_path);
    await eventually(async () => expect(await rowsFor(sql`source_type = 'group' AND source_id IN (${group.id}, ${sub.id})`)).toBe(0));
    expect(await rowsFor(sql`source_type = 'group' AND source_id = ${kept.id}`)).toBe(1);
  });

  test("a deleted user's settings go with them", async () => {
    const { alice, group } = await aliceWithGroupAndProject();
    ok(await alice.api.put("/notification_settings", { json: { level: "watch" } }), 200, "global");
    ok(await alice.api.put(`/groups/${group.id}/notification_settings`, { json: { level: "watch" } }), 200, "group");
    expect(await rowsFor(sql`user_id = ${alice.id}`)).toBe(2);
    expect((await root.delete(`/users/${alice.id}`)).status).toBe(204);
    expect(await rowsFor(sql`user_id = ${alice.id}`)).toBe(0);
  });
});
