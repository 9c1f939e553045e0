import { addMember, apiClient, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * A merge request's participants (GET …/merge_requests/:merge_request_iid/participants): its
 * author, assignees and reviewers, the authors of the notes the caller may see and the users
 * @mentioned, once each, only those who may read its merge requests; a page, as GitLab answers.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("merge-request-participants");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const usernames = (users: { username: string }[]) => users.map((u) => u.username);

test("author, assignees, reviewers, note authors and mentions, paged", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const [bob, carol, dave, erin] = await Promise.all(["bob", "carol", "dave", "erin"].map((u) => createGitbeakerUser(app, u)));
  const project = await alice.gl.Projects.create({ name: "app", visibility: "private", initializeWithReadme: true });
  await Promise.all([
    addMember(app, "projects", project.id, bob.id, 30),
    addMember(app, "projects", project.id, carol.id, 30),
    addMember(app, "projects", project.id, dave.id, 20),
    addMember(app, "projects", project.id, erin.id, 10),
  ]);
  await bob.gl.Branches.create(project.id, "fix", "main");
  await bob.gl.Commits.create(project.id, "fix", "Fix", [{ action: "update", filePath: "README.md", content: "fixed" }]);
  const mr = await bob.gl.MergeRequests.create(project.id, "fix", "main", "Fix totals", { description: "for @erin", assigneeIds: [alice.id], reviewerIds: [carol.id] });
  await dave.gl.MergeRequestNotes.create(project.id, mr.iid, "looks fine @carol");

  expect(usernames(await dave.gl.MergeRequests.allParticipants(project.id, mr.iid))).toEqual(["bob", "alice", "carol", "dave"]);
  const raw = apiClient(app.url, dave.token);
  const second = await raw.get(`/projects/${project.id}/merge_requests/${mr.iid}/participants?per_page=2&page=2`);
  expect(second.status).toBe(200);
  expect(usernames(second.body)).toEqual(["carol", "dave"]);
  expect(second.headers.get("x-total")).toBe("4");
  expect(second.body[0]).toEqual({ id: carol.id, username: "carol", name: "Carol", state: "active", locked: false, avatar_url: null, web_url: expect.stringMatching(/\/carol$/) });

  // erin (Guest) cannot read a private project's merge requests: she neither takes part nor may list them.
  expect(await apiClient(app.url, erin.token).get(`/projects/${project.id}/merge_requests/${mr.iid}/participants`)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
  expect(await raw.get(`/projects/${project.id}/merge_requests/99/participants`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });

  // Public: anonymous callers and outsiders see them too, and erin now takes part.
  await alice.gl.Projects.edit(project.id, { visibility: "public" });
  const outsider = await createUser(app, "outsider");
  expect(usernames((await apiClient(app.url).get(`/projects/${project.id}/merge_requests/${mr.iid}/participants`)).body)).toEqual(["bob", "alice", "carol", "dave", "erin"]);
  expect(usernames((await outsider.api.get(`/projects/${project.id}/merge_requests/${mr.iid}/participants`)).body)).toEqual(["bob", "alice", "carol", "dave", "erin"]);
  expect((await root.get(`/projects/${project.id}/merge_requests/${mr.iid}/participants`)).status).toBe(200);
});
