import { addMember, apiClient, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * An issue's participants (GET …/issues/:issue_iid/participants): its author, assignees, the
 * authors of the notes the caller may see and the users @mentioned, once each, only those who
 * may read the issue, as UserBasic.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("issue-participants");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const usernames = (users: { username: string }[]) => users.map((u) => u.username);

test("author, assignees, note authors and mentions, as the caller may see them", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const [bob, carol, dave, erin, gina] = await Promise.all(["bob", "carol", "dave", "erin", "gina"].map((u) => createGitbeakerUser(app, u)));
  await createUser(app, "frank"); // exists, but cannot read the project
  const project = await alice.gl.Projects.create({ name: "app", visibility: "private" });
  await Promise.all([
    addMember(app, "projects", project.id, bob.id, 30),
    addMember(app, "projects", project.id, carol.id, 20),
    addMember(app, "projects", project.id, dave.id, 10),
    addMember(app, "projects", project.id, erin.id, 10),
    addMember(app, "projects", project.id, gina.id, 20),
  ]);
  const issue = await alice.gl.Issues.create(project.id, "Checkout fails", { description: "seen by @dave and @frank, not `@erin` nor erin@example.com", assigneeIds: [bob.id] });
  await carol.gl.IssueNotes.create(project.id, issue.iid, "me too, cc @erin");
  await gina.gl.IssueNotes.create(project.id, issue.iid, "customer data", { internal: true });
  await carol.gl.IssueNotes.create(project.id, issue.iid, "again @Erin @nobody");

  const participants = await carol.gl.Issues.allParticipants(project.id, issue.iid);
  expect(usernames(participants)).toEqual(["alice", "bob", "carol", "gina", "dave", "erin"]);
  expect(participants[0]).toEqual({ id: alice.id, username: "alice", name: "Alice", state: "active", locked: false, avatar_url: null, web_url: expect.stringMatching(/\/alice$/) });
  // A Guest does not see the internal note, nor so its author.
  expect(usernames(await dave.gl.Issues.allParticipants(project.id, issue.iid))).toEqual(["alice", "bob", "carol", "dave", "erin"]);

  // Confidential: Guests who are neither its author nor an assignee may not read it, so do not take part.
  await alice.gl.Issues.edit(project.id, issue.iid, { confidential: true });
  expect(usernames(await carol.gl.Issues.allParticipants(project.id, issue.iid))).toEqual(["alice", "bob", "carol", "gina"]);
  expect((await apiClient(app.url, dave.token).get(`/projects/${project.id}/issues/${issue.iid}/participants`))).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  expect((await apiClient(app.url, carol.token).get(`/projects/${project.id}/issues/999/participants`))).toMatchObject({ status: 404, body: { message: "404 Not found" } });
});

test("who may list them, on a private and a public project", async () => {
  const owner = await createUser(app, "owner");
  const outsider = await createUser(app, "outsider");
  const guest = await createUser(app, "guest");
  const anonymous = apiClient(app.url);
  for (const visibility of ["private", "public"] as const) {
    const project = (await owner.api.post("/projects", { json: { name: `${visibility} app`, visibility } })).body;
    await addMember(app, "projects", project.id, guest.id, 10);
    const issue = (await owner.api.post(`/projects/${project.id}/issues`, { json: { title: "bug" } })).body;
    const path = `/projects/${project.id}/issues/${issue.iid}/participants`;
    const seen = async (as: ApiClient) => {
      const res = await as.get(path);
      return res.status === 200 ? usernames(res.body) : `${res.status} ${res.body.message}`;
    };
    const table = { anonymous: await seen(anonymous), outsider: await seen(outsider.api), guest: await seen(guest.api), root: await seen(root) };
    expect([visibility, table]).toEqual([
      visibility,
      visibility === "private"
        ? { anonymous: "404 404 Project Not Found", outsider: "404 404 Project Not Found", guest: ["owner"], root: ["owner"] }
        : { anonymous: ["owner"], outsider: ["owner"], guest: ["owner"], root: ["owner"] },
    ]);
  }
});
