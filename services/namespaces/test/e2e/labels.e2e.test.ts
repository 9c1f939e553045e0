import { Gitlab } from "@gitbeaker/rest";
import { assertStatus as ok, eventually, redeliver, watchEvents, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createWorld, type World } from "@collab/standalone/test/labels-milestones.fixtures";
import { call } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";

/** Project and group labels: GitLab's /projects/:id/labels and /groups/:id/labels. */
let app: TestApp;
let w: World;
beforeAll(async () => {
  app = await startApp("labels");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  w = await createWorld(app);
});

const P = () => `/projects/${w.project.id}/labels`;
const G = () => `/groups/${w.group.id}/labels`;

describe("POST /projects/:id/labels", () => {
  test("a Reporter creates a label: CSS names become hex, text_color follows contrast", async () => {
    const res = await w.reporter.api.post(P(), { json: { name: "bug", color: "red", description: "Something is broken" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "bug",
      color: "#FF0000",
      text_color: "#FFFFFF",
      description: "Something is broken",
      description_html: "Something is broken",
      subscribed: false,
      priority: null,
      is_project_label: true,
    });
  });

  test("#RGB is kept as given, light colours get dark text, priority and form params work", async () => {
    const res = await w.reporter.api.post(P(), { form: { name: " pale ", color: "#ffe", priority: "3" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "pale", color: "#ffe", text_color: "#1F1E24", description: null, description_html: null, priority: 3 });
  });

  test("a Planner may manage labels too", async () => {
    const res = await w.planner.api.post(P(), { json: { name: "plan", color: "#428BCA" } });
    expect(res.status).toBe(201);
  });

  test("validation failures", async () => {
    const bad = await w.reporter.api.post(P(), { json: { name: "bug", color: "#GGG" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: { color: ["must be a valid color code"] } });

    const noName = await w.reporter.api.post(P(), { json: { color: "#FF0000" } });
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual({ error: "name is missing" });

    const noColor = await w.reporter.api.post(P(), { json: { name: "bug" } });
    expect(noColor.body).toEqual({ error: "color is missing" });

    const comma = await w.reporter.api.post(P(), { json: { name: "a,b", color: "#FF0000" } });
    expect(comma.status).toBe(400);
    expect(comma.body).toEqual({ message: { title: ["is invalid"] } });

    const blank = await w.reporter.api.post(P(), { json: { name: "  ", color: "nope" } });
    expect(blank.body).toEqual({ message: { color: ["must be a valid color code"], title: ["can't be blank", "is invalid"] } });

    const negative = await w.reporter.api.post(P(), { json: { name: "x", color: "#000", priority: -1 } });
    expect(negative.body).toEqual({ message: { priority: ["must be greater than or equal to 0"] } });

    const list = await w.reporter.api.get(P());
    expect(list.body).toEqual([]);
  });

  test("a name already visible to the project (its own or an ancestor group's) conflicts", async () => {
    expect((await w.reporter.api.post(P(), { json: { name: "bug", color: "#FF0000" } })).status).toBe(201);
    const dup = await w.reporter.api.post(P(), { json: { name: "bug", color: "#00FF00" } });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ message: "Label already exists" });

    expect((await w.root.post(G(), { json: { name: "team", color: "#000000" } })).status).toBe(201);
    const inherited = await w.reporter.api.post(P(), { json: { name: "team", color: "#FFFFFF" } });
    expect(inherited.status).toBe(409);
    // Titles are case-sensitive, as in GitLab.
    expect((await w.reporter.api.post(P(), { json: { name: "Bug", color: "#FF0000" } })).status).toBe(201);
  });

  test("permissions: 401 anonymous, 403 Guest, 404 for non-members of a private project", async () => {
    const body = { json: { name: "bug", color: "#FF0000" } };
    const anon = await w.anonymous.post(P(), body);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: "401 Unauthorized" });

    const guest = await w.guest.api.post(P(), body);
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: "403 Forbidden" });

    const outsider = await w.outsider.api.post(P(), body);
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ message: "404 Project Not Found" });

    const missing = await w.root.post("/projects/999999/labels", body);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Project Not Found" });
  });
});

