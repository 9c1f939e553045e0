import { call } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { addMember, apiClient, createGroup, createProject, createUser, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Protected branches (GitLab's API): the default branch protected by default, protect with
 * levels and wildcards, 409 duplicate, PATCH, unprotect, Maintainer-only, the branch entity's
 * `protected`, and the namespaces bus actions merge requests use (mergeAccessLevel, byIds, matching).
 *
 * World: private group "team" with project "app" and public group "open" with project "site";
 * owner (50), maint (40), dev (30), reporter (20), guest (10); outsider; root.
 */
let app: TestApp;
let root: ApiClient;
const U = {} as Record<"owner" | "maint" | "dev" | "reporter" | "guest" | "outsider", TestUser>;
let priv: { id: number };
let pub: { id: number };

beforeAll(async () => {
  app = await startApp("protected-branches");
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  const team = await createGroup(root, "team", "team", { visibility: "private" });
  const open = await createGroup(root, "open", "open", { visibility: "public" });
  priv = await createProject(root, { name: "app", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
  pub = await createProject(root, { name: "site", namespace_id: open.id, visibility: "public", initialize_with_readme: true });
  for (const [name, level] of Object.entries({ owner: 50, maint: 40, dev: 30, reporter: 20, guest: 10 })) {
    U[name as keyof typeof U] = await createUser(app, name);
    await addMember(app, "groups", team.id, U[name as keyof typeof U].id, level);
    await addMember(app, "groups", open.id, U[name as keyof typeof U].id, level);
  }
  U.outsider = await createUser(app, "outsider");
});
afterAll(() => app.stop());

const PB = (p: { id: number }) => `/projects/${p.id}/protected_branches`;

describe("protected branches", () => {
  test("the default branch is protected by default (Maintainers push and merge), and the branch entity says so", async () => {
    const list = await U.maint.api.get(PB(priv));
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: expect.any(Number),
        name: "main",
        push_access_levels: [{ id: null, access_level: 40, access_level_description: "Maintainers", deploy_key_id: null, user_id: null, group_id: null }],
        merge_access_levels: [{ id: null, access_level: 40, access_level_description: "Maintainers", deploy_key_id: null, user_id: null, group_id: null }],
        unprotect_access_levels: [{ id: null, access_level: 40, access_level_description: "Maintainers", deploy_key_id: null, user_id: null, group_id: null }],
        allow_force_push: false,
        code_owner_approval_required: false,
        inherited: false,
      },
    ]);
    expect(list.headers.get("x-total")).toBe("1");
    const main = await U.dev.api.get(`/projects/${priv.id}/repository/branches/main`);
    expect(main.body).toMatchObject({ name: "main", protected: true, default: true, can_push: false, developers_can_push: false, developers_can_merge: false });
    expect((await U.maint.api.get(`/projects/${priv.id}/repository/branches/main`)).body.can_push).toBe(true);
  });

  test("protect: levels, wildcards, 409 duplicate, 400 invalid levels; PATCH; unprotect → 204; branches follow", async () => {
    await root.post(`/projects/${priv.id}/repository/branches`, { json: { branch: "release/1.0", ref: "main" } });
    const created = await U.maint.api.post(PB(priv), { json: { name: "release/*", push_access_level: 30, merge_access_level: 30, allow_force_push: true } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "release/*",
      push_access_levels: [expect.objectContaining({ access_level: 30, access_level_description: "Developers + Maintainers" })],
      merge_access_levels: [expect.objectContaining({ access_level: 30 })],
      unprotect_access_levels: [expect.objectContaining({ access_level: 40 })],
      allow_force_push: true,
    });
    expect(await U.maint.api.post(PB(priv), { json: { name: "release/*" } })).toMatchObject({ status: 409, body: { message: "Protected branch 'release/*' already exists" } });
    expect((await U.maint.api.post(PB(priv), { json: { name: "x", push_access_level: 35 } })).status).toBe(400);
    expect((await U.maint.api.post(PB(priv), { json: {} })).status).toBe(400);

    const branch = (await U.dev.api.get(`/projects/${priv.id}/repository/branches/${encodeURIComponent("release/1.0")}`)).body;
    expect(branch).toMatchObject({ protected: true, developers_can_push: true, developers_can_merge: true, can_push: true });

    const enc = encodeURIComponent("release/*");
    expect((await U.maint.api.get(`${PB(priv)}/${enc}`)).body.id).toBe(created.body.id);
    const patched = await U.maint.api.patch(`${PB(priv)}/${enc}`, { json: { push_access_level: 0, code_owner_approval_required: true } });
    expect(patched).toMatchObject({ status: 200, body: { push_access_levels: [expect.objectContaining({ access_level: 0, access_level_description: "No one" })], code_owner_approval_required: true } });
    expect((await U.maint.api.get(PB(priv), { query: { search: "release" } })).body.map((b: { name: string }) => b.name)).toEqual(["release/*"]);

    expect((await U.maint.api.delete(`${PB(priv)}/${enc}`)).status).toBe(204);
    expect(await U.maint.api.get(`${PB(priv)}/${enc}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await U.maint.api.delete(`${PB(priv)}/${enc}`)).status).toBe(404);
    expect((await U.dev.api.get(`/projects/${priv.id}/repository/branches/${encodeURIComponent("release/1.0")}`)).body.protected).toBe(false);

    // Unprotecting the default branch sticks: the default protection is applied once.
    expect((await U.maint.api.delete(`${PB(priv)}/main`)).status).toBe(204);
    expect((await U.maint.api.get(PB(priv))).body).toEqual([]);
    expect((await U.dev.api.get(`/projects/${priv.id}/repository/branches/main`)).body).toMatchObject({ protected: false, can_push: true });
    expect((await U.maint.api.post(PB(priv), { json: { name: "main" } })).status).toBe(201);
  });

  test("permissions: Maintainer up and admin; Developer and below 403; outsider 404 on private, 403 on public; anonymous 401", async () => {
    for (const p of [priv, pub]) {
      for (const api of [U.maint.api, U.owner.api, root]) expect((await api.get(PB(p))).status).toBe(200);
      for (const api of [U.dev.api, U.reporter.api, U.guest.api]) {
        expect((await api.get(PB(p))).status).toBe(403);
        expect((await api.post(PB(p), { json: { name: "nope" } })).status).toBe(403);
        expect((await api.patch(`${PB(p)}/main`, { json: { push_access_level: 30 } })).status).toBe(403);
        expect((await api.delete(`${PB(p)}/main`)).status).toBe(403);
      }
      expect((await apiClient(app.url).get(PB(p))).status).toBe(401);
    }
    expect(await U.outsider.api.get(PB(priv))).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await U.outsider.api.get(PB(pub))).status).toBe(403);
    expect((await U.outsider.api.post(PB(pub), { json: { name: "x" } })).status).toBe(403);
  });

  test("bus: mergeAccessLevel (40 protected by default, 30 unprotected, 61 for No one), byIds (own project only), matching", async () => {
    expect(await call(app.broker, Namespaces.protectedBranches.mergeAccessLevel, { project_id: pub.id, branch: "main" })).toEqual({ access_level: 40 });
    expect(await call(app.broker, Namespaces.protectedBranches.mergeAccessLevel, { project_id: pub.id, branch: "feature" })).toEqual({ access_level: 30 });
    const hot = (await U.maint.api.post(PB(pub), { json: { name: "hot-*", merge_access_level: 0 } })).body;
    expect(await call(app.broker, Namespaces.protectedBranches.mergeAccessLevel, { project_id: pub.id, branch: "hot-fix" })).toEqual({ access_level: 61 });
    const main = (await root.get(`${PB(pub)}/main`)).body;
    const foreignMain = (await root.get(`${PB(priv)}/main`)).body;
    const byIds = await call(app.broker, Namespaces.protectedBranches.byIds, { project_id: pub.id, ids: [hot.id, main.id, foreignMain.id] });
    expect(byIds.map((b) => b.id)).toEqual([main.id, hot.id].sort((a, b) => a - b));
    expect(
      await call(app.broker, Namespaces.protectedBranches.matching, {
        pairs: [
          { project_id: pub.id, branch: "main" },
          { project_id: pub.id, branch: "hot-x" },
          { project_id: priv.id, branch: "hot-x" },
        ],
      }),
    ).toEqual([[main.id], [hot.id], []]);
  });
});
