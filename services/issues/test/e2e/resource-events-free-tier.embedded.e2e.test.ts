import { apiClient, assertStatus as ok, createProject, type ApiClient, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";

/**
 * On the Free tier (GitLab CE) label and milestone events are recorded and read as on any tier;
 * weight and iteration events (Premium) have no routes, and epics none at all.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startAppOnTier("resource-events-free-tier", "free");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

test("label and milestone events on the free tier; weight, iteration and epic events are unknown routes", async () => {
  const project = await createProject(root, { name: "billing" });
  const P = `/projects/${project.id}`;
  const milestone = ok(await root.post(`${P}/milestones`, { json: { title: "v1" } }), 201, "milestone").body;
  // weight is not a Free tier param: ignored, nothing recorded for it.
  ok(await root.post(`${P}/issues`, { json: { title: "A", labels: "bug", milestone_id: milestone.id, weight: 3 } }), 201, "issue");
  const I = `${P}/issues/1`;
  expect(ok(await root.get(`${I}/resource_label_events`), 200, "labels").body.map((e: { action: string; label: { name: string } }) => `${e.action} ${e.label.name}`)).toEqual(["add bug"]);
  expect(ok(await root.get(`${I}/resource_milestone_events`), 200, "milestones").body.map((e: { action: string; milestone: { title: string } }) => `${e.action} ${e.milestone.title}`)).toEqual(["add v1"]);

  const notFound = [404, { error: "404 Not Found" }];
  const answer = async (path: string) => root.get(path).then((r) => [r.status, r.body]);
  for (const family of ["weight", "iteration"]) {
    expect(await answer(`${I}/resource_${family}_events`)).toEqual(notFound);
    expect(await answer(`${I}/resource_${family}_events/1`)).toEqual(notFound);
  }
  const group = ok(await root.post("/groups", { json: { name: "Team", path: "team" } }), 201, "group").body;
  expect(await answer(`/groups/${group.id}/epics/1/resource_label_events`)).toEqual(notFound);
});