describe("GET /projects/:id/labels", () => {
  beforeEach(async () => {
    await w.root.post(G(), { json: { name: "org-wide", color: "#0033CC" } });
    await w.root.post(`/groups/${w.subgroup.id}/labels`, { json: { name: "backend", color: "#5843AD", description: "Server side" } });
    await w.root.post(`/groups/${w.other.namespace.id}/labels`, { json: { name: "zz-same-group", color: "#000" } });
    await w.root.post(`/projects/${w.other.id}/labels`, { json: { name: "elsewhere", color: "#000" } });
    await w.reporter.api.post(P(), { json: { name: "bug", color: "#d9534f", description: "Broken <b>things</b>" } });
    await w.reporter.api.post(P(), { json: { name: "Feature", color: "#5CB85C" } });
  });

  test("project labels plus those of every ancestor group, by title; group labels carry no priority", async () => {
    const res = await w.guest.api.get(P());
    expect(res.status).toBe(200);
    expect(res.body.map((l: { name: string }) => l.name)).toEqual(["Feature", "backend", "bug", "org-wide", "zz-same-group"]);
    const backend = res.body.find((l: { name: string }) => l.name === "backend");
    expect(backend).toEqual({
      id: expect.any(Number),
      name: "backend",
      color: "#5843AD",
      text_color: "#FFFFFF",
      description: "Server side",
      description_html: "Server side",
      subscribed: false,
      priority: null,
      is_project_label: false,
    });
    expect(res.body.find((l: { name: string }) => l.name === "bug")).toMatchObject({ description: "Broken things", is_project_label: true });
    expect(res.body[0]).not.toHaveProperty("open_issues_count");
    expect(res.headers.get("x-total")).toBe("5");
  });

  test("include_ancestor_groups=false, search, with_counts and pagination", async () => {
    const own = await w.guest.api.get(P(), { query: { include_ancestor_groups: false } });
    expect(own.body.map((l: { name: string }) => l.name)).toEqual(["Feature", "bug"]);

    const search = await w.guest.api.get(P(), { query: { search: "server" } });
    expect(search.body.map((l: { name: string }) => l.name)).toEqual(["backend"]);

    const counts = await w.guest.api.get(P(), { query: { with_counts: true, search: "bug" } });
    expect(counts.body).toEqual([
      expect.objectContaining({ name: "bug", open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 }),
    ]);

    const paged = await w.guest.api.get(P(), { query: { per_page: 2, page: 2 } });
    expect(paged.body.map((l: { name: string }) => l.name)).toEqual(["bug", "org-wide"]);
    expect(paged.headers.get("x-total-pages")).toBe("3");

    const badBool = await w.guest.api.get(P(), { query: { with_counts: "maybe" } });
    expect(badBool.status).toBe(400);
    expect(badBool.body).toEqual({ error: "with_counts is invalid" });
  });

  test("hidden from non-members and anonymous users of a private project", async () => {
    for (const client of [w.outsider.api, w.anonymous]) {
      const res = await client.get(P());
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Project Not Found" });
    }
  });

  test("members of the top group see its labels in subgroup projects (inheritance)", async () => {
    const res = await w.groupGuest.api.get(P());
    expect(res.status).toBe(200);
    expect(res.body.map((l: { name: string }) => l.name)).toContain("org-wide");
    const single = await w.groupGuest.api.get(`${P()}/org-wide`);
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ name: "org-wide", is_project_label: false });
  });
});

