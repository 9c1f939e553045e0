import { addMember, apiClient, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Issue statistics (GET /issues_statistics, a group's, a project's): the counts by state of what
 * the issue list would show with the same filters, and only what the caller may read.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("issues-statistics");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const counts = (all: number, closed: number, opened: number) => ({ statistics: { counts: { all, closed, opened } } });

test("counts by state with the issue list's filters, on every route", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const bob = await createGitbeakerUser(app, "bob");
  const group = await alice.gl.Groups.create("Shop", "shop", { visibility: "private" });
  const web = await alice.gl.Projects.create({ name: "web", namespaceId: group.id });
  const api = await alice.gl.Projects.create({ name: "api", namespaceId: group.id });
  await alice.gl.ProjectMembers.add(web.id, 30, { userId: bob.id });
  const milestone = await alice.gl.ProjectMilestones.create(web.id, "v1");

  const a = await alice.gl.Issues.create(web.id, "Cart total wrong", { labels: "bug", milestoneId: milestone.id, assigneeIds: [bob.id] });
  await alice.gl.Issues.create(web.id, "Checkout button", { labels: "feature", description: "a cart button" });
  const c = await bob.gl.Issues.create(web.id, "Crash on login", { labels: "bug" });
  await alice.gl.Issues.create(api.id, "Rate limits");
  await alice.gl.Issues.edit(web.id, a.iid, { stateEvent: "close" });
  await alice.gl.Issues.edit(web.id, c.iid, { stateEvent: "close" });

  // A project's, with its filters (the list's).
  const stats = (o: Record<string, unknown> = {}) => alice.gl.IssuesStatistics.all({ projectId: web.id, ...o });
  expect(await stats()).toEqual(counts(3, 2, 1));
  expect(await stats({ labels: "bug" })).toEqual(counts(2, 2, 0));
  expect(await stats({ milestone: "v1" })).toEqual(counts(1, 1, 0));
  expect(await stats({ authorId: bob.id })).toEqual(counts(1, 1, 0));
  expect(await stats({ assigneeId: bob.id })).toEqual(counts(1, 1, 0));
  expect(await stats({ search: "cart" })).toEqual(counts(2, 1, 1));
  expect(await stats({ search: "cart", in: "title" })).toEqual(counts(1, 1, 0));
  expect(await stats({ iids: [a.iid, c.iid] })).toEqual(counts(2, 2, 0));
  expect(await stats({ not: { labels: ["bug"] } })).toEqual(counts(1, 0, 1));
  expect(await stats({ createdAfter: "2999-01-01T00:00:00Z" })).toEqual(counts(0, 0, 0));
  expect(await stats({ scope: "created_by_me" })).toEqual(counts(2, 1, 1));
  // The list agrees with the counts it stands for.
  expect((await alice.gl.Issues.all({ projectId: web.id, labels: "bug", state: "closed" })).length).toBe(2);

  // A group's (its projects), and the caller's own across projects (created_by_me by default).
  expect(await alice.gl.IssuesStatistics.all({ groupId: group.id })).toEqual(counts(4, 2, 2));
  expect(await alice.gl.IssuesStatistics.all({ groupId: group.id, labels: "bug" })).toEqual(counts(2, 2, 0));
  expect(await bob.gl.IssuesStatistics.all({ groupId: group.id })).toEqual(counts(3, 2, 1));
  expect(await bob.gl.IssuesStatistics.all()).toEqual(counts(1, 1, 0));
  expect(await bob.gl.IssuesStatistics.all({ scope: "assigned_to_me" })).toEqual(counts(1, 1, 0));
  expect(await bob.gl.IssuesStatistics.all({ scope: "all" })).toEqual(counts(3, 2, 1));
  expect(await alice.gl.IssuesStatistics.all()).toEqual(counts(3, 1, 2));

  // Bad filters are the list's 400s.
  const raw = apiClient(app.url, alice.token);
  expect(await raw.get(`/projects/${web.id}/issues_statistics?confidential=maybe`)).toMatchObject({ status: 400, body: { error: "confidential is invalid" } });
  expect(await raw.get(`/projects/${web.id}/issues_statistics?author_id=1&author_username=bob`)).toMatchObject({ status: 400 });
  expect(await raw.get(`/issues_statistics?scope=everything`)).toMatchObject({ status: 400, body: { error: "scope does not have a valid value" } });
  expect(await failureStatus(alice.gl.IssuesStatistics.all({ groupId: 999999 }))).toBe(404);
});

test("anonymous callers, outsiders and members see the counts of what they may read", async () => {
  const alice = await createUser(app, "alice");
  const outsider = await createUser(app, "outsider");
  const guest = await createUser(app, "guest");
  const reporter = await createUser(app, "reporter");
  const anonymous = apiClient(app.url);
  const table = async (path: string) =>
    Object.fromEntries(
      await Promise.all(
        ([["anonymous", anonymous], ["outsider", outsider.api], ["guest", guest.api], ["reporter", reporter.api]] as const).map(async ([role, as]) => {
          const res = await as.get(path);
          return [role, res.status === 200 ? res.body.statistics.counts.all : `${res.status} ${res.body.message ?? res.body.error}`];
        }),
      ),
    );

  for (const visibility of ["private", "public"] as const) {
    const project = (await alice.api.post("/projects", { json: { name: `${visibility} app`, visibility } })).body;
    await addMember(app, "projects", project.id, guest.id, 10);
    await addMember(app, "projects", project.id, reporter.id, 20);
    await alice.api.post(`/projects/${project.id}/issues`, { json: { title: "open" } });
    await alice.api.post(`/projects/${project.id}/issues`, { json: { title: "secret", confidential: true } });
    const want =
      visibility === "private"
        ? { anonymous: "404 404 Project Not Found", outsider: "404 404 Project Not Found", guest: 1, reporter: 2 }
        : { anonymous: 1, outsider: 1, guest: 1, reporter: 2 };
    expect([visibility, await table(`/projects/${project.id}/issues_statistics`)]).toEqual([visibility, want]);
  }
  // Across projects: anonymous only with scope=all, and then public issues alone.
  expect(await anonymous.get("/issues_statistics")).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
  expect((await anonymous.get("/issues_statistics?scope=all")).body).toEqual(counts(1, 0, 1));
  expect((await reporter.api.get("/issues_statistics?scope=all")).body).toEqual(counts(4, 0, 4));
  expect((await root.get("/issues_statistics?scope=all&confidential=true")).body).toEqual(counts(2, 0, 2));
});
