import { Gitlab } from "@gitbeaker/rest";
import { assertStatus as ok, eventually, redeliver, watchEvents, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createWorld, type World } from "@collab/standalone/test/labels-milestones.fixtures";
import { call } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";

/** Project and group milestones: GitLab's /projects/:id/milestones and /groups/:id/milestones. */
let app: TestApp;
let w: World;
beforeAll(async () => {
  app = await startApp("milestones");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  w = await createWorld(app);
});

const BASE = "http://collab.test"; // EXTERNAL_URL in the e2e environment
const P = () => `/projects/${w.project.id}/milestones`;
const G = () => `/groups/${w.group.id}/milestones`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const titles = (body: { title: string }[]) => body.map((m) => m.title);

describe("POST /projects/:id/milestones", () => {
  test("a Reporter creates milestones numbered per project from 1", async () => {
    const res = await w.reporter.api.post(P(), { json: { title: "v1.0", description: "First", start_date: "2030-01-01", due_date: "2030-02-01" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: w.project.id,
      title: "v1.0",
      description: "First",
      state: "active",
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      due_date: "2030-02-01",
      start_date: "2030-01-01",
      expired: false,
      web_url: `${BASE}/platform/backend/api/-/milestones/1`,
    });
    const second = await w.planner.api.post(P(), { form: { title: "v2.0" } });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ iid: 2, description: null, due_date: null, start_date: null, expired: false });
    // Another project starts its own sequence.
    const other = await w.root.post(`/projects/${w.other.id}/milestones`, { json: { title: "v1.0" } });
    expect(other.body).toMatchObject({ iid: 1, web_url: `${BASE}/platform/other/-/milestones/1` });
  });

  test("a past due date is expired", async () => {
    const res = await w.reporter.api.post(P(), { json: { title: "old", due_date: "2001-01-01" } });
    expect(res.body).toMatchObject({ due_date: "2001-01-01", expired: true });
  });

  test("concurrent creations get distinct, gapless iids", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => w.reporter.api.post(P(), { json: { title: `m${i}` } })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(results.map((r) => r.body.iid).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test("validation failures", async () => {
    const missing = await w.reporter.api.post(P(), { json: { description: "x" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "title is missing" });

    const blank = await w.reporter.api.post(P(), { json: { title: "  " } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: 'Failed to create milestone {:title=>["can\'t be blank"]}' });

    const badDate = await w.reporter.api.post(P(), { json: { title: "x", due_date: "2030-13-45" } });
    expect(badDate.status).toBe(400);
    expect(badDate.body).toEqual({ error: "due_date is invalid" });

    const order = await w.reporter.api.post(P(), { json: { title: "x", start_date: "2030-02-01", due_date: "2030-01-01" } });
    expect(order.status).toBe(400);
    expect(order.body).toEqual({ message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' });

    expect((await w.reporter.api.post(P(), { json: { title: "v1" } })).status).toBe(201);
    const dup = await w.reporter.api.post(P(), { json: { title: "v1" } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}' });

    // The project's own group counts too (GitLab checks the project and its direct group).
    await w.root.post(`/groups/${w.subgroup.id}/milestones`, { json: { title: "sprint 1" } });
    const dupGroup = await w.reporter.api.post(P(), { json: { title: "sprint 1" } });
    expect(dupGroup.body).toEqual({ message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}' });

    // Failed attempts do not consume iids.
    expect((await w.reporter.api.post(P(), { json: { title: "v2" } })).body.iid).toBe(2);
  });

  test("permissions: 401 anonymous, 403 Guest, 404 non-members of a private project", async () => {
    const body = { json: { title: "v1" } };
    const anon = await w.anonymous.post(P(), body);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: "401 Unauthorized" });
    const guest = await w.guest.api.post(P(), body);
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: "403 Forbidden" });
    const outsider = await w.outsider.api.post(P(), body);
    expect(outsider.status).toBe(404);
    expect(outsider.body).toEqual({ message: "404 Project Not Found" });
    expect((await w.reporter.api.get(P())).body).toEqual([]);
  });
});

describe("GET /projects/:id/milestones", () => {
  beforeEach(async () => {
    await w.reporter.api.post(P(), { json: { title: "alpha", description: "first cut", due_date: "2030-03-01" } });
    await w.reporter.api.post(P(), { json: { title: "beta", due_date: "2030-01-01" } });
    const gamma = (await w.reporter.api.post(P(), { json: { title: "gamma release" } })).body;
    await w.reporter.api.put(`${P()}/${gamma.id}`, { json: { state_event: "close" } });
    await w.root.post(`/groups/${w.subgroup.id}/milestones`, { json: { title: "sub sprint" } });
    await w.root.post(G(), { json: { title: "top sprint", due_date: "2030-02-01" } });
  });

  test("due date ascending (none last), then newest first; filters", async () => {
    const all = await w.guest.api.get(P());
    expect(all.status).toBe(200);
    expect(titles(all.body)).toEqual(["beta", "alpha", "gamma release"]);
    expect(all.headers.get("x-total")).toBe("3");

    expect(titles((await w.guest.api.get(P(), { query: { state: "active" } })).body)).toEqual(["beta", "alpha"]);
    expect(titles((await w.guest.api.get(P(), { query: { state: "closed" } })).body)).toEqual(["gamma release"]);
    expect(titles((await w.guest.api.get(P(), { query: { iids: [1, 3] } })).body)).toEqual(["alpha", "gamma release"]);
    expect(titles((await w.guest.api.get(P(), { query: { iids: "2,3" } })).body)).toEqual(["beta", "gamma release"]);
    expect(titles((await w.guest.api.get(P(), { query: { title: "beta" } })).body)).toEqual(["beta"]);
    expect(titles((await w.guest.api.get(P(), { query: { search: "cut" } })).body)).toEqual(["alpha"]);
    expect(titles((await w.guest.api.get(P(), { query: { search: "release gam" } })).body)).toEqual(["gamma release"]);
    // Below three characters GitLab matches whole values only.
    expect(titles((await w.guest.api.get(P(), { query: { search: "be" } })).body)).toEqual([]);
    expect(titles((await w.guest.api.get(P(), { query: { search: "BETA" } })).body)).toEqual(["beta"]);
  });

  test("include_ancestors adds the milestones of every ancestor group", async () => {
    const res = await w.guest.api.get(P(), { query: { include_ancestors: true } });
    // Due dates first (beta, top sprint, alpha), then those without one, newest first.
    expect(titles(res.body)).toEqual(["beta", "top sprint", "alpha", "sub sprint", "gamma release"]);
    const top = res.body.find((m: { title: string }) => m.title === "top sprint");
    expect(top).toMatchObject({ group_id: w.group.id, web_url: `${BASE}/groups/platform/-/milestones/1` });
    expect(top).not.toHaveProperty("project_id");
    expect(titles((await w.guest.api.get(P(), { query: { include_parent_milestones: true, state: "active", search: "sprint" } })).body).sort()).toEqual(["sub sprint", "top sprint"]);
    const both = await w.guest.api.get(P(), { query: { include_ancestors: true, include_parent_milestones: true } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: "include_ancestors, include_parent_milestones are mutually exclusive" });
  });

  test("updated_before / updated_after", async () => {
    const future = "2999-01-01T00:00:00Z";
    expect((await w.guest.api.get(P(), { query: { updated_before: future } })).body).toHaveLength(3);
    expect((await w.guest.api.get(P(), { query: { updated_after: future } })).body).toHaveLength(0);
    const bad = await w.guest.api.get(P(), { query: { updated_after: "yesterday-ish" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "updated_after is invalid" });
    const badState = await w.guest.api.get(P(), { query: { state: "opened" } });
    expect(badState.body).toEqual({ error: "state does not have a valid value" });
  });

  test("hidden from non-members and anonymous users of a private project", async () => {
    for (const client of [w.outsider.api, w.anonymous]) {
      const res = await client.get(P());
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Project Not Found" });
    }
  });
});

describe("GET /projects/:id/milestones/:milestone_id", () => {
  test("by global id; other containers' milestones are not found", async () => {
    const m = (await w.reporter.api.post(P(), { json: { title: "v1" } })).body;
    const res = await w.guest.api.get(`${P()}/${m.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(m);

    const groupMilestone = (await w.root.post(`/groups/${w.subgroup.id}/milestones`, { json: { title: "g" } })).body;
    for (const id of [String(groupMilestone.id), "999999"]) {
      const missing = await w.guest.api.get(`${P()}/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: "404 Not found" });
    }
    const invalid = await w.guest.api.get(`${P()}/abc`);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: "milestone_id is invalid" });
    expect((await w.outsider.api.get(`${P()}/${m.id}`)).body).toEqual({ message: "404 Project Not Found" });
  });
});

