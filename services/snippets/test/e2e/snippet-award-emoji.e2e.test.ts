import { addMember, apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Emoji reactions on project snippets (ProjectSnippetAwardEmojis) and on their comments (no
 * gitbeaker class: plain requests): the implementation issues and merge requests share. Snippets
 * keep no vote counts.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("snippet-award-emoji");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

test("reactions on a project snippet and its comments, and who may give them", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const bob = await createGitbeakerUser(app, "bob");
  const outsider = await createGitbeakerUser(app, "outsider");
  const project = await alice.gl.Projects.create({ name: "Docs", visibility: "public" });
  await alice.gl.ProjectMembers.add(project.id, 10, { userId: bob.id });
  const snippet = await alice.gl.ProjectSnippets.create(project.id, "Setup", { visibility: "public", fileName: "setup.md", content: "npm ci" } as never);
  const hidden = await alice.gl.ProjectSnippets.create(project.id, "Keys", { visibility: "private", fileName: "k", content: "secret" } as never);

  const award = await bob.gl.ProjectSnippetAwardEmojis.award(project.id, snippet.id, "rocket");
  expect(award).toMatchObject({ name: "rocket", awardable_id: snippet.id, awardable_type: "Snippet", user: { username: "bob" }, url: null });
  expect(await outsider.gl.ProjectSnippetAwardEmojis.award(project.id, snippet.id, "thumbsup")).toMatchObject({ name: "thumbsup" });
  expect(await failureStatus(bob.gl.ProjectSnippetAwardEmojis.award(project.id, snippet.id, "rocket"))).toBe(404);
  expect((await alice.gl.ProjectSnippetAwardEmojis.all(project.id, snippet.id)).map((a) => [a.name, a.user.username])).toEqual([
    ["rocket", "bob"],
    ["thumbsup", "outsider"],
  ]);
  expect(await alice.gl.ProjectSnippetAwardEmojis.show(project.id, snippet.id, award.id)).toEqual(award);
  const anonymous = apiClient(app.url);
  expect((await anonymous.get(`/projects/${project.id}/snippets/${snippet.id}/award_emoji`)).status).toBe(200);
  expect((await anonymous.post(`/projects/${project.id}/snippets/${snippet.id}/award_emoji`, { json: { name: "eyes" } })).status).toBe(404);

  // A private snippet hides its reactions from those who cannot read it.
  await bob.gl.ProjectSnippetAwardEmojis.award(project.id, hidden.id, "eyes");
  expect(await failureStatus(outsider.gl.ProjectSnippetAwardEmojis.all(project.id, hidden.id))).toBe(404);
  expect(await failureStatus(outsider.gl.ProjectSnippetAwardEmojis.award(project.id, hidden.id, "eyes"))).toBe(404);
  // An award is found only under its own snippet.
  expect(await failureStatus(alice.gl.ProjectSnippetAwardEmojis.show(project.id, hidden.id, award.id))).toBe(404);

  expect(await failureStatus(alice.gl.ProjectSnippetAwardEmojis.remove(project.id, snippet.id, award.id))).toBe(401);
  await bob.gl.ProjectSnippetAwardEmojis.remove(project.id, snippet.id, award.id);
  expect((await alice.gl.ProjectSnippetAwardEmojis.all(project.id, snippet.id)).map((a) => a.name)).toEqual(["thumbsup"]);

  // Comments.
  const note = await alice.gl.ProjectSnippetNotes.create(project.id, snippet.id, "Needs Node 20");
  const N = `/projects/${project.id}/snippets/${snippet.id}/notes/${note.id}/award_emoji`;
  const onNote = await bob.api.post(N, { json: { name: "100" } });
  expect(onNote).toMatchObject({ status: 201, body: { name: "100", awardable_id: note.id, awardable_type: "Note", user: { username: "bob" } } });
  expect((await bob.api.post(N, { json: { name: "100" } })).body).toEqual({ message: "404 Award Emoji Name has already been taken Not Found" });
  expect((await anonymous.get(N)).body).toEqual([onNote.body]);
  expect((await alice.api.get(`${N}/${onNote.body.id}`)).body).toEqual(onNote.body);
  expect((await alice.api.delete(`${N}/${onNote.body.id}`)).status).toBe(401);
  expect((await bob.api.delete(`${N}/${onNote.body.id}`)).status).toBe(204);
  expect((await alice.api.get(N)).body).toEqual([]);

  // Deleting the snippet takes its reactions and those of its comments.
  await bob.api.post(N, { json: { name: "eyes" } });
  expect((await root.delete(`/projects/${project.id}/snippets/${snippet.id}`)).status).toBe(204);
  expect((await root.get(`/projects/${project.id}/snippets/${snippet.id}/award_emoji`)).status).toBe(404);
});

test("a private project's snippet reactions are hidden from non-members", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const guest = await createGitbeakerUser(app, "guest");
  const outsider = await createGitbeakerUser(app, "outsider");
  const project = await alice.gl.Projects.create({ name: "Inner", visibility: "private" });
  await addMember(app, "projects", project.id, guest.id, 10);
  const snippet = await alice.gl.ProjectSnippets.create(project.id, "Notes", { visibility: "private", fileName: "n.md", content: "x" } as never);
  const P = `/projects/${project.id}/snippets/${snippet.id}/award_emoji`;
  expect((await apiClient(app.url).get(P)).status).toBe(404);
  expect((await outsider.api.get(P)).status).toBe(404);
  expect((await outsider.api.post(P, { json: { name: "eyes" } })).status).toBe(404);
  expect((await guest.api.post(P, { json: { name: "eyes" } })).status).toBe(201);
  expect((await guest.api.get(P)).body).toEqual([expect.objectContaining({ name: "eyes", user: expect.objectContaining({ username: "guest" }) })]);
});