describe("GET /projects/:id/labels/:label_id", () => {
  test("by id or by (URL-encoded) name; ancestor labels unless include_ancestor_groups=false", async () => {
    const created = (await w.reporter.api.post(P(), { json: { name: "needs review", color: "#F0AD4E" } })).body;
    const group = (await w.root.post(G(), { json: { name: "org", color: "#FFF" } })).body;

    const byId = await w.guest.api.get(`${P()}/${created.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(created);
    const byName = await w.guest.api.get(`${P()}/${encodeURIComponent("needs review")}`);
    expect(byName.body).toEqual(created);
    expect(created.text_color).toBe("#1F1E24");

    expect((await w.guest.api.get(`${P()}/${group.id}`)).body).toMatchObject({ id: group.id, is_project_label: false });
    const ownOnly = await w.guest.api.get(`${P()}/${group.id}`, { query: { include_ancestor_groups: false } });
    expect(ownOnly.status).toBe(404);

    // Names with a slash travel %2F-encoded, as GitLab requires for path segments.
    const scoped = (await w.reporter.api.post(P(), { json: { name: "area/db", color: "#000" } })).body;
    expect((await w.guest.api.get(`${P()}/${encodeURIComponent("area/db")}`)).body).toEqual(scoped);
  });

  test("unknown label → 404 Label Not Found; labels of other projects are not reachable", async () => {
    const elsewhere = (await w.root.post(`/projects/${w.other.id}/labels`, { json: { name: "elsewhere", color: "#000" } })).body;
    for (const ref of ["nope", "999999", String(elsewhere.id)]) {
      const res = await w.reporter.api.get(`${P()}/${ref}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Label Not Found" });
    }
    const outsider = await w.outsider.api.get(`${P()}/nope`);
    expect(outsider.body).toEqual({ message: "404 Project Not Found" });
  });
});

describe("PUT /projects/:id/labels/:label_id", () => {
  let label: { id: number; name: string };
  beforeEach(async () => {
    label = (await w.reporter.api.post(P(), { json: { name: "bug", color: "#FF0000", priority: 1 } })).body;
  });

  test("renames, recolours, describes and reprioritizes", async () => {
    const res = await w.reporter.api.put(`${P()}/${label.id}`, { json: { new_name: "defect", color: "yellow", description: "Broken", priority: 5 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: label.id, name: "defect", color: "#FFFF00", text_color: "#1F1E24", description: "Broken", priority: 5 });

    const byName = await w.reporter.api.put(`${P()}/defect`, { json: { priority: null } });
    expect(byName.status).toBe(200);
    expect(byName.body).toMatchObject({ name: "defect", priority: null, description: "Broken" });
  });

  test("the older form PUT /projects/:id/labels names the label in the params", async () => {
    const res = await w.reporter.api.put(P(), { json: { name: "bug", new_name: "renamed" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: label.id, name: "renamed" });
    const byId = await w.reporter.api.put(P(), { json: { label_id: label.id, color: "#000" } });
    expect(byId.body).toMatchObject({ id: label.id, color: "#000" });

    const neither = await w.reporter.api.put(P(), { json: { color: "#000" } });
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ error: "label_id, name are missing, exactly one parameter must be provided" });
    const both = await w.reporter.api.put(P(), { json: { label_id: label.id, name: "renamed", color: "#000" } });
    expect(both.body).toEqual({ error: "label_id, name are mutually exclusive" });
  });

  test("validation failures", async () => {
    const nothing = await w.reporter.api.put(`${P()}/${label.id}`, { json: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.body).toEqual({ error: "new_name, color, description, priority are missing, at least one parameter must be provided" });

    const color = await w.reporter.api.put(`${P()}/${label.id}`, { json: { color: "blurple" } });
    expect(color.status).toBe(400);
    expect(color.body).toEqual({ message: { color: ["must be a valid color code"] } });

    await w.reporter.api.post(P(), { json: { name: "taken", color: "#000" } });
    const taken = await w.reporter.api.put(`${P()}/${label.id}`, { json: { new_name: "taken" } });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { title: ["has already been taken"] } });

    await w.root.post(`/groups/${w.subgroup.id}/labels`, { json: { name: "grouped", color: "#000" } });
    const atGroup = await w.reporter.api.put(`${P()}/${label.id}`, { json: { new_name: "grouped" } });
    expect(atGroup.body).toEqual({ message: { title: ["already exists at group level for Backend. Please choose another one."] } });
  });

  test("permissions and not found", async () => {
    const anon = await w.anonymous.put(`${P()}/${label.id}`, { json: { color: "#000" } });
    expect(anon.status).toBe(401);
    const guest = await w.guest.api.put(`${P()}/${label.id}`, { json: { color: "#000" } });
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: "403 Forbidden" });
    const outsider = await w.outsider.api.put(`${P()}/${label.id}`, { json: { color: "#000" } });
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ message: "404 Project Not Found" });

    const unknown = await w.reporter.api.put(`${P()}/nope`, { json: { color: "#000" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "404 Label Not Found" });
    // Ancestor group labels are visible but not editable through the project.
    const group = (await w.root.post(G(), { json: { name: "org", color: "#FFF" } })).body;
    const viaProject = await w.reporter.api.put(`${P()}/${group.id}`, { json: { color: "#000" } });
    expect(viaProject.status).toBe(404);
    expect(viaProject.body).toEqual({ message: "404 Label Not Found" });
  });
});

