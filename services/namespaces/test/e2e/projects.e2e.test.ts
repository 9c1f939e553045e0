import { Gitlab } from "@gitbeaker/rest";
import { sql } from "drizzle-orm";
import { addMember, apiClient, createGroup, createProject, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Projects through the HTTP gateway: creation in personal and group namespaces, who sees which
 * project, list filters, single-project reads by id or path, edits and deletion by role.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("projects");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** A user ("alice" is named "Alice" unless `extra` says otherwise) with an `api` token and a gitbeaker client, created by root. */
const createUser = (username: string, extra: Record<string, unknown> = {}) => createGitbeakerUser(app, username, extra);

const names = (body: { name: string }[]) => body.map((p) => p.name).sort();
const inOrder = (body: { name: string }[]) => body.map((p) => p.name);

describe("POST /projects", () => {
  test("a user creates a project in their personal namespace with @gitbeaker/rest", async () => {
    const alice = await createUser("alice");
    const project = await alice.gl.Projects.create({ name: "Billing API", description: "Invoices" });
    expect(project).toMatchObject({
      name: "Billing API",
      path: "billing-api",
      path_with_namespace: "alice/billing-api",
      name_with_namespace: "Alice / Billing API",
      description: "Invoices",
      visibility: "private",
      default_branch: null,
      empty_repo: true,
      archived: false,
      creator_id: alice.id,
      web_url: "http://collab.test/alice/billing-api",
      http_url_to_repo: "http://collab.test/alice/billing-api.git",
      namespace: { kind: "user", path: "alice", full_path: "alice" },
      owner: { id: alice.id, username: "alice" },
    });
    const members = await alice.gl.ProjectMembers.all(project.id);
    expect(members.map((m) => [m.username, m.access_level])).toEqual([["alice", 50]]);
  });

  test("a project asked for before the personal namespace exists makes it with the user's name", async () => {
    // Across processes the namespace comes with accounts' user-created event, which may land after
    // the user's first request: here it has not (the row is taken away again).
    const alice = await createUser("alice");
    await app.database.db.execute(sql`DELETE FROM namespaces.namespaces WHERE kind = 'user' AND owner_id = ${alice.id}`);
    const project = await alice.gl.Projects.create({ name: "Billing API" });
    expect(project).toMatchObject({ path_with_namespace: "alice/billing-api", name_with_namespace: "Alice / Billing API", namespace: { kind: "user", name: "Alice", path: "alice" } });
  });

  test("name or path: at least one; each is derived from the other", async () => {
    const none = await root.post("/projects", { json: { description: "nameless" } });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: "name, path are missing, at least one parameter must be provided" });

    const fromPath = await createProject(root, { path: "just-a-path" });
    expect(fromPath).toMatchObject({ name: "just-a-path", path: "just-a-path", path_with_namespace: "root/just-a-path" });
    const both = await createProject(root, { name: "Shown Name", path: "stored" });
    expect(both).toMatchObject({ name: "Shown Name", path: "stored" });
  });

  test("a name or path already used in the namespace is a validation error", async () => {
    await createProject(root, { name: "Billing API" });
    const dup = await root.post("/projects", { json: { name: "billing api" } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: { name: ["has already been taken"], path: ["has already been taken"] } });

    const sameName = await root.post("/projects", { json: { name: "Billing API", path: "other" } });
    expect(sameName.status).toBe(400);
    expect(sameName.body).toEqual({ message: { name: ["has already been taken"] } });

    // Another namespace may reuse both.
    const group = await createGroup(root, "Platform", "platform");
    expect((await root.post("/projects", { json: { name: "Billing API", namespace_id: group.id } })).status).toBe(201);
  });

  test("group namespaces: Developers may create projects, Guests are forbidden, hidden or unknown namespaces are not found", async () => {
    const [dev, guest, outsider, other] = [await createUser("dev"), await createUser("guest"), await createUser("outsider"), await createUser("other")];
    const group = await createGroup(root, "Platform", "platform");
    await addMember(app, "groups", group.id, dev.id, 30);
    await addMember(app, "groups", group.id, guest.id, 10);

    const created = await dev.gl.Projects.create({ name: "Tool", namespaceId: group.id });
    expect(created).toMatchObject({ path_with_namespace: "platform/tool", namespace: { id: group.id, kind: "group", full_path: "platform" } });
    expect(created.owner).toBeUndefined();

    const denied = await guest.api.post("/projects", { json: { name: "Nope", namespace_id: group.id } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: "403 Forbidden" });

    for (const [api, namespaceId] of [
      [outsider.api, group.id],
      [outsider.api, 99999],
    ] as const) {
      const res = await api.post("/projects", { json: { name: "Nope", namespace_id: namespaceId } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Namespace Not Found" });
    }
    const otherNamespace = (await other.api.post("/projects", { json: { name: "Mine" } })).body.namespace.id;
    const foreign = await outsider.api.post("/projects", { json: { name: "Nope", namespace_id: otherNamespace } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "404 Namespace Not Found" });

    expect(names((await root.get(`/groups/${group.id}/projects`)).body)).toEqual(["Tool"]);
  });

  test("a project is never more visible than its group: a wider request is narrowed to the group's", async () => {
    const group = await createGroup(root, "Platform", "platform", { visibility: "internal" });
    const site = await createProject(root, { name: "Site", namespace_id: group.id, visibility: "public" });
    expect(site.visibility).toBe("internal");
    expect((await apiClient(app.url).get(`/projects/${site.id}`)).status).toBe(404);
    expect((await createProject(root, { name: "Closed", namespace_id: group.id, visibility: "private" })).visibility).toBe("private");
    expect((await createProject(root, { name: "Personal", visibility: "public" })).visibility).toBe("public");
  });

  test("initialize_with_readme gives a non-empty repository on main", async () => {
    const project = await createProject(root, { name: "Docs", initialize_with_readme: true });
    expect(project).toMatchObject({ default_branch: "main", empty_repo: false, readme_url: "http://collab.test/root/docs/-/blob/main/README.md" });
    const custom = await createProject(root, { name: "Trunk", initialize_with_readme: true, default_branch: "trunk" });
    expect(custom).toMatchObject({ default_branch: "trunk", empty_repo: false });
  });

  test("anonymous callers cannot create projects", async () => {
    const res = await apiClient(app.url).post("/projects", { json: { name: "x" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });
});

describe("GET /projects", () => {
  /**
   * open (public group): Public, Internal, Private (bob is a member of Private);
   * corp (private group, alice Reporter): Secret, and Deep in corp/team.
   */
  async function matrix() {
    const [alice, bob, carol, ext] = [await createUser("alice"), await createUser("bob"), await createUser("carol"), await createUser("ext", { external: true })];
    const open = await createGroup(root, "Open", "open", { visibility: "public" });
    const corp = await createGroup(root, "Corp", "corp");
    const team = await createGroup(root, "Team", "team", { parent_id: corp.id });
    await createProject(root, { name: "Public", namespace_id: open.id, visibility: "public" });
    await createProject(root, { name: "Internal", namespace_id: open.id, visibility: "internal" });
    const priv = await createProject(root, { name: "Private", namespace_id: open.id, visibility: "private", description: "deep thoughts" });
    await createProject(root, { name: "Secret", namespace_id: corp.id });
    await createProject(root, { name: "Deep", namespace_id: team.id });
    await addMember(app, "groups", corp.id, alice.id, 20);
    await addMember(app, "projects", priv.id, bob.id, 30);
    return { alice, bob, carol, ext, open, corp, team };
  }

  test("who sees what: public to all, internal to signed-in users, private to members (also through ancestor groups)", async () => {
    const { alice, bob, carol, ext } = await matrix();
    expect(names((await apiClient(app.url).get("/projects")).body)).toEqual(["Public"]);
    expect(names((await carol.api.get("/projects")).body)).toEqual(["Internal", "Public"]);
    expect(names((await ext.api.get("/projects")).body)).toEqual(["Public"]);
    expect(names((await alice.api.get("/projects")).body)).toEqual(["Deep", "Internal", "Public", "Secret"]);
    expect(names((await bob.api.get("/projects")).body)).toEqual(["Internal", "Private", "Public"]);
    expect(names(await new Gitlab({ host: app.url, token: app.rootToken }).Projects.all())).toEqual(["Deep", "Internal", "Private", "Public", "Secret"]);
  });

  test("membership, owned and min_access_level", async () => {
    const { alice, bob, corp } = await matrix();
    await createProject(alice.api, { name: "Mine" });
    expect(names((await alice.api.get("/projects", { query: { membership: true } })).body)).toEqual(["Deep", "Mine", "Secret"]);
    expect(names((await alice.api.get("/projects", { query: { owned: true } })).body)).toEqual(["Mine"]);
    expect(names((await bob.api.get("/projects", { query: { membership: true } })).body)).toEqual(["Private"]);
    expect(names((await bob.api.get("/projects", { query: { min_access_level: 30 } })).body)).toEqual(["Private"]);
    expect(names((await bob.api.get("/projects", { query: { min_access_level: 40 } })).body)).toEqual([]);
    expect(names((await alice.api.get("/projects", { query: { min_access_level: 30 } })).body)).toEqual(["Mine"]);

    // Owners of a group own its projects, subgroups included.
    const res = await root.put(`/groups/${corp.id}/members/${alice.id}`, { json: { access_level: 50 } });
    expect(res.status).toBe(200);
    expect(names((await alice.api.get("/projects", { query: { owned: true } })).body)).toEqual(["Deep", "Mine", "Secret"]);
  });

  test("filters combine with membership instead of widening it", async () => {
    const { alice } = await matrix();
    expect(names((await alice.api.get("/projects", { query: { membership: true, search: "deep" } })).body)).toEqual(["Deep"]);
    expect(names((await alice.api.get("/projects", { query: { min_access_level: 10, visibility: "public" } })).body)).toEqual([]);
    expect(names((await alice.api.get("/projects", { query: { membership: true, archived: true } })).body)).toEqual([]);
  });

  test("search matches name, path and description; search_namespaces never reveals hidden projects", async () => {
    const { carol } = await matrix();
    expect(names((await root.get("/projects", { query: { search: "deep" } })).body)).toEqual(["Deep", "Private"]);
    expect(names((await carol.api.get("/projects", { query: { search: "deep" } })).body)).toEqual([]);
    expect(names((await root.get("/projects", { query: { search: "corp/team", search_namespaces: true } })).body)).toEqual(["Deep"]);
    expect(names((await root.get("/projects", { query: { search: "Open / ", search_namespaces: true } })).body)).toEqual(["Internal", "Private", "Public"]);
    expect(names((await apiClient(app.url).get("/projects", { query: { search: "corp", search_namespaces: true } })).body)).toEqual([]);
    expect(names((await carol.api.get("/projects", { query: { search: "Open / ", search_namespaces: true } })).body)).toEqual(["Internal", "Public"]);
  });

  test("visibility and archived filters", async () => {
    await matrix();
    expect(names((await root.get("/projects", { query: { visibility: "internal" } })).body)).toEqual(["Internal"]);
    expect(names((await root.get("/projects", { query: { visibility: "private" } })).body)).toEqual(["Deep", "Private", "Secret"]);
    expect((await root.get("/projects", { query: { archived: true } })).body).toEqual([]);
    expect((await root.get("/projects", { query: { archived: false } })).body).toHaveLength(5);
    const bad = await root.get("/projects", { query: { visibility: "secret" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "visibility does not have a valid value" });
  });

  test("order_by and sort: newest first by default", async () => {
    for (const name of ["Bravo", "Alpha", "Charlie"]) await createProject(root, { name, path: `p-${name === "Alpha" ? "z" : name.toLowerCase()}` });
    expect(inOrder((await root.get("/projects")).body)).toEqual(["Charlie", "Alpha", "Bravo"]);
    expect(inOrder((await root.get("/projects", { query: { sort: "asc" } })).body)).toEqual(["Bravo", "Alpha", "Charlie"]);
    expect(inOrder((await root.get("/projects", { query: { order_by: "name", sort: "asc" } })).body)).toEqual(["Alpha", "Bravo", "Charlie"]);
    expect(inOrder((await root.get("/projects", { query: { order_by: "path", sort: "asc" } })).body)).toEqual(["Bravo", "Charlie", "Alpha"]);
    expect(inOrder((await root.get("/projects", { query: { order_by: "id" } })).body)).toEqual(["Charlie", "Alpha", "Bravo"]);
  });

  test("simple=true answers the basic shape only", async () => {
    await createProject(root, { name: "Tool" });
    const full = (await root.get("/projects")).body[0];
    expect(full).toHaveProperty("_links");
    expect(full).toHaveProperty("owner");
    const simple = (await root.get("/projects", { query: { simple: true } })).body[0];
    expect(simple).toMatchObject({ name: "Tool", path_with_namespace: "root/tool", web_url: "http://collab.test/root/tool", namespace: { full_path: "root" } });
    for (const key of ["_links", "owner", "permissions", "empty_repo", "issues_access_level", "creator_id"]) expect(simple).not.toHaveProperty(key);
  });

  test("pagination headers, Link keeping the other query params", async () => {
    for (const name of ["A", "B", "C"]) await createProject(root, { name });
    const res = await root.get("/projects", { query: { per_page: 1, page: 2, order_by: "id", sort: "asc" } });
    expect(inOrder(res.body)).toEqual(["B"]);
    expect(res.headers.get("x-total")).toBe("3");
    expect(res.headers.get("x-total-pages")).toBe("3");
    expect(res.headers.get("x-page")).toBe("2");
    expect(res.headers.get("x-per-page")).toBe("1");
    expect(res.headers.get("x-next-page")).toBe("3");
    expect(res.headers.get("x-prev-page")).toBe("1");
    const url = (page: number) => `http://collab.test/api/v4/projects?order_by=id&page=${page}&per_page=1&sort=asc`;
    expect(res.headers.get("link")).toBe(`<${url(1)}>; rel="prev", <${url(3)}>; rel="next", <${url(1)}>; rel="first", <${url(3)}>; rel="last"`);

    const past = await root.get("/projects", { query: { per_page: 2, page: 5 } });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(past.headers.get("x-total-pages")).toBe("2");
  });
});

describe("GET /projects/:id", () => {
  test("by id or URL-encoded full path, with the caller's permissions", async () => {
    const [alice, bob] = [await createUser("alice"), await createUser("bob")];
    const group = await createGroup(root, "Group", "group");
    const sub = await createGroup(root, "Sub", "sub", { parent_id: group.id });
    const project = await createProject(root, { name: "Proj", namespace_id: sub.id });
    await addMember(app, "groups", group.id, alice.id, 30);
    await addMember(app, "projects", project.id, bob.id, 20);

    const byPath = await alice.api.get("/projects/group%2Fsub%2Fproj");
    expect(byPath.status).toBe(200);
    expect(byPath.body).toMatchObject({ id: project.id, path_with_namespace: "group/sub/proj" });
    expect(byPath.body.permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
    expect((await alice.api.get("/projects/GROUP%2Fsub%2FProj")).body.id).toBe(project.id);

    const asBob = await bob.gl.Projects.show(project.id);
    expect(asBob.permissions).toEqual({ project_access: { access_level: 20, notification_level: 3 }, group_access: null });
    // An administrator who is no member reads everything, with no membership to report.
    const admin = await createUser("operator", { admin: true });
    const asAdmin = await admin.api.get(`/projects/${project.id}`);
    expect(asAdmin.body.permissions).toEqual({ project_access: null, group_access: null });
    expect(asAdmin.body._links.members).toBe(`http://collab.test/api/v4/projects/${project.id}/members`);
  });

  test("hidden and missing projects are the same 404", async () => {
    const carol = await createUser("carol");
    const secret = await createProject(root, { name: "Secret" });
    const internal = await createProject(root, { name: "Inside", visibility: "internal" });
    const cases: [ApiClient, string][] = [
      [carol.api, String(secret.id)],
      [carol.api, "root%2Fsecret"],
      [apiClient(app.url), String(internal.id)],
      [carol.api, "99999"],
      [carol.api, "nobody%2Fnothing"],
    ];
    for (const [api, ref] of cases) {
      const res = await api.get(`/projects/${ref}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Project Not Found" });
    }
    expect((await carol.api.get(`/projects/${internal.id}`)).status).toBe(200);
  });
});

describe("PUT /projects/:id", () => {
  async function roles() {
    const [owner, maint, dev, bob] = [await createUser("owner"), await createUser("maint"), await createUser("dev"), await createUser("bob")];
    const group = await createGroup(root, "Platform", "platform", { visibility: "public" });
    await addMember(app, "groups", group.id, owner.id, 50);
    const project = await createProject(root, { name: "Tool", namespace_id: group.id, visibility: "private" });
    await addMember(app, "projects", project.id, maint.id, 40);
    await addMember(app, "projects", project.id, dev.id, 30);
    return { owner, maint, dev, bob, group, project };
  }

  test("a Maintainer renames the project; its path moves with it", async () => {
    const { maint, project } = await roles();
    const edited = await maint.gl.Projects.edit(project.id, { name: "Hammer", path: "hammer", description: "hits" });
    expect(edited).toMatchObject({ name: "Hammer", path: "hammer", path_with_namespace: "platform/hammer", description: "hits" });
    expect((await maint.api.get("/projects/platform%2Fhammer")).body.id).toBe(project.id);
    expect((await maint.api.get("/projects/platform%2Ftool")).status).toBe(404);
  });

  test("Developers may not edit; outsiders of a private project get 404", async () => {
    const { dev, bob, project } = await roles();
    const denied = await dev.api.put(`/projects/${project.id}`, { json: { name: "Mine" } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: "403 Forbidden" });
    const hidden = await bob.api.put(`/projects/${project.id}`, { json: { name: "Mine" } });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: "404 Project Not Found" });
    expect((await root.get(`/projects/${project.id}`)).body.name).toBe("Tool");
  });

  test("changing visibility needs an Owner, and stays within the group's visibility", async () => {
    const { owner, maint, project } = await roles();
    const denied = await maint.api.put(`/projects/${project.id}`, { json: { visibility: "internal" } });
    expect(denied.status).toBe(403);
    expect((await maint.api.put(`/projects/${project.id}`, { json: { visibility: "private", description: "same visibility" } })).status).toBe(200);

    const done = await owner.api.put(`/projects/${project.id}`, { json: { visibility: "public" } });
    expect(done.status).toBe(200);
    expect(done.body.visibility).toBe("public");
    expect((await apiClient(app.url).get(`/projects/${project.id}`)).status).toBe(200);

    const closed = await createGroup(root, "Closed", "closed");
    const inner = await createProject(root, { name: "Inner", namespace_id: closed.id });
    const tooWide = await root.put(`/projects/${inner.id}`, { json: { visibility: "internal" } });
    expect(tooWide.status).toBe(400);
    expect(tooWide.body).toEqual({ message: { visibility_level: ["internal is not allowed in a private group."] } });
  });

  test("a rename onto a sibling's name is a validation error", async () => {
    const { maint, group, project } = await roles();
    await createProject(root, { name: "Other", namespace_id: group.id });
    const res = await maint.api.put(`/projects/${project.id}`, { json: { name: "other" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { name: ["has already been taken"] } });
  });
});

describe("DELETE /projects/:id", () => {
  test("Owners and administrators delete with 202; Maintainers are forbidden", async () => {
    const [owner, maint] = [await createUser("owner"), await createUser("maint")];
    const group = await createGroup(root, "Platform", "platform");
    await addMember(app, "groups", group.id, owner.id, 50);
    const first = await createProject(root, { name: "First", namespace_id: group.id });
    const second = await createProject(root, { name: "Second", namespace_id: group.id });
    await addMember(app, "projects", first.id, maint.id, 40);

    const denied = await maint.api.delete(`/projects/${first.id}`);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ message: "403 Forbidden" });

    // Adjourned deletion (the default tier): DELETE marks, permanently_remove removes. More in adjourned-deletion.e2e.test.ts.
    const marked = await owner.api.delete(`/projects/${first.id}`);
    expect(marked.status).toBe(202);
    expect(marked.body).toEqual({ message: "202 Accepted" });
    expect((await owner.api.get(`/projects/${first.id}`)).body.marked_for_deletion_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const res = await owner.api.delete(`/projects/${first.id}`, { query: { permanently_remove: true, full_path: "platform/first" } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: "202 Accepted" });
    for (const api of [owner.api, root]) expect((await api.get(`/projects/${first.id}`)).body).toEqual({ message: "404 Project Not Found" });

    const gl = new Gitlab({ host: app.url, token: app.rootToken });
    await gl.Projects.remove(second.id);
    await gl.Projects.remove(second.id, { permanentlyRemove: true, fullPath: "platform/second" });
    expect((await root.get(`/groups/${group.id}/projects`)).body).toEqual([]);
    // The name is free again.
    expect((await owner.api.post("/projects", { json: { name: "First", namespace_id: group.id } })).status).toBe(201);
  });

  test("personal projects are deleted by their owner; other users cannot even see them", async () => {
    const [alice, bob] = [await createUser("alice"), await createUser("bob")];
    const project = await createProject(alice.api, { name: "Mine" });
    const hidden = await bob.api.delete(`/projects/${project.id}`);
    expect(hidden.status).toBe(404);
    expect((await alice.api.delete(`/projects/${project.id}`)).status).toBe(202);
    expect((await alice.api.delete(`/projects/${project.id}`, { query: { permanently_remove: true, full_path: "alice/mine" } })).status).toBe(202);
    expect((await alice.api.get("/projects", { query: { owned: true } })).body).toEqual([]);
  });
});
