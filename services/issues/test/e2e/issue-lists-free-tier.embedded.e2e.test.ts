import { addMember, apiClient, assertStatus as ok, createProject, createUserAccount, type ApiClient, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";

/**
 * Issues on the Free tier (GitLab's community edition): one assignee, a single assignee_username
 * filter value, and none of the Premium / Ultimate fields or filters. The tier is read from
 * LICENSE_TIER when the services are created, so this file boots its own app.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startAppOnTier("issue-lists-free-tier", "free");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

async function seed() {
  const project = await createProject(root, { name: "api", visibility: "private" });
  const [alice, bob] = await Promise.all(["alice", "bob"].map((username) => createUserAccount(app, username)));
  for (const u of [alice, bob]) await addMember(app, "projects", project.id, u.id, 30);
  const P = `/projects/${project.id}/issues`;
  const first = ok(await root.post(P, { json: { title: "Both assigned", assignee_ids: [alice.id, bob.id], weight: 3, health_status: "at_risk" } }), 201, "issue").body;
  ok(await root.post(P, { json: { title: "Bob's", assignee_ids: [bob.id] } }), 201, "issue");
  return { project, alice, bob, P, first };
}

test("issues carry one assignee and no Premium or Ultimate fields", async () => {
  const { first, alice } = await seed();
  // Only the first assignee is kept; weight and health_status are not part of the edition.
  expect(first.assignees.map((u: { id: number }) => u.id)).toEqual([alice.id]);
  expect(first.assignee).toMatchObject({ id: alice.id });
  for (const key of ["weight", "epic", "epic_iid", "iteration", "health_status", "blocking_issues_count"]) expect([key, key in first]).toEqual([key, false]);
  expect(first).toMatchObject({ iid: 1, has_tasks: true, task_status: "0 of 0 checklist items completed" });
});

test("assignee_username accepts a single value, also inside not[...]", async () => {
  const { P } = await seed();
  const two = await root.get(P, { query: { assignee_username: ["alice", "bob"] } });
  expect([two.status, two.body]).toEqual([400, { error: "assignee_username allows one value, but found 2: alice, bob" }]);
  const notTwo = await root.get(P, { query: { "not[assignee_username][]": ["alice", "bob"] } });
  expect([notTwo.status, notTwo.body]).toEqual([400, { error: "not[assignee_username] allows one value, but found 2: alice, bob" }]);
  expect((await apiClient(app.url, app.rootToken).get("/issues", { query: { scope: "all", assignee_username: ["alice", "bob"] } })).status).toBe(400);

  const one = await root.get(P, { query: { assignee_username: ["bob"] } });
  expect(one.body.map((i: { iid: number }) => i.iid)).toEqual([2]);
  expect((await root.get(P, { query: { "not[assignee_username]": "alice" } })).body.map((i: { iid: number }) => i.iid)).toEqual([2]);
});

test("Premium filters are ignored and order_by=weight is unknown", async () => {
  const { P } = await seed();
  const iids = async (query: Record<string, string>) => (await root.get(P, { query })).body.map((i: { iid: number }) => i.iid);
  expect(await iids({ weight: "Any" })).toEqual([2, 1]);
  expect(await iids({ weight: "5" })).toEqual([2, 1]);
  expect(await iids({ health_status: "on_track" })).toEqual([2, 1]);
  expect(await iids({ epic_id: "Any", iteration_id: "Any" })).toEqual([2, 1]);
  expect(await iids({ "not[weight]": "None" })).toEqual([2, 1]);
  const byWeight = await root.get(P, { query: { order_by: "weight" } });
  expect([byWeight.status, byWeight.body]).toEqual([400, { error: "order_by does not have a valid value" }]);
});

test("issue links relate only: blocks and is_blocked_by are Premium", async () => {
  const { P, first } = await seed();
  const second = ok(await root.post(P, { json: { title: "Other" } }), 201, "issue").body;
  const link = (link_type?: string) => root.post(`${P}/${first.iid}/links`, { json: { target_project_id: first.project_id, target_issue_iid: second.iid, link_type } });
  for (const type of ["blocks", "is_blocked_by"]) expect(await link(type)).toMatchObject({ status: 400, body: { error: "link_type does not have a valid value" } });
  expect(await link()).toMatchObject({ status: 201, body: { link_type: "relates_to" } });
  const listed = ok(await root.get(`${P}/${second.iid}/links`), 200, "links").body;
  expect(listed.map((i: { iid: number; link_type: string }) => [i.iid, i.link_type])).toEqual([[first.iid, "relates_to"]]);
  expect("blocking_issues_count" in listed[0]).toBe(false);
});
