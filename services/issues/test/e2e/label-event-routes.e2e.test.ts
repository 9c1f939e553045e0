import { apiClient, assertStatus as ok, createGroup, createProject, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Every route that changes an issue's, merge request's or epic's labels records exactly one label
 * event per label it actually adds or removes (in the change's transaction), and nothing for a
 * label already there or never there. Moves and clones with notes carry the original's events
 * over (GitLab's CopyResourceEventsService) instead of recording new ones.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("label-event-routes");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** "add a", "remove b" … of a resource's label events, oldest first. */
async function labelEvents(path: string): Promise<string[]> {
  const res = ok(await root.get(`${path}/resource_label_events`, { query: { per_page: 100 } }), 200, `events of ${path}`);
  return res.body.map((e: { action: string; label: { name: string } }) => `${e.action} ${e.label.name}`);
}

/** A change to an existing resource: its events before, then the change. */
async function change(path: string, write: () => Promise<unknown>) {
  const before = await labelEvents(path);
  await write();
  return { path, before };
}

test("each route records one label event per changed label", async () => {
  const group = await createGroup(root, "Team", "team", { visibility: "private" });
  const G = `/groups/${group.id}`;
  for (const name of ["a", "b", "c", "d", "unused"]) ok(await root.post(`${G}/labels`, { json: { name, color: "#428bca" } }), 201, name);
  const project = await createProject(root, { name: "api", namespace_id: group.id, initialize_with_readme: true });
  const other = await createProject(root, { name: "web", namespace_id: group.id });
  const P = `/projects/${project.id}`;
  ok(await root.post(`${P}/repository/branches`, { json: { branch: "feature", ref: "main" } }), 201, "branch");
  const issue = `${P}/issues/1`;
  const mr = `${P}/merge_requests/1`;
  let epic = "";
  const put = async (path: string, json: Record<string, unknown>) => ok(await root.put(path, { json }), 200, `PUT ${path}`);

  const rows: [route: string, act: () => Promise<{ path: string; before?: string[] }>, expected: string[]][] = [
    ["POST issue with labels", async () => (ok(await root.post(`${P}/issues`, { json: { title: "T", labels: "a,b" } }), 201, "issue"), { path: issue }), ["add a", "add b"]],
    ["PUT issue labels", () => change(issue, () => put(issue, { labels: "b,c" })), ["add c", "remove a"]],
    ["PUT issue labels unchanged", () => change(issue, () => put(issue, { labels: "c,b" })), []],
    ["PUT issue add_labels", () => change(issue, () => put(issue, { add_labels: "b,d" })), ["add d"]],
    ["PUT issue remove_labels", () => change(issue, () => put(issue, { remove_labels: "d,unused" })), ["remove d"]],
    ["PUT issue add and remove", () => change(issue, () => put(issue, { add_labels: "a", remove_labels: "b" })), ["add a", "remove b"]],
    [
      "POST issue clone without notes",
      async () => ({ path: `/projects/${other.id}/issues/${ok(await root.post(`${issue}/clone`, { json: { to_project_id: other.id } }), 201, "clone").body.iid}` }),
      [],
    ],
    [
      "POST issue clone with notes",
      async () => ({ path: `/projects/${other.id}/issues/${ok(await root.post(`${issue}/clone`, { json: { to_project_id: other.id, with_notes: true } }), 201, "clone").body.iid}` }),
      ["add a", "add b", "add c", "remove a", "add d", "remove d", "add a", "remove b"],
    ],
    [
      "POST issue move",
      async () => ({ path: `/projects/${other.id}/issues/${ok(await root.post(`${issue}/move`, { json: { to_project_id: other.id } }), 201, "move").body.iid}` }),
      ["add a", "add b", "add c", "remove a", "add d", "remove d", "add a", "remove b"],
    ],
    [
      "POST merge request with labels",
      async () => (ok(await root.post(`${P}/merge_requests`, { json: { title: "MR", source_branch: "feature", target_branch: "main", labels: "a,b" } }), 201, "mr"), { path: mr }),
      ["add a", "add b"],
    ],
    ["PUT merge request labels", () => change(mr, () => put(mr, { labels: "a,c" })), ["add c", "remove b"]],
    ["PUT merge request add_labels", () => change(mr, () => put(mr, { add_labels: "a,d" })), ["add d"]],
    ["PUT merge request remove_labels", () => change(mr, () => put(mr, { remove_labels: "d,unused" })), ["remove d"]],
    [
      "POST epic with labels",
      async () => {
        const created = ok(await root.post(`${G}/epics`, { json: { title: "E", labels: "a,b" } }), 201, "epic").body;
        epic = `${G}/epics/${created.id}`;
        return { path: epic };
      },
      ["add a", "add b"],
    ],
    ["PUT epic labels", () => change(epic, () => put(`${G}/epics/1`, { labels: "b,c" })), ["add c", "remove a"]],
    ["PUT epic add_labels", () => change(epic, () => put(`${G}/epics/1`, { add_labels: "c,d" })), ["add d"]],
    ["PUT epic remove_labels", () => change(epic, () => put(`${G}/epics/1`, { remove_labels: "d,unused" })), ["remove d"]],
  ];

  const outcomes: Record<string, string[]> = {};
  const expected: Record<string, string[]> = {};
  for (const [route, act, wanted] of rows) {
    const { path, before = [] } = await act();
    const after = await labelEvents(path);
    // The events are appended: what was there stays as it was.
    expect(after.slice(0, before.length)).toEqual(before);
    outcomes[route] = after.slice(before.length);
    expected[route] = wanted;
  }
  expect(outcomes).toEqual(expected);
});

test("a label change refused by validation records nothing", async () => {
  const project = await createProject(root, { name: "api" });
  const P = `/projects/${project.id}`;
  ok(await root.post(`${P}/issues`, { json: { title: "T" } }), 201, "issue");
  const refused = await root.put(`${P}/issues/1`, { json: { add_labels: "a", title: "" } });
  expect(refused.status).toBe(400);
  expect(await labelEvents(`${P}/issues/1`)).toEqual([]);
  expect(ok(await root.get(`${P}/issues/1`), 200, "issue").body.labels).toEqual([]);
});