describe("DELETE /projects/:id/labels/:label_id", () => {
  test("204, then gone; the older form deletes by name", async () => {
    const a = (await w.reporter.api.post(P(), { json: { name: "a", color: "#000" } })).body;
    await w.reporter.api.post(P(), { json: { name: "b", color: "#000" } });
    const res = await w.reporter.api.delete(`${P()}/${a.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await w.reporter.api.get(`${P()}/${a.id}`)).status).toBe(404);

    const legacy = await w.reporter.api.delete(P(), { query: { name: "b" } });
    expect(legacy.status).toBe(204);
    expect((await w.reporter.api.get(P())).body).toEqual([]);
  });

  test("permissions and not found", async () => {
    const label = (await w.reporter.api.post(P(), { json: { name: "a", color: "#000" } })).body;
    expect((await w.anonymous.delete(`${P()}/${label.id}`)).status).toBe(401);
    const guest = await w.guest.api.delete(`${P()}/${label.id}`);
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: "403 Forbidden" });
    const outsider = await w.outsider.api.delete(`${P()}/${label.id}`);
    expect(outsider.body).toEqual({ message: "404 Project Not Found" });
    const unknown = await w.reporter.api.delete(`${P()}/nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "404 Label Not Found" });
    expect((await w.reporter.api.get(`${P()}/${label.id}`)).status).toBe(200);
  });
});

describe("group labels", () => {
  test("CRUD by a group Reporter; no priority or is_project_label", async () => {
    const created = await w.groupReporter.api.post(G(), { json: { name: "org", color: "#0033CC", description: "Everywhere" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: "org",
      color: "#0033CC",
      text_color: "#FFFFFF",
      description: "Everywhere",
      description_html: "Everywhere",
      subscribed: false,
    });
    const id = created.body.id;
    expect((await w.groupGuest.api.get(`${G()}/org`)).body).toEqual(created.body);

    const updated = await w.groupReporter.api.put(`${G()}/${id}`, { json: { new_name: "org-wide", color: "white" } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: "org-wide", color: "#FFFFFF", text_color: "#1F1E24" });
    expect(updated.body).not.toHaveProperty("priority");

    const nothing = await w.groupReporter.api.put(`${G()}/${id}`, { json: { priority: 1 } });
    expect(nothing.body).toEqual({ error: "new_name, color, description are missing, at least one parameter must be provided" });

    expect((await w.groupReporter.api.delete(`${G()}/${id}`)).status).toBe(204);
    expect((await w.groupReporter.api.get(`${G()}/${id}`)).body).toEqual({ message: "404 Label Not Found" });
  });

  test("validation failures and conflicts", async () => {
    expect((await w.root.post(G(), { json: { name: "org", color: "#000" } })).status).toBe(201);
    const dupInSubgroup = await w.root.post(`/groups/${w.subgroup.id}/labels`, { json: { name: "org", color: "#000" } });
    expect(dupInSubgroup.status).toBe(409);
    expect(dupInSubgroup.body).toEqual({ message: "Label already exists" });
    const badColor = await w.root.post(G(), { json: { name: "x", color: "#12345" } });
    expect(badColor.status).toBe(400);
    expect(badColor.body).toEqual({ message: { color: ["must be a valid color code"] } });
    expect((await w.root.post(G(), { json: { color: "#000" } })).body).toEqual({ error: "name is missing" });
  });

  test("permissions: 401 anonymous, 403 group Guest and project-only members, 404 non-members", async () => {
    const body = { json: { name: "org", color: "#000" } };
    expect((await w.anonymous.post(G(), body)).status).toBe(401);
    const guest = await w.groupGuest.api.post(G(), body);
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: "403 Forbidden" });
    // A Reporter of a project below the group can see the group but not manage its labels.
    expect((await w.reporter.api.get(G())).status).toBe(200);
    expect((await w.reporter.api.post(G(), body)).status).toBe(403);
    const outsider = await w.outsider.api.post(G(), body);
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ message: "404 Group Not Found" });
    expect((await w.outsider.api.get(G())).body).toEqual({ message: "404 Group Not Found" });
    expect((await w.anonymous.get(G())).status).toBe(404);
  });

  test("subgroups inherit; descendants and project labels on request", async () => {
    await w.root.post(G(), { json: { name: "top", color: "#000" } });
    await w.root.post(`/groups/${w.subgroup.id}/labels`, { json: { name: "sub", color: "#000" } });
    await w.root.post(P(), { json: { name: "in-project", color: "#000" } });
    await w.root.post(`/projects/${w.other.id}/labels`, { json: { name: "in-top-project", color: "#000" } });
    const names = async (path: string, query: Record<string, string | boolean> = {}) =>
      (await w.root.get(path, { query })).body.map((l: { name: string }) => l.name);
    const sub = `/groups/${w.subgroup.id}/labels`;

    expect(await names(sub)).toEqual(["sub", "top"]);
    expect(await names(sub, { include_ancestor_groups: false })).toEqual(["sub"]);
    expect(await names(G())).toEqual(["top"]);
    expect(await names(G(), { include_descendant_groups: true })).toEqual(["sub", "top"]);
    expect(await names(G(), { only_group_labels: false })).toEqual(["in-top-project", "top"]);
    expect(await names(G(), { include_descendant_groups: true, only_group_labels: false })).toEqual(["in-project", "in-top-project", "sub", "top"]);
    expect(await names(`/groups/${encodeURIComponent("platform/backend")}/labels`)).toEqual(["sub", "top"]);

    // Descendants the caller cannot read stay out: groupGuest reads everything below platform,
    // but a project-only member sees only what its memberships reveal.
    expect((await w.reporter.api.get(G(), { query: { include_descendant_groups: true, only_group_labels: false } })).body.map((l: { name: string }) => l.name)).toEqual([
      "in-project",
      "sub",
      "top",
    ]);
  });
});

