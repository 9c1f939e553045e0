import { addMember, apiClient, assertStatus as ok, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Users as issues and merge requests show them (author, assignees, note authors) are accounts'
 * display data, held by those services once asked and emptied when they apply accounts' durable
 * user events. A renamed, blocked or reactivated user shows as they are now within the time the
 * event takes to arrive, which each test measures (in-process and over NATS alike).
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("held-user-refs");
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