describe("PUT /projects/:id/milestones/:milestone_id", () => {
  let m: { id: number; iid: number; updated_at: string };
  beforeEach(async () => {
    m = (await w.reporter.api.post(P(), { json: { title: "v1", start_date: "2030-01-01", due_date: "2030-02-01" } })).body;
  });

  test("edits title, description and dates; closes and reactivates", async () => {
    const res = await w.reporter.api.put(`${P()}/${m.id}`, { json: { title: "v1.0", description: "Done soon", due_date: "2030-03-01", state_event: "close" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: m.id, iid: m.iid, title: "v1.0", description: "Done soon", due_date: "2030-03-01", start_date: "2030-01-01", state: "closed" });
    expect(res.body.updated_at >= m.updated_at).toBe(true);

    const reopened = await w.planner.api.put(`${P()}/${m.id}`, { json: { state_event: "activate", start_date: "" } });
    expect(reopened.body).toMatchObject({ state: "active", start_date: null });
    expect((await w.reporter.api.get(`${P()}/${m.id}`)).body).toMatchObject({ title: "v1.0", state: "active" });
  });

  test("validation failures", async () => {
    const nothing = await w.reporter.api.put(`${P()}/${m.id}`, { json: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.body).toEqual({ error: "title, description, start_date, due_date, state_event are missing, at least one parameter must be provided" });
    const event = await w.reporter.api.put(`${P()}/${m.id}`, { json: { state_event: "reopen" } });
    expect(event.body).toEqual({ error: "state_event does not have a valid value" });
    const order = await w.reporter.api.put(`${P()}/${m.id}`, { json: { due_date: "2029-12-31" } });
    expect(order.body).toEqual({ message: { due_date: ["must be greater than start date"] } });
    await w.reporter.api.post(P(), { json: { title: "v2" } });
    const dup = await w.reporter.api.put(`${P()}/${m.id}`, { json: { title: "v2" } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: { title: ["already being used for another group or project milestone."] } });
    // Keeping one's own title is fine.
    expect((await w.reporter.api.put(`${P()}/${m.id}`, { json: { title: "v1" } })).status).toBe(200);
  });

  test("permissions and not found", async () => {
    expect((await w.anonymous.put(`${P()}/${m.id}`, { json: { title: "x" } })).status).toBe(401);
    const guest = await w.guest.api.put(`${P()}/${m.id}`, { json: { title: "x" } });
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: "403 Forbidden" });
    // GitLab authorizes before looking the milestone up.
    expect((await w.guest.api.put(`${P()}/999999`, { json: { title: "x" } })).status).toBe(403);
    expect((await w.outsider.api.put(`${P()}/${m.id}`, { json: { title: "x" } })).body).toEqual({ message: "404 Project Not Found" });
    const unknown = await w.reporter.api.put(`${P()}/999999`, { json: { title: "x" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "404 Not found" });
  });
});

describe("DELETE /projects/:id/milestones/:milestone_id", () => {
  test("204 then gone; permissions and not found", async () => {
    const m = (await w.reporter.api.post(P(), { json: { title: "v1" } })).body;
    expect((await w.anonymous.delete(`${P()}/${m.id}`)).status).toBe(401);
    const guest = await w.guest.api.delete(`${P()}/${m.id}`);
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: "403 Forbidden" });
    expect((await w.outsider.api.delete(`${P()}/${m.id}`)).body).toEqual({ message: "404 Project Not Found" });

    const res = await w.reporter.api.delete(`${P()}/${m.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const again = await w.reporter.api.delete(`${P()}/${m.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: "404 Not found" });
    expect((await w.reporter.api.get(P())).body).toEqual([]);
  });
});