describe("bus actions for other services", () => {
  test("labels.resolveForProject finds project and ancestor labels by name and creates missing ones", async () => {
    const top = (await w.root.post(G(), { json: { name: "top", color: "#000" } })).body;
    const own = (await w.root.post(P(), { json: { name: "own", color: "#FFF", description: "mine" } })).body;

    const found = await call(app.broker, Namespaces.labels.resolveForProject, { project_id: w.project.id, names: ["top", "own", "missing"] });
    expect(found).toEqual([
      { id: own.id, name: "own", color: "#FFF", text_color: "#1F1E24", description: "mine", description_html: "mine" },
      { id: top.id, name: "top", color: "#000", text_color: "#FFFFFF", description: null, description_html: null },
    ]);

    // A Guest's edit does not create labels; a Reporter's (or a system call) does.
    const guestCaller = { caller: { id: w.guest.id, username: "guest", admin: false } };
    const asGuest = await call(app.broker, Namespaces.labels.resolveForProject, { project_id: w.project.id, names: ["missing"], create_missing: true }, { meta: app.asCaller(guestCaller.caller) });
    expect(asGuest).toEqual([]);
    const reporterCaller = { caller: { id: w.reporter.id, username: "reporter", admin: false } };
    const created = (await call(app.broker, Namespaces.labels.resolveForProject, { project_id: w.project.id, names: ["missing", " top "], create_missing: true }, { meta: app.asCaller(reporterCaller.caller) })) as { id: number; name: string; color: string }[];
    expect(created.map((l) => [l.name, l.color])).toEqual([
      ["missing", "#6699cc"],
      ["top", "#000"],
    ]);
    expect((await w.root.get(`${P()}/missing`)).body).toMatchObject({ is_project_label: true });

    const byIds = (await call(app.broker, Namespaces.labels.byIds, { ids: [top.id, own.id, 999999] })) as { name: string }[];
    expect(byIds.map((l) => l.name)).toEqual(["own", "top"]);
  });

  test("deleting a project or a group takes its labels along", async () => {
    const group = (await w.root.post(G(), { json: { name: "org", color: "#000" } })).body;
    const own = (await w.root.post(P(), { json: { name: "own", color: "#000" } })).body;
    // Marked first (adjourned deletion), then removed at once.
    expect((await w.root.delete(`/projects/${w.project.id}`)).status).toBe(202);
    expect((await w.root.delete(`/projects/${w.project.id}`, { query: { permanently_remove: true, full_path: w.project.path_with_namespace } })).status).toBe(202);
    expect(await call(app.broker, Namespaces.labels.byIds, { ids: [own.id, group.id] })).toEqual([expect.objectContaining({ id: group.id })]);
    expect((await w.root.delete(`/groups/${w.group.id}`)).status).toBe(202);
    expect((await w.root.delete(`/groups/${w.group.id}`, { query: { permanently_remove: true, full_path: w.group.full_path } })).status).toBe(202);
    expect(await call(app.broker, Namespaces.labels.byIds, { ids: [group.id] })).toEqual([]);
  });

  test("labels.resolveForProject answers 404 for unknown projects and is not reachable over HTTP", async () => {
    await expect(call(app.broker, Namespaces.labels.resolveForProject, { project_id: 999999, names: ["x"] })).rejects.toMatchObject({ code: 404 });
    const res = await w.root.post("/labels/resolveForProject", { json: {} });
    expect(res.status).toBe(404);
  });
});

