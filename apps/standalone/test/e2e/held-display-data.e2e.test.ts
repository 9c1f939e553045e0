import { addMember, apiClient, assertStatus as ok, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Users as issues and merge requests show them (author, assignees, note authors) are accounts'
 * display data, labels and milestones namespaces'; those services hold them once asked and empty
 * them when they apply the owner's durable events. A renamed, blocked or reactivated user, a
 * renamed or recoloured label, a retitled or closed milestone shows as it is now within the time
 * the event takes to arrive, which each test measures (in-process and over NATS alike).
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("held-display-data");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** Polls `read` until `expected` holds; answers the milliseconds it took (fails after 10 s). */
async function millisUntil(read: () => Promise<unknown>, expected: unknown): Promise<number> {
  const started = Date.now();
  for (;;) {
    const seen = await read();
    if (JSON.stringify(seen) === JSON.stringify(expected)) return Date.now() - started;
    if (Date.now() - started > 10_000) expect(seen).toEqual(expected);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function issueAndMergeRequestBy(username: string) {
  const author = await createUser(app, username);
  const project = await createProject(root, { name: `p-${username}` });
  await addMember(app, "projects", project.id, author.id, 30);
  const issue = ok(await author.api.post(`/projects/${project.id}/issues`, { json: { title: "Shown by", assignee_ids: [author.id] } }), 201, "issue").body;
  ok(await author.api.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { json: { body: "hello" } }), 201, "note");
  return { author, project, issue };
}

test("a renamed user shows the new name in another service's lists once the event arrives", async () => {
  const { author, project, issue } = await issueAndMergeRequestBy("alice");
  const shown = async () => {
    const [issues, notes] = await Promise.all([root.get(`/projects/${project.id}/issues`), root.get(`/projects/${project.id}/issues/${issue.iid}/notes`)]);
    return [issues.body[0].author.name, issues.body[0].assignees[0].name, notes.body[0].author.name];
  };
  expect(await shown()).toEqual(["alice", "alice", "alice"]); // now held
  ok(await root.put(`/users/${author.id}`, { json: { name: "Alice Renamed" } }), 200, "rename");
  const ms = await millisUntil(shown, ["Alice Renamed", "Alice Renamed", "Alice Renamed"]);
  console.info(`user rename reached the issues lists in ${ms} ms`);
  expect(ms).toBeLessThan(10_000);
});

test("a blocked user shows as blocked, and as active again once unblocked", async () => {
  const { author, project } = await issueAndMergeRequestBy("bob");
  const state = async () => (await root.get(`/projects/${project.id}/issues`)).body[0].author.state;
  expect(await state()).toBe("active");
  ok(await root.post(`/users/${author.id}/block`), 201, "block");
  console.info(`user block reached the issues list in ${await millisUntil(state, "blocked")} ms`);
  ok(await root.post(`/users/${author.id}/unblock`), 201, "unblock");
  await millisUntil(state, "active");
});

test("a renamed label and a retitled milestone show as they are now once the events arrive", async () => {
  const { author, project } = await issueAndMergeRequestBy("carol");
  const label = ok(await root.post(`/projects/${project.id}/labels`, { json: { name: "bug", color: "#ff0000" } }), 201, "label").body;
  const milestone = ok(await root.post(`/projects/${project.id}/milestones`, { json: { title: "v1" } }), 201, "milestone").body;
  ok(await author.api.post(`/projects/${project.id}/issues`, { json: { title: "Labelled", labels: "bug", milestone_id: milestone.id } }), 201, "issue");
  const shown = async () => {
    const [issue] = (await root.get(`/projects/${project.id}/issues`, { query: { labels: "Any", with_labels_details: true } })).body;
    return [issue?.labels[0]?.name, issue?.labels[0]?.color, issue?.milestone?.title, issue?.milestone?.state];
  };
  expect(await shown()).toEqual(["bug", "#ff0000", "v1", "active"]); // now held
  ok(await root.put(`/projects/${project.id}/labels/${label.id}`, { json: { new_name: "defect", color: "#00ff00" } }), 200, "label update");
  console.info(`label rename reached the issues list in ${await millisUntil(shown, ["defect", "#00ff00", "v1", "active"])} ms`);
  ok(await root.put(`/projects/${project.id}/milestones/${milestone.id}`, { json: { title: "v1.0" } }), 200, "milestone update");
  console.info(`milestone retitle reached the issues list in ${await millisUntil(shown, ["defect", "#00ff00", "v1.0", "active"])} ms`);
  ok(await root.put(`/projects/${project.id}/milestones/${milestone.id}`, { json: { state_event: "close" } }), 200, "milestone close");
  await millisUntil(shown, ["defect", "#00ff00", "v1.0", "closed"]);
});