describe("group milestones", () => {
  test("CRUD by a group Reporter with group_id and group web_url", async () => {
    const created = await w.groupReporter.api.post(G(), { json: { title: "Q1", due_date: "2030-03-31" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      group_id: w.group.id,
      title: "Q1",
      description: null,
      state: "active",
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      due_date: "2030-03-31",
      start_date: null,
      expired: false,
      web_url: `${BASE}/groups/platform/-/milestones/1`,
    });
    const id = created.body.id;
    expect((await w.groupGuest.api.get(`${G()}/${id}`)).body).toEqual(created.body);
    const sub = await w.root.post(`/groups/${encodeURIComponent("platform/backend")}/milestones`, { json: { title: "Q1" } });
    expect(sub.body).toMatchObject({ iid: 1, group_id: w.subgroup.id, web_url: `${BASE}/groups/platform/backend/-/milestones/1` });

    const closed = await w.groupReporter.api.put(`${G()}/${id}`, { json: { state_event: "close" } });
    expect(closed.body).toMatchObject({ state: "closed" });
    expect(titles((await w.groupGuest.api.get(G(), { query: { state: "closed" } })).body)).toEqual(["Q1"]);
    expect((await w.groupReporter.api.delete(`${G()}/${id}`)).status).toBe(204);
    expect((await w.groupReporter.api.get(`${G()}/${id}`)).body).toEqual({ message: "404 Not found" });
  });

  test("validation: a title used by a project directly in the group is taken", async () => {
    await w.root.post(`/projects/${w.other.id}/milestones`, { json: { title: "shared" } });
    const dup = await w.root.post(G(), { json: { title: "shared" } });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}' });
    expect((await w.root.post(G(), {})).body).toEqual({ error: "title is missing" });
  });

  test("permissions: 401 anonymous, 403 Guest, 404 non-members", async () => {
    const body = { json: { title: "Q1" } };
    expect((await w.anonymous.post(G(), body)).status).toBe(401);
    expect((await w.groupGuest.api.post(G(), body)).body).toEqual({ message: "403 Forbidden" });
    expect((await w.outsider.api.post(G(), body)).body).toEqual({ message: "404 Group Not Found" });
    expect((await w.outsider.api.get(G())).body).toEqual({ message: "404 Group Not Found" });
    expect((await w.root.get("/groups/999999/milestones")).body).toEqual({ message: "404 Group Not Found" });
  });

  test("include_ancestors and include_descendants", async () => {
    await w.root.post(G(), { json: { title: "top" } });
    await w.root.post(`/groups/${w.subgroup.id}/milestones`, { json: { title: "sub" } });
    await w.root.post(P(), { json: { title: "in project" } });
    const sub = `/groups/${w.subgroup.id}/milestones`;
    expect(titles((await w.root.get(sub)).body)).toEqual(["sub"]);
    expect(titles((await w.root.get(sub, { query: { include_ancestors: true } })).body).sort()).toEqual(["sub", "top"]);
    expect(titles((await w.root.get(G(), { query: { include_descendants: true } })).body).sort()).toEqual(["in project", "sub", "top"]);
    // Only what the caller may read: the project's Reporter sees its project, not the other one's.
    await w.root.post(`/projects/${w.other.id}/milestones`, { json: { title: "other project" } });
    expect(titles((await w.reporter.api.get(G(), { query: { include_descendants: true } })).body).sort()).toEqual(["in project", "sub", "top"]);
    expect(titles((await w.groupGuest.api.get(G(), { query: { include_descendants: true } })).body).sort()).toEqual(["in project", "other project", "sub", "top"]);
  });
});

