import { Admin } from "@collab/admin-contract";
import { call } from "@collab/core";
import { Gitlab } from "@gitbeaker/rest";
import { apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/** Broadcast messages, service accounts, experiments and repository storage moves through the gateway. */

// The worker's timer stays off in the embedded app: tests advance moves with admin.storageMoves.tick.
process.env.STORAGE_MOVE_TICK_MS ??= "0";

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("admin-resources");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

async function user(username: string): Promise<{ id: number; api: ApiClient; token: string }> {
  const u = await root.post("/users", { json: { username, name: username, email: `${username}@example.com`, password: "s3cret-passw0rd" } });
  const t = await root.post(`/users/${u.body.id}/personal_access_tokens`, { json: { name: "t", scopes: ["api"] } });
  return { id: u.body.id, api: apiClient(app.url, t.body.token), token: t.body.token };
}

describe("broadcast messages", () => {
  it("defaults, computed active flag, validation and the permission matrix", async () => {
    const before = Date.now();
    const created = await root.post("/broadcast_messages", { json: { message: "Maintenance tonight", color: "#000000" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ message: "Maintenance tonight", broadcast_type: "banner", theme: "indigo", active: true, target_access_levels: [], dismissable: null });
    const span = Date.parse(created.body.ends_at) - Date.parse(created.body.starts_at);
    expect(span).toBe(3600_000);
    expect(Date.parse(created.body.starts_at)).toBeGreaterThanOrEqual(before - 1000);

    const future = await root.post("/broadcast_messages", {
      json: { message: "Later", starts_at: "2099-01-01T00:00:00Z", ends_at: "2099-01-02T00:00:00Z", target_access_levels: "10,30", broadcast_type: "notification", theme: "light-red", dismissable: true, target_path: "*/issues" },
    });
    expect(future.body).toMatchObject({ active: false, target_access_levels: [10, 30], broadcast_type: "notification", theme: "light-red", dismissable: true, target_path: "*/issues" });

    expect(await root.post("/broadcast_messages", { json: { message: "x", theme: "pink" } })).toMatchObject({ status: 400, body: { error: "theme does not have a valid value" } });
    expect(await root.post("/broadcast_messages", { json: { message: "x", broadcast_type: "popup" } })).toMatchObject({ status: 400, body: { error: "broadcast_type does not have a valid value" } });
    expect(await root.post("/broadcast_messages", { json: { message: "x", target_access_levels: [60] } })).toMatchObject({ status: 400, body: { error: "target_access_levels does not have a valid value" } });
    expect(await root.post("/broadcast_messages", { json: {} })).toMatchObject({ status: 400, body: { error: "message is missing" } });

    // Reads need no authentication; newest first, paginated.
    const anon = root.as(null);
    const list = await anon.get("/broadcast_messages", { query: { per_page: 1 } });
    expect(list.status).toBe(200);
    expect(list.body.map((m: { id: number }) => m.id)).toEqual([future.body.id]);
    expect(list.headers.get("x-total")).toBe("2");
    expect((await anon.get(`/broadcast_messages/${created.body.id}`)).body.message).toBe("Maintenance tonight");
    expect(await anon.get("/broadcast_messages/9999")).toMatchObject({ status: 404, body: { message: "404 Not found" } });

    const alice = await user("alice");
    for (const [method, path] of [["post", "/broadcast_messages"], ["put", `/broadcast_messages/${created.body.id}`], ["delete", `/broadcast_messages/${created.body.id}`]] as const) {
      expect(await anon[method](path, { json: { message: "m" } })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      expect(await alice.api[method](path, { json: { message: "m" } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    }
    const updated = await root.put(`/broadcast_messages/${created.body.id}`, { json: { message: "Moved", theme: "dark", ends_at: "2000-01-01T00:00:00Z" } });
    expect(updated.status).toBe(400);
    expect((await root.put(`/broadcast_messages/${created.body.id}`, { json: { message: "Moved", theme: "dark" } })).body).toMatchObject({ message: "Moved", theme: "dark" });
    expect((await root.delete(`/broadcast_messages/${created.body.id}`)).status).toBe(204);
    expect((await root.delete(`/broadcast_messages/${created.body.id}`)).status).toBe(404);
  });
});

describe("service accounts", () => {
  it("instance accounts: generated names, given ones, taken email, list order, admins only", async () => {
    const generated = await root.post("/service_accounts", {});
    expect(generated.status).toBe(201);
    expect(generated.body.username).toMatch(/^service_account_[0-9a-f]{32}$/);
    expect(generated.body.email).toMatch(new RegExp(`^${generated.body.username}_[0-9a-f]{8}@noreply\\.collab\\.test$`));
    expect(generated.body.name).toBe("Service account user");
    const given = await root.post("/service_accounts", { json: { name: "Deployer", username: "deployer-bot", email: "deploy@example.com" } });
    expect(given.body).toEqual({ id: given.body.id, username: "deployer-bot", name: "Deployer", email: "deploy@example.com" });
    expect(await root.post("/service_accounts", { json: { email: "deploy@example.com" } })).toMatchObject({ status: 400, body: { message: "Email has already been taken" } });
    expect(await root.post("/service_accounts", { json: { username: "deployer-bot" } })).toMatchObject({ status: 400, body: { message: "Username has already been taken" } });

    const list = await root.get("/service_accounts");
    expect(list.body).toEqual([
      { id: given.body.id, username: "deployer-bot", name: "Deployer" },
      { id: generated.body.id, username: generated.body.username, name: "Service account user" },
    ]);
    const byName = await root.get("/service_accounts", { query: { order_by: "username", sort: "asc" } });
    expect(byName.body.map((u: { username: string }) => u.username)).toEqual(["deployer-bot", generated.body.username]);
    expect(await root.get("/service_accounts", { query: { order_by: "name" } })).toMatchObject({ status: 400, body: { error: "order_by does not have a valid value" } });

    const me = await root.get(`/users/${given.body.id}`);
    expect(me.body).toMatchObject({ bot: true });
    const alice = await user("alice");
    expect((await alice.api.post("/service_accounts", {})).status).toBe(403);
    expect((await root.as(null).get("/service_accounts")).status).toBe(401);
  });

  it("group accounts: top-level group Owners create, list, mint tokens and delete", async () => {
    const owner = await user("owner");
    const dev = await user("dev");
    const group = await owner.api.post("/groups", { json: { name: "Platform", path: "platform" } });
    await owner.api.post(`/groups/${group.body.id}/members`, { json: { user_id: dev.id, access_level: 30 } });
    const sa = await owner.api.post(`/groups/${group.body.id}/service_accounts`, { json: {} });
    expect(sa.status).toBe(201);
    expect(sa.body.username).toMatch(new RegExp(`^service_account_group_${group.body.id}_[0-9a-f]{32}$`));
    expect((await dev.api.post(`/groups/${group.body.id}/service_accounts`, {})).status).toBe(403);
    const sub = await owner.api.post("/groups", { json: { name: "Sub", path: "sub", parent_id: group.body.id } });
    expect((await owner.api.post(`/groups/${sub.body.id}/service_accounts`, {})).status).toBe(403);

    expect((await owner.api.get("/groups/platform/service_accounts")).body).toEqual([{ id: sa.body.id, username: sa.body.username, name: "Service account user" }]);
    const token = await owner.api.post(`/groups/${group.body.id}/service_accounts/${sa.body.id}/personal_access_tokens`, { json: { name: "ci", scopes: ["api"] } });
    expect(token.status).toBe(201);
    expect(token.body).toMatchObject({ name: "ci", scopes: ["api"], user_id: sa.body.id, active: true });
    const asBot = await apiClient(app.url, token.body.token).get("/user");
    expect(asBot.body).toMatchObject({ id: sa.body.id, bot: true });

    const instanceOne = await root.post("/service_accounts", {});
    expect((await owner.api.delete(`/groups/${group.body.id}/service_accounts/${instanceOne.body.id}`)).status).toBe(404);
    expect((await owner.api.delete(`/groups/${group.body.id}/service_accounts/${sa.body.id}`)).status).toBe(204);
    expect((await owner.api.get(`/groups/${group.body.id}/service_accounts`)).body).toEqual([]);
  });
});

describe("experiments", () => {
  it("exist only on the hosted offering (self-managed here): 403 even for administrators, 401 anonymous", async () => {
    expect(await root.get("/experiments")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await root.as(null).get("/experiments")).status).toBe(401);
  });
});

describe("repository storage moves", () => {
  async function twoStorages() {
    expect((await root.put("/application/settings", { json: { repository_storages_weighted: { default: 100, other: 0 } } })).status).toBe(200);
  }
  const tickUntil = async (path: string, state: string) => {
    for (let i = 0; i < 10; i++) {
      const move = await root.get(path);
      if (move.body.state === state) return move;
      await call(app.broker, Admin.storageMoves.tick, {});
    }
    return root.get(path);
  };

  it("moves a project: scheduled → started → finished, writes refused meanwhile, storage updated", async () => {
    await twoStorages();
    const alice = await user("alice");
    const project = await alice.api.post("/projects", { json: { name: "repo" } });
    const issue = await alice.api.post(`/projects/${project.body.id}/issues`, { json: { title: "before" } });

    expect(await root.post(`/projects/${project.body.id}/repository_storage_moves`, { json: { destination_storage_name: "nope" } })).toMatchObject({
      status: 400,
      body: { error: "destination_storage_name does not have a valid value" },
    });
    expect((await alice.api.post(`/projects/${project.body.id}/repository_storage_moves`, { json: { destination_storage_name: "other" } })).status).toBe(403);
    const move = await root.post(`/projects/${project.body.id}/repository_storage_moves`, { json: { destination_storage_name: "other" } });
    expect(move.status).toBe(201);
    expect(move.body).toMatchObject({
      state: "scheduled",
      source_storage_name: "default",
      destination_storage_name: "other",
      project: { id: project.body.id, name: "repo", path_with_namespace: "alice/repo", name_with_namespace: "alice / repo" },
    });
    // A second move of the same project is the model's validation error.
    expect(await root.post(`/projects/${project.body.id}/repository_storage_moves`, { json: { destination_storage_name: "other" } })).toMatchObject({
      status: 400,
      body: { message: { project: ["is read-only"] } },
    });

    const readOnly = { status: 403, body: { message: "403 Forbidden - The repository is temporarily read-only. Please try again later." } };
    expect(await alice.api.post(`/projects/${project.body.id}/issues`, { json: { title: "during" } })).toMatchObject(readOnly);
    expect(await alice.api.put(`/projects/${project.body.id}/issues/${issue.body.iid}`, { json: { title: "edited" } })).toMatchObject(readOnly);
    expect(await alice.api.post(`/projects/${project.body.id}/issues/${issue.body.iid}/notes`, { json: { body: "hi" } })).toMatchObject(readOnly);
    expect((await alice.api.get(`/projects/${project.body.id}/issues/${issue.body.iid}`)).status).toBe(200);

    const finished = await tickUntil(`/projects/${project.body.id}/repository_storage_moves/${move.body.id}`, "finished");
    expect(finished.body.state).toBe("finished");
    expect((await alice.api.post(`/projects/${project.body.id}/issues`, { json: { title: "after" } })).status).toBe(201);
    expect((await root.get("/projects", { query: { repository_storage: "other" } })).body.map((p: { id: number }) => p.id)).toEqual([project.body.id]);
    expect((await root.get("/projects", { query: { repository_storage: "default" } })).body).toEqual([]);

    const all = await root.get("/project_repository_storage_moves");
    expect(all.body.map((m: { id: number }) => m.id)).toEqual([move.body.id]);
    expect((await root.get(`/project_repository_storage_moves/${move.body.id}`)).body.state).toBe("finished");
    expect(await root.get("/project_repository_storage_moves/999")).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  it("bulk moves off a storage answer 202; with no snippets none move, an unknown one is 404; groups move too", async () => {
    await twoStorages();
    const alice = await user("alice");
    const p1 = await alice.api.post("/projects", { json: { name: "one" } });
    const p2 = await alice.api.post("/projects", { json: { name: "two" } });
    expect(await root.post("/project_repository_storage_moves", { json: { source_storage_name: "nope" } })).toMatchObject({ status: 400, body: { error: "source_storage_name does not have a valid value" } });
    expect(await root.post("/project_repository_storage_moves", { json: { source_storage_name: "default", destination_storage_name: "other" } })).toMatchObject({
      status: 202,
      body: { message: "202 Accepted" },
    });
    const moves = await root.get("/project_repository_storage_moves");
    expect(moves.body.map((m: { project: { id: number } }) => m.project.id).sort()).toEqual([p1.body.id, p2.body.id].sort());
    expect((await root.get(`/projects/${p1.body.id}/repository_storage_moves`)).body).toHaveLength(1);

    expect((await root.post("/snippet_repository_storage_moves", { json: { source_storage_name: "default" } })).status).toBe(202);
    expect(await root.post("/snippets/1/repository_storage_moves", { json: { destination_storage_name: "other" } })).toMatchObject({ status: 404, body: { message: "404 Snippet Not Found" } });
    expect((await root.get("/snippet_repository_storage_moves")).body).toEqual([]);

    const group = await alice.api.post("/groups", { json: { name: "G", path: "g" } });
    const gm = await root.post(`/groups/${group.body.id}/repository_storage_moves`, { json: { destination_storage_name: "other" } });
    expect(gm.status).toBe(201);
    expect(gm.body.group).toEqual({ id: group.body.id, name: "G", web_url: "http://collab.test/groups/g" });
    expect((await tickUntil(`/group_repository_storage_moves/${gm.body.id}`, "finished")).body.state).toBe("finished");
  });
});

describe("gitbeaker walk", () => {
  it("ApplicationSettings, BroadcastMessages, ServiceAccounts and ProjectRepositoryStorageMoves", async () => {
    const api = new Gitlab({ host: app.url, token: app.rootToken });
    const settings = await api.ApplicationSettings.show();
    expect(settings.default_projects_limit).toBe(100000);
    const edited = await api.ApplicationSettings.edit({ defaultProjectsLimit: 42, repositoryStoragesWeighted: { default: 100, other: 10 } } as never);
    expect(edited.default_projects_limit).toBe(42);

    const msg = await api.BroadcastMessages.create({ message: "Hello", theme: "green" } as never);
    expect((await api.BroadcastMessages.show(msg.id as number)).theme).toBe("green");
    await api.BroadcastMessages.edit(msg.id as number, { message: "Hello again" } as never);
    expect((await api.BroadcastMessages.all()).map((m) => m.message)).toEqual(["Hello again"]);
    await api.BroadcastMessages.remove(msg.id as number);

    const sa = await api.ServiceAccounts.create({ name: "Robot" });
    expect(sa.name).toBe("Robot");

    const project = await api.Projects.create({ name: "walk" });
    const scheduled = await api.ProjectRepositoryStorageMoves.schedule("default", { destinationStorageName: "other" });
    expect(scheduled).toMatchObject({ message: "202 Accepted" });
    const [move] = await api.ProjectRepositoryStorageMoves.all();
    expect(move).toMatchObject({ destination_storage_name: "other", project: { id: project.id } });
    expect(["scheduled", "started"]).toContain(move.state);
    await call(app.broker, Admin.storageMoves.tick, {});
    await call(app.broker, Admin.storageMoves.tick, {});
    expect((await api.ProjectRepositoryStorageMoves.show(move.id as number)).state).toBe("finished");
  });
});