describe("deleting a label reaches the issues carrying it", () => {
  const createIssue = async (as: ApiClient, projectId: number, body: Record<string, unknown>) =>
    ok(await as.post(`/projects/${projectId}/issues`, { json: body }), 201, `issue ${String(body.title)}`).body as { id: number; iid: number };
  /** iids of a list, sorted, with X-Total checked against them. */
  const iids = async (as: ApiClient, path: string, query: Record<string, string>) => {
    const res = ok(await as.get(path, { query }), 200, `GET ${path} ${JSON.stringify(query)}`);
    const list = (res.body as { iid: number }[]).map((i) => i.iid).sort((a, b) => a - b);
    expect(Number(res.headers.get("x-total"))).toBe(list.length);
    return list;
  };
  const issuesOf = (projectId: number) => `/projects/${projectId}/issues`;

  test("a project label: its links go, so None/Any follow; a new label of the same name matches no old issue", async () => {
    const bug = ok(await w.reporter.api.post(P(), { json: { name: "bug", color: "#FF0000" } }), 201, "bug").body;
    ok(await w.reporter.api.post(P(), { json: { name: "keep", color: "#00FF00" } }), 201, "keep");
    const I = issuesOf(w.project.id);
    await createIssue(w.reporter.api, w.project.id, { title: "Both", labels: "bug,keep" });
    await createIssue(w.reporter.api, w.project.id, { title: "Only bug", labels: "bug" });
    expect(await iids(w.reporter.api, I, { labels: "bug" })).toEqual([1, 2]);
    expect(await iids(w.reporter.api, I, { labels: "None" })).toEqual([]);

    const watch = await watchEvents(app, [Namespaces.events.labelDeleted]);
    expect((await w.reporter.api.delete(`${P()}/${bug.id}`)).status).toBe(204);

    // The issue that carried only "bug" now carries nothing: the links went, not just their display.
    await eventually(async () => expect(await iids(w.reporter.api, I, { labels: "None" })).toEqual([2]));
    expect(await iids(w.reporter.api, I, { labels: "Any" })).toEqual([1]);
    expect(await iids(w.reporter.api, I, { "not[labels]": "keep" })).toEqual([2]);
    expect((await w.reporter.api.get(`${I}/1`)).body.labels).toEqual(["keep"]);
    expect((await w.reporter.api.get(`${I}/2`)).body.labels).toEqual([]);
    await eventually(() => expect(watch.seen).toHaveLength(1));
    await watch.stop();
    expect(watch.seen[0].payload).toEqual({ labelIds: [bug.id], projectId: w.project.id, groupId: null });

    // A new "bug" is another label: the old issues do not carry it, until one is given it.
    const again = ok(await w.reporter.api.post(P(), { json: { name: "bug", color: "#0000FF" } }), 201, "bug again").body;
    expect(again.id).not.toBe(bug.id);
    expect(await iids(w.reporter.api, I, { labels: "bug" })).toEqual([]);
    expect(await iids(w.reporter.api, I, { labels: "bug,keep" })).toEqual([]);
    ok(await w.reporter.api.put(`${I}/2`, { json: { add_labels: "bug" } }), 200, "relabel #2");
    expect(await iids(w.reporter.api, I, { labels: "bug" })).toEqual([2]);

    // The same event again (a redelivery) takes nothing more: it was applied once already.
    await redeliver(app, watch.seen[0]);
    expect(await iids(w.reporter.api, I, { labels: "bug" })).toEqual([2]);
    expect(await iids(w.reporter.api, I, { labels: "None" })).toEqual([]);
  });

  test("a group label goes from the issues of every project below the group, subgroups' included", async () => {
    ok(await w.root.post(G(), { json: { name: "org", color: "#000" } }), 201, "org");
    ok(await w.root.post(G(), { json: { name: "other-org", color: "#111" } }), 201, "other-org");
    // api lives in the subgroup platform/backend, other directly in platform.
    await createIssue(w.root, w.project.id, { title: "Deep", labels: "org" });
    await createIssue(w.root, w.project.id, { title: "Deep, two labels", labels: "org,other-org" });
    await createIssue(w.root, w.other.id, { title: "Shallow", labels: "org" });
    const GI = `/groups/${w.group.id}/issues`;
    expect((await w.root.get(GI, { query: { labels: "org" } })).body).toHaveLength(3);

    expect((await w.root.delete(`${G()}/org`)).status).toBe(204);

    await eventually(async () => expect((await w.root.get(GI, { query: { labels: "None" } })).headers.get("x-total")).toBe("2"));
    expect(await iids(w.root, issuesOf(w.project.id), { labels: "None" })).toEqual([1]);
    expect(await iids(w.root, issuesOf(w.project.id), { labels: "Any" })).toEqual([2]);
    expect(await iids(w.root, issuesOf(w.other.id), { labels: "None" })).toEqual([1]);
    expect((await w.root.get(GI, { query: { labels: "org" } })).body).toEqual([]);
    expect((await w.root.get(`${issuesOf(w.project.id)}/2`)).body.labels).toEqual(["other-org"]);
    // A new group label of that name matches none of them.
    ok(await w.root.post(G(), { json: { name: "org", color: "#000" } }), 201, "org again");
    expect((await w.root.get(GI, { query: { labels: "org" } })).body).toEqual([]);
  });
});

