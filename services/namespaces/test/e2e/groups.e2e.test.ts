import { Gitlab } from "@gitbeaker/rest";
import { addMember, apiClient, createGroup, createProject, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Groups and subgroups through the HTTP gateway: creation rules, who sees which group, listing
 * filters, renames that move whole hierarchies, and deletion of everything below a group.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("groups");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** A user ("alice" is named "Alice") with an `api` token and a gitbeaker client, created by root as an administrator would. */
const createUser = (username: string) => createGitbeakerUser(app, username);

const paths = (body: { full_path: string }[]) => body.map((g) => g.full_path).sort();

describe("POST /groups", () => {
  test("a user creates a top-level group and a subgroup with @gitbeaker/rest and owns both", async () => {
    const alice = await createUser("alice");
    const group = await alice.gl.Groups.create("Platform", "platform", { visibility: "internal", description: "Shared services" });
    expect(group).toMatchObject({
      name: "Platform",
      path: "platform",
      full_path: "platform",
      full_name: "Platform",
      description: "Shared services",
      visibility: "internal",
      parent_id: null,
      web_url: "http://collab.test/groups/platform",
      projects: [],
    });

    const sub = await alice.gl.Groups.create("Backend", "backend", { parentId: group.id as number });
    expect(sub).toMatchObject({ full_path: "platform/backend", full_name: "Platform / Backend", parent_id: group.id, visibility: "private" });

    for (const id of [group.id, sub.id]) {
      const members = await alice.gl.GroupMembers.all(id as number);
      expect(members.map((m) => [m.username, m.access_level])).toEqual([["alice", 50]]);
    }
  });

  test("name and path are both required", async () => {
    const none = await root.post("/groups", { json: {} });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: "name is missing, path is missing" });

    const noPath = await root.post("/groups", { json: { name: "Platform" } });
    expect(noPath.status).toBe(400);
    expect(noPath.body).toEqual({ error: "path is missing" });
  });

  test("a taken path (in any case) is a save failure; the same path under another parent is fine", async () => {
    const platform = await createGroup(root, "Platform", "platform");
    const taken = await root.post("/groups", { json: { name: "Other", path: "PLATFORM" } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });

    const sub = await createGroup(root, "Platform", "platform", { parent_id: platform.id });
    expect(sub.full_path).toBe("platform/platform");
    const again = await root.post("/groups", { json: { name: "Again", path: "platform", parent_id: platform.id } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
  });

  test("a subgroup cannot be more visible than its parent", async () => {
    const parent = await createGroup(root, "Secret", "secret", { visibility: "private" });
    const res = await root.post("/groups", { json: { name: "Open", path: "open", parent_id: parent.id, visibility: "public" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}' });

    const listed = await root.get(`/groups/${parent.id}/subgroups`);
    expect(listed.body).toEqual([]);
  });

  test("subgroups need Maintainer in the parent; Developers are forbidden; invisible parents are not found", async () => {
    const [dev, maint, outsider] = [await createUser("dev"), await createUser("maint"), await createUser("outsider")];
    const parent = await createGroup(root, "Platform", "platform");
    await addMember(app, "groups", parent.id, dev.id, 30);
    await addMember(app, "groups", parent.id, maint.id, 40);

    const denied = await dev.api.post("/groups", { json: { name: "Mine", path: "mine", parent_id: parent.id } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: "403 Forbidden" });

    const allowed = await maint.api.post("/groups", { json: { name: "Mine", path: "mine", parent_id: parent.id } });
    expect(allowed.status).toBe(201);
    expect(allowed.body.full_path).toBe("platform/mine");

    const hidden = await outsider.api.post("/groups", { json: { name: "Mine", path: "other", parent_id: parent.id } });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: "404 Group Not Found" });
    const missing = await root.post("/groups", { json: { name: "Mine", path: "other", parent_id: 99999 } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Group Not Found" });
  });

  test("anonymous callers cannot create groups", async () => {
    const res = await apiClient(app.url).post("/groups", { json: { name: "Anon", path: "anon" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });
});

describe("GET /groups", () => {
  /** public, internal, private; a private team alice belongs to (with a subgroup); a private group where alice is only on a project. */
  async function visibilityFixture() {
    const [alice, bob] = [await createUser("alice"), await createUser("bob")];
    await createGroup(root, "Public", "public", { visibility: "public" });
    await createGroup(root, "Internal", "internal", { visibility: "internal" });
    await createGroup(root, "Private", "private", { visibility: "private" });
    const team = await createGroup(root, "Team", "team");
    await createGroup(root, "Sub", "sub", { parent_id: team.id });
    await addMember(app, "groups", team.id, alice.id, 30);
    const host = await createGroup(root, "Host", "host");
    const project = await createProject(root, { name: "Tool", namespace_id: host.id });
    await addMember(app, "projects", project.id, alice.id, 20);
    return { alice, bob };
  }

  test("anonymous callers see public groups only", async () => {
    await visibilityFixture();
    const res = await apiClient(app.url).get("/groups");
    expect(res.status).toBe(200);
    expect(paths(res.body)).toEqual(["public"]);
  });

  test("signed-in users see their own groups by default and public/internal ones with all_available", async () => {
    const { alice, bob } = await visibilityFixture();
    expect(paths((await alice.api.get("/groups")).body)).toEqual(["host", "team", "team/sub"]);
    expect(paths((await alice.api.get("/groups", { query: { all_available: true } })).body)).toEqual(["host", "internal", "public", "team", "team/sub"]);
    expect((await bob.api.get("/groups")).body).toEqual([]);
    expect(paths((await bob.api.get("/groups", { query: { all_available: true } })).body)).toEqual(["internal", "public"]);
  });

  test("administrators see every group", async () => {
    const { alice } = await visibilityFixture();
    const all = await alice.gl.Groups.all({ allAvailable: true });
    expect(all).toHaveLength(5);
    expect(paths((await root.get("/groups")).body)).toEqual(["host", "internal", "private", "public", "team", "team/sub"]);
  });

  test("search, top_level_only, skip_groups, owned and min_access_level narrow the list", async () => {
    const alice = await createUser("alice");
    const mine = await createGroup(alice.api, "Alpha", "alpha");
    const bravo = await createGroup(root, "Bravo", "bravo");
    await createGroup(root, "Charlie", "charlie");
    await createGroup(root, "Delta Sub", "delta-sub", { parent_id: bravo.id });
    await addMember(app, "groups", bravo.id, alice.id, 30);

    expect(paths((await root.get("/groups", { query: { search: "RAV" } })).body)).toEqual(["bravo"]);
    expect(paths((await root.get("/groups", { query: { search: "delta-s" } })).body)).toEqual(["bravo/delta-sub"]);
    expect(paths((await root.get("/groups", { query: { top_level_only: true } })).body)).toEqual(["alpha", "bravo", "charlie"]);
    expect(paths((await root.get("/groups", { query: { skip_groups: [mine.id, bravo.id] } })).body)).toEqual(["bravo/delta-sub", "charlie"]);

    expect(paths((await alice.api.get("/groups", { query: { owned: true } })).body)).toEqual(["alpha"]);
    expect(paths((await alice.api.get("/groups", { query: { min_access_level: 30 } })).body)).toEqual(["alpha", "bravo", "bravo/delta-sub"]);
    expect(paths((await alice.api.get("/groups", { query: { min_access_level: 40 } })).body)).toEqual(["alpha"]);
  });

  test("order_by and sort: name ascending by default, path and id on request", async () => {
    await createGroup(root, "Charlie", "a-charlie");
    await createGroup(root, "Alpha", "c-alpha");
    await createGroup(root, "Bravo", "b-bravo");
    const names = async (query: Record<string, string>) => (await root.get("/groups", { query })).body.map((g: { name: string }) => g.name);
    expect(await names({})).toEqual(["Alpha", "Bravo", "Charlie"]);
    expect(await names({ sort: "desc" })).toEqual(["Charlie", "Bravo", "Alpha"]);
    expect(await names({ order_by: "path" })).toEqual(["Charlie", "Bravo", "Alpha"]);
    expect(await names({ order_by: "id", sort: "desc" })).toEqual(["Bravo", "Alpha", "Charlie"]);
    const bad = await root.get("/groups", { query: { order_by: "size" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "order_by does not have a valid value" });
  });

  test("pages carry GitLab's pagination headers", async () => {
    for (const n of ["Alpha", "Bravo", "Charlie"]) await createGroup(root, n, n.toLowerCase());
    const first = await root.get("/groups", { query: { per_page: 2 } });
    expect(first.body.map((g: { name: string }) => g.name)).toEqual(["Alpha", "Bravo"]);
    expect(first.headers.get("x-total")).toBe("3");
    expect(first.headers.get("x-total-pages")).toBe("2");
    expect(first.headers.get("x-page")).toBe("1");
    expect(first.headers.get("x-next-page")).toBe("2");
    expect(first.headers.get("x-prev-page")).toBe("");
    expect(first.headers.get("link")).toBe(
      '<http://collab.test/api/v4/groups?page=2&per_page=2>; rel="next", <http://collab.test/api/v4/groups?page=1&per_page=2>; rel="first", <http://collab.test/api/v4/groups?page=2&per_page=2>; rel="last"',
    );
    const second = await root.get("/groups", { query: { per_page: 2, page: 2 } });
    expect(second.body.map((g: { name: string }) => g.name)).toEqual(["Charlie"]);
    expect(second.headers.get("x-next-page")).toBe("");
    expect(second.headers.get("x-prev-page")).toBe("1");
  });
});

describe("GET /groups/:id", () => {
  test("by numeric id or URL-encoded full path, case-insensitively, with the projects the caller may see", async () => {
    const platform = await createGroup(root, "Platform", "platform", { visibility: "public" });
    const backend = await createGroup(root, "Backend", "backend", { parent_id: platform.id, visibility: "public" });
    await createProject(root, { name: "Open", namespace_id: backend.id, visibility: "public" });
    await createProject(root, { name: "Closed", namespace_id: backend.id, visibility: "private" });

    const byId = await root.get(`/groups/${backend.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ id: backend.id, full_path: "platform/backend", parent_id: platform.id });

    const anonymous = apiClient(app.url);
    const byPath = await anonymous.get("/groups/platform%2Fbackend");
    expect(byPath.status).toBe(200);
    expect(byPath.body.id).toBe(backend.id);
    expect(byPath.body.projects.map((p: { name: string }) => p.name)).toEqual(["Open"]);
    expect((await anonymous.get("/groups/PLATFORM%2FBackend")).body.id).toBe(backend.id);

    const gl = new Gitlab({ host: app.url, token: app.rootToken });
    const shown = await gl.Groups.show("platform/backend");
    expect((shown.projects as { name: string }[]).map((p) => p.name).sort()).toEqual(["Closed", "Open"]);
  });

  test("private groups answer 404 to outsiders, exactly as missing ones", async () => {
    const bob = await createUser("bob");
    const secret = await createGroup(root, "Secret", "secret");
    for (const api of [apiClient(app.url), bob.api]) {
      for (const ref of [String(secret.id), "secret", "99999"]) {
        const res = await api.get(`/groups/${ref}`);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: "404 Group Not Found" });
      }
    }
  });

  test("members of a subgroup or of a project inside can see the parent group", async () => {
    const [carol, dave, bob] = [await createUser("carol"), await createUser("dave"), await createUser("bob")];
    const secret = await createGroup(root, "Secret", "secret");
    const sub = await createGroup(root, "Inner", "inner", { parent_id: secret.id });
    const project = await createProject(root, { name: "Tool", namespace_id: secret.id });
    await addMember(app, "groups", sub.id, carol.id, 10);
    await addMember(app, "projects", project.id, dave.id, 10);

    expect((await carol.api.get(`/groups/${secret.id}`)).status).toBe(200);
    expect((await dave.api.get("/groups/secret")).status).toBe(200);
    expect((await bob.api.get("/groups/secret")).status).toBe(404);
    // Seeing the parent does not open its projects to the subgroup member.
    expect((await carol.api.get(`/groups/${secret.id}`)).body.projects).toEqual([]);
    expect((await carol.api.get(`/projects/${project.id}`)).status).toBe(404);
  });
});

describe("PUT /groups/:id", () => {
  test("an Owner renames a group; subgroups and projects move with it", async () => {
    const alice = await createUser("alice");
    const platform = await createGroup(alice.api, "Platform", "platform");
    const backend = await createGroup(alice.api, "Backend", "backend", { parent_id: platform.id });
    const deep = await createGroup(alice.api, "Deep", "deep", { parent_id: backend.id });
    const project = await createProject(alice.api, { name: "Billing API", namespace_id: backend.id });
    expect(project.path_with_namespace).toBe("platform/backend/billing-api");

    const edited = await alice.gl.Groups.edit(platform.id, { name: "Core", path: "core", description: "renamed" });
    expect(edited).toMatchObject({ name: "Core", path: "core", full_path: "core", full_name: "Core", description: "renamed" });

    expect((await alice.api.get(`/groups/${backend.id}`)).body).toMatchObject({ full_path: "core/backend", full_name: "Core / Backend" });
    expect((await alice.api.get(`/groups/${deep.id}`)).body).toMatchObject({ full_path: "core/backend/deep", full_name: "Core / Backend / Deep" });
    const moved = await alice.api.get(`/projects/${project.id}`);
    expect(moved.body).toMatchObject({ path_with_namespace: "core/backend/billing-api", name_with_namespace: "Core / Backend / Billing API", web_url: "http://collab.test/core/backend/billing-api" });
    expect((await alice.api.get("/projects/core%2Fbackend%2Fbilling-api")).body.id).toBe(project.id);
    expect((await alice.api.get("/groups/platform%2Fbackend")).status).toBe(404);
    expect((await alice.api.get("/projects/platform%2Fbackend%2Fbilling-api")).status).toBe(404);
  });

  test("renaming a subgroup leaves its parent and siblings alone", async () => {
    const platform = await createGroup(root, "Platform", "platform");
    const backend = await createGroup(root, "Backend", "backend", { parent_id: platform.id });
    const backendOps = await createGroup(root, "Backend Ops", "backend-ops", { parent_id: platform.id });
    const res = await root.put(`/groups/${backend.id}`, { json: { path: "server" } });
    expect(res.status).toBe(200);
    expect(res.body.full_path).toBe("platform/server");
    expect((await root.get(`/groups/${backendOps.id}`)).body.full_path).toBe("platform/backend-ops");
    expect((await root.get(`/groups/${platform.id}`)).body.full_path).toBe("platform");
  });

  test("the answer is the group detail, projects included", async () => {
    const platform = await createGroup(root, "Platform", "platform");
    await createProject(root, { name: "Tool", namespace_id: platform.id });
    const res = await root.put(`/groups/${platform.id}`, { json: { description: "d" } });
    expect(res.status).toBe(200);
    expect(res.body.projects.map((p: { name: string }) => p.name)).toEqual(["Tool"]);
  });

  test("only Owners may edit: Maintainers and outsiders of a public group get 403, of a private one 404", async () => {
    const [maint, bob] = [await createUser("maint"), await createUser("bob")];
    const open = await createGroup(root, "Open", "open", { visibility: "public" });
    const closed = await createGroup(root, "Closed", "closed");
    await addMember(app, "groups", open.id, maint.id, 40);

    for (const api of [maint.api, bob.api]) {
      const res = await api.put(`/groups/${open.id}`, { json: { name: "Taken over" } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "403 Forbidden" });
    }
    const hidden = await bob.api.put(`/groups/${closed.id}`, { json: { name: "x" } });
    expect(hidden.status).toBe(404);
    expect((await root.get(`/groups/${open.id}`)).body.name).toBe("Open");
  });

  test("invalid changes answer GitLab's validation errors and change nothing", async () => {
    const platform = await createGroup(root, "Platform", "platform", { visibility: "public" });
    await createGroup(root, "Other", "other");
    const sub = await createGroup(root, "Sub", "sub", { parent_id: platform.id, visibility: "public" });

    const taken = await root.put(`/groups/${platform.id}`, { json: { path: "other" } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { path: ["has already been taken"] } });

    const narrower = await root.put(`/groups/${platform.id}`, { json: { visibility: "private" } });
    expect(narrower.status).toBe(400);
    expect(narrower.body).toEqual({ message: { visibility_level: ["private is not allowed since there are sub-groups with higher visibility."] } });

    await root.put(`/groups/${sub.id}`, { json: { visibility: "private" } });
    await createProject(root, { name: "Site", namespace_id: platform.id, visibility: "public" });
    const withProject = await root.put(`/groups/${platform.id}`, { json: { visibility: "internal" } });
    expect(withProject.status).toBe(400);
    expect(withProject.body).toEqual({ message: { visibility_level: ["internal is not allowed since this group contains projects with higher visibility."] } });

    const wider = await root.put(`/groups/${sub.id}`, { json: { visibility: "public" } });
    expect(wider.status).toBe(200);
    const closed = await createGroup(root, "Closed", "closed");
    const inner = await createGroup(root, "Inner", "inner", { parent_id: closed.id });
    const tooWide = await root.put(`/groups/${inner.id}`, { json: { visibility: "internal" } });
    expect(tooWide.status).toBe(400);
    expect(tooWide.body).toEqual({ message: { visibility_level: ["internal is not allowed since the parent group has a private visibility."] } });

    expect((await root.get(`/groups/${platform.id}`)).body).toMatchObject({ path: "platform", visibility: "public" });
  });
});

describe("DELETE /groups/:id", () => {
  // Adjourned deletion (the default tier): DELETE marks, permanently_remove removes. More in adjourned-deletion.e2e.test.ts.
  test("an Owner deletes a group with its subgroups and projects", async () => {
    const alice = await createUser("alice");
    const platform = await createGroup(alice.api, "Platform", "platform");
    const backend = await createGroup(alice.api, "Backend", "backend", { parent_id: platform.id });
    const top = await createProject(alice.api, { name: "Top", namespace_id: platform.id });
    const inner = await createProject(alice.api, { name: "Inner", namespace_id: backend.id });
    const keep = await createGroup(alice.api, "Keep", "keep");

    const marked = await alice.api.delete(`/groups/${platform.id}`);
    expect(marked.status).toBe(202);
    expect(marked.body).toEqual({ message: "202 Accepted" });
    expect((await root.get(`/groups/${platform.id}`)).body.marked_for_deletion_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const res = await alice.api.delete(`/groups/${platform.id}`, { query: { permanently_remove: true, full_path: "platform" } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: "202 Accepted" });

    for (const path of [`/groups/${platform.id}`, `/groups/${backend.id}`]) expect((await root.get(path)).body).toEqual({ message: "404 Group Not Found" });
    for (const id of [top.id, inner.id]) expect((await root.get(`/projects/${id}`)).body).toEqual({ message: "404 Project Not Found" });
    expect(paths((await alice.api.get("/groups")).body)).toEqual(["keep"]);
    expect((await root.get("/projects")).body).toEqual([]);

    // The path is free again.
    await alice.gl.Groups.remove(keep.id);
    await alice.gl.Groups.remove(keep.id, { permanentlyRemove: true, fullPath: "keep" });
    expect((await alice.api.get("/groups")).body).toEqual([]);
    expect((await root.post("/groups", { json: { name: "Platform", path: "platform" } })).status).toBe(201);
  });

  test("Maintainers cannot delete a group", async () => {
    const maint = await createUser("maint");
    const platform = await createGroup(root, "Platform", "platform");
    await addMember(app, "groups", platform.id, maint.id, 40);
    const res = await maint.api.delete(`/groups/${platform.id}`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden" });
    expect((await root.get(`/groups/${platform.id}`)).status).toBe(200);
  });
});

describe("subgroups, descendant groups and group projects", () => {
  async function tree() {
    const platform = await createGroup(root, "Platform", "platform", { visibility: "public" });
    const backend = await createGroup(root, "Backend", "backend", { parent_id: platform.id, visibility: "public" });
    const secret = await createGroup(root, "Secret", "secret", { parent_id: platform.id });
    const deep = await createGroup(root, "Deep", "deep", { parent_id: backend.id, visibility: "public" });
    await createProject(root, { name: "Top", namespace_id: platform.id, visibility: "public" });
    await createProject(root, { name: "Middle", namespace_id: backend.id, visibility: "public" });
    await createProject(root, { name: "Bottom", namespace_id: deep.id, visibility: "public" });
    await createProject(root, { name: "Hidden", namespace_id: secret.id });
    return { platform, backend, secret, deep };
  }

  test("subgroups lists direct children, descendant_groups the whole tree below, each as the caller may see it", async () => {
    const { platform } = await tree();
    const gl = new Gitlab({ host: app.url, token: app.rootToken });
    expect(paths(await gl.Groups.allSubgroups(platform.id))).toEqual(["platform/backend", "platform/secret"]);
    expect(paths(await gl.Groups.allDescendantGroups(platform.id, {}))).toEqual(["platform/backend", "platform/backend/deep", "platform/secret"]);

    const anonymous = apiClient(app.url);
    expect(paths((await anonymous.get("/groups/platform/subgroups")).body)).toEqual(["platform/backend"]);
    expect(paths((await anonymous.get(`/groups/${platform.id}/descendant_groups`)).body)).toEqual(["platform/backend", "platform/backend/deep"]);
    const missing = await anonymous.get("/groups/platform%2Fsecret/subgroups");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Group Not Found" });
  });

  test("group projects: direct by default, the whole tree with include_subgroups", async () => {
    const { platform } = await tree();
    const gl = new Gitlab({ host: app.url, token: app.rootToken });
    expect((await gl.Groups.allProjects(platform.id)).map((p) => p.name)).toEqual(["Top"]);
    const names = (body: { name: string }[]) => body.map((p) => p.name).sort();
    expect(names((await root.get(`/groups/${platform.id}/projects`, { query: { include_subgroups: true } })).body)).toEqual(["Bottom", "Hidden", "Middle", "Top"]);
    expect(names((await apiClient(app.url).get(`/groups/${platform.id}/projects`, { query: { include_subgroups: true } })).body)).toEqual(["Bottom", "Middle", "Top"]);
  });
});