describe("bus actions for other services", () => {
  test("milestones.byIds and milestones.findForProject", async () => {
    const own = (await w.root.post(P(), { json: { title: "own" } })).body;
    const top = (await w.root.post(G(), { json: { title: "top" } })).body;
    const elsewhere = (await w.root.post(`/projects/${w.other.id}/milestones`, { json: { title: "elsewhere" } })).body;

    const byIds = (await call(app.broker, Namespaces.milestones.byIds, { ids: [own.id, top.id, 999999] })) as { id: number; web_url: string }[];
    expect(byIds.map((m) => m.id).sort()).toEqual([own.id, top.id].sort());
    expect(byIds.find((m) => m.id === top.id)).toEqual(top);

    const find = (params: object) => call(app.broker, Namespaces.milestones.findForProject, { project_id: w.project.id, ...params });
    expect(await find({ id: own.id })).toEqual(own);
    expect(await find({ id: top.id })).toEqual(top);
    expect(await find({ title: "top" })).toEqual(top);
    expect(await find({ id: elsewhere.id })).toBeNull();
    expect(await find({ title: "elsewhere" })).toBeNull();

    // Deleting a group takes its milestones and those of its projects along.
    expect((await w.root.delete(`/groups/${w.group.id}`)).status).toBe(202);
    expect((await w.root.delete(`/groups/${w.group.id}`, { query: { permanently_remove: true, full_path: w.group.full_path } })).status).toBe(202);
    expect(await call(app.broker, Namespaces.milestones.byIds, { ids: [own.id, top.id, elsewhere.id] })).toEqual([]);
  });
});