test("@gitbeaker/rest drives project and group labels", async () => {
  const api = new Gitlab({ host: app.url, token: w.reporter.token });
  const admin = new Gitlab({ host: app.url, token: app.rootToken });

  const created = await api.ProjectLabels.create(w.project.id, "bug", "#FF0000", { description: "Broken", priority: 2 });
  expect(created).toMatchObject({ name: "bug", color: "#FF0000", priority: 2, is_project_label: true });
  await admin.GroupLabels.create(w.group.id, "org", "navy");

  const all = await api.ProjectLabels.all(w.project.id);
  expect(all.map((l) => l.name)).toEqual(["bug", "org"]);
  const withCounts = await api.ProjectLabels.all(w.project.id, { withCounts: true });
  expect(withCounts[0]).toMatchObject({ open_issues_count: 0 });

  const shown = await api.ProjectLabels.show(w.project.id, "bug");
  expect(shown.id).toBe(created.id);
  const edited = await api.ProjectLabels.edit(w.project.id, created.id as number, { newName: "defect", description: "Really broken" });
  expect(edited).toMatchObject({ name: "defect", description: "Really broken" });
  await api.ProjectLabels.remove(w.project.id, created.id as number);
  expect((await api.ProjectLabels.all(w.project.id)).map((l) => l.name)).toEqual(["org"]);

  const groupLabels = await admin.GroupLabels.all(w.group.id);
  expect(groupLabels).toEqual([expect.objectContaining({ name: "org", color: "#000080" })]);
  const groupLabel = await admin.GroupLabels.show(w.group.id, "org");
  expect(groupLabel).not.toHaveProperty("is_project_label");
});