describe("deleting a milestone reaches the issues on it", () => {
  const createIssue = async (as: ApiClient, projectId: number, body: Record<string, unknown>) =>
    ok(await as.post(`/projects/${projectId}/issues`, { json: body }), 201, `issue ${String(body.title)}`).body as { id: number; iid: number; updated_at: string };
  /** iids of a list, sorted, with X-Total checked against them. */
  const iids = async (as: ApiClient, path: string, query: Record<string, string>) => {
    const res = ok(await as.get(path, { query }), 200, `GET ${path} ${JSON.stringify(query)}`);
    const list = (res.body as { iid: number }[]).map((i) => i.iid).sort((a, b) => a - b);
    expect(Number(res.headers.get("x-total"))).toBe(list.length);
    return list;
  };
  const issuesOf = (projectId: number) => `/projects/${projectId}/issues`;

  test("a project milestone: its issues lose it (updated now), and title filters find nothing, even for a new one of that title", async () => {
    const v1 = ok(await w.reporter.api.post(P(), { json: { title: "v1" } }), 201, "v1").body;
    const v2 = ok(await w.reporter.api.post(P(), { json: { title: "v2" } }), 201, "v2").body;
    const I = issuesOf(w.project.id);
    const first = await createIssue(w.reporter.api, w.project.id, { title: "On v1", milestone_id: v1.id });
    await createIssue(w.reporter.api, w.project.id, { title: "On v2", milestone_id: v2.id });
    await createIssue(w.reporter.api, w.project.id, { title: "Also on v1", milestone_id: v1.id });
    ok(await w.reporter.api.put(`${I}/3`, { json: { state_event: "close" } }), 200, "close #3");
    expect(await iids(w.reporter.api, I, { milestone: "v1" })).toEqual([1, 3]);

    const watch = await watchEvents(app, [Namespaces.events.milestoneDeleted]);
    expect((await w.reporter.api.delete(`${P()}/${v1.id}`)).status).toBe(204);

    // Open and closed issues alike lose it: the column is cleared, not just hidden.
    await eventually(async () => expect(await iids(w.reporter.api, I, { milestone: "None" })).toEqual([1, 3]));
    expect(await iids(w.reporter.api, I, { milestone: "Any" })).toEqual([2]);
    expect(await iids(w.reporter.api, I, { milestone: "v1" })).toEqual([]);
    expect(await iids(w.reporter.api, I, { "not[milestone]": "v2" })).toEqual([1, 3]);
    const shown = (await w.reporter.api.get(`${I}/1`)).body;
    expect(shown.milestone).toBeNull();
    // GitLab updates each issue (Issues::UpdateService with milestone_id: nil).
    expect(Date.parse(shown.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
    expect((await w.reporter.api.get(`${I}/2`)).body.milestone).toMatchObject({ id: v2.id, title: "v2" });
    await eventually(() => expect(watch.seen).toHaveLength(1));
    await watch.stop();
    expect(watch.seen[0].payload).toEqual({ milestoneIds: [v1.id], projectId: w.project.id, groupId: null, userId: w.reporter.id, milestones: [{ id: v1.id, iid: v1.iid, title: "v1" }] });

    // A new "v1" is another milestone: no old issue is on it.
    const again = ok(await w.reporter.api.post(P(), { json: { title: "v1" } }), 201, "v1 again").body;
    expect(again.id).not.toBe(v1.id);
    expect(await iids(w.reporter.api, I, { milestone: "v1" })).toEqual([]);

    // The same event again (a redelivery) changes nothing: it was applied once already.
    const before = (await w.reporter.api.get(`${I}/1`)).body.updated_at;
    await redeliver(app, watch.seen[0]);
    expect((await w.reporter.api.get(`${I}/1`)).body.updated_at).toBe(before);
    expect(await iids(w.reporter.api, I, { milestone: "Any" })).toEqual([2]);
  });

  test("a group milestone leaves the issues of every project below the group, subgroups' included", async () => {
    const q1 = ok(await w.root.post(G(), { json: { title: "Q1" } }), 201, "Q1").body;
    // api lives in the subgroup platform/backend, other directly in platform.
    await createIssue(w.root, w.project.id, { title: "Deep", milestone_id: q1.id });
    await createIssue(w.root, w.other.id, { title: "Shallow", milestone_id: q1.id });
    const GI = `/groups/${w.group.id}/issues`;
    expect((await w.root.get(GI, { query: { milestone: "Q1" } })).body).toHaveLength(2);

    expect((await w.root.delete(`${G()}/${q1.id}`)).status).toBe(204);

    await eventually(async () => expect((await w.root.get(GI, { query: { milestone: "None" } })).headers.get("x-total")).toBe("2"));
    expect((await w.root.get(GI, { query: { milestone: "Any" } })).body).toEqual([]);
    expect((await w.root.get(GI, { query: { milestone: "Q1" } })).body).toEqual([]);
    for (const projectId of [w.project.id, w.other.id]) expect((await w.root.get(`${issuesOf(projectId)}/1`)).body.milestone).toBeNull();
  });
});

test("@gitbeaker/rest drives project and group milestones", async () => {
  const api = new Gitlab({ host: app.url, token: w.reporter.token });
  const admin = new Gitlab({ host: app.url, token: app.rootToken });

  const created = await api.ProjectMilestones.create(w.project.id, "v1.0", { description: "First", dueDate: "2030-01-31", startDate: "2030-01-01" });
  expect(created).toMatchObject({ iid: 1, title: "v1.0", project_id: w.project.id, due_date: "2030-01-31", start_date: "2030-01-01", state: "active" });
  const shown = await api.ProjectMilestones.show(w.project.id, created.id);
  expect(shown.web_url).toBe(`${BASE}/platform/backend/api/-/milestones/1`);
  const edited = await api.ProjectMilestones.edit(w.project.id, created.id, { stateEvent: "close", title: "v1.0.0" });
  expect(edited).toMatchObject({ title: "v1.0.0", state: "closed" });
  expect((await api.ProjectMilestones.all(w.project.id, { state: "closed" })).map((m) => m.title)).toEqual(["v1.0.0"]);
  await api.ProjectMilestones.remove(w.project.id, created.id);
  expect(await api.ProjectMilestones.all(w.project.id)).toEqual([]);

  const group = await admin.GroupMilestones.create(w.group.id, "Q1");
  expect(group).toMatchObject({ iid: 1, group_id: w.group.id });
  expect((await admin.GroupMilestones.all(w.group.id)).map((m) => m.title)).toEqual(["Q1"]);
  expect((await api.ProjectMilestones.all(w.project.id, { includeParentMilestones: true })).map((m) => m.title)).toEqual(["Q1"]);
});
