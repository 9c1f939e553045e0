import { apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Comments and threads on project snippets with @gitbeaker/rest (ProjectSnippetNotes,
 * ProjectSnippetDiscussions): the shared notes code, with the snippet found by its id.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("snippet-notes-gitbeaker");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

test("comments and threads on a project snippet", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const bob = await createGitbeakerUser(app, "bob");
  const carol = await createGitbeakerUser(app, "carol");
  const project = await alice.gl.Projects.create({ name: "Docs", visibility: "public" });
  await alice.gl.ProjectMembers.add(project.id, 10, { userId: bob.id });
  const snippet = await alice.gl.ProjectSnippets.create(project.id, "Setup", { visibility: "public", fileName: "setup.md", content: "npm ci" } as never);
  const hidden = await alice.gl.ProjectSnippets.create(project.id, "Keys", { visibility: "private", fileName: "k", content: "secret" } as never);

  const note = await bob.gl.ProjectSnippetNotes.create(project.id, snippet.id, "Works for me");
  expect(note).toMatchObject({ body: "Works for me", noteable_type: "Snippet", noteable_id: snippet.id, noteable_iid: null, project_id: project.id, author: { username: "bob" }, system: false });
  expect(await bob.gl.ProjectSnippetNotes.show(project.id, snippet.id, note.id)).toEqual(note);
  const edited = await bob.gl.ProjectSnippetNotes.edit(project.id, snippet.id, note.id, { body: "Works for me on Linux" });
  expect(edited.body).toBe("Works for me on Linux");
  expect(await failureStatus(alice.gl.ProjectSnippetNotes.edit(project.id, snippet.id, note.id, { body: "not mine" }))).toBe(403);

  // Anybody signed in who can read a public snippet comments on it; private ones stay hidden.
  await carol.gl.ProjectSnippetNotes.create(project.id, snippet.id, "Thanks");
  expect(await failureStatus(carol.gl.ProjectSnippetNotes.create(project.id, hidden.id, "peek"))).toBe(404);
  expect(await failureStatus(carol.gl.ProjectSnippetNotes.all(project.id, hidden.id))).toBe(404);
  expect((await bob.gl.ProjectSnippetNotes.all(project.id, hidden.id))).toEqual([]);
  const anonymous = await apiClient(app.url).as(null).post(`/projects/${project.id}/snippets/${snippet.id}/notes`, { json: { body: "hi" } });
  expect(anonymous.status).toBe(401);

  const listed = await alice.gl.ProjectSnippetNotes.all(project.id, snippet.id, { sort: "asc" });
  expect(listed.map((n) => [n.author.username, n.body])).toEqual([
    ["bob", "Works for me on Linux"],
    ["carol", "Thanks"],
  ]);

  // Threads.
  const thread = await alice.gl.ProjectSnippetDiscussions.create(project.id, snippet.id, "Should we pin the Node version?");
  expect(thread).toMatchObject({ individual_note: false, notes: [expect.objectContaining({ type: "DiscussionNote", noteable_type: "Snippet" })] });
  const reply = await bob.gl.ProjectSnippetDiscussions.addNote(project.id, snippet.id, thread.id, "Yes, 20");
  expect(reply).toMatchObject({ type: "DiscussionNote", body: "Yes, 20" });
  await bob.gl.ProjectSnippetDiscussions.editNote(project.id, snippet.id, thread.id, reply.id, { body: "Yes, Node 20" });
  const shown = await alice.gl.ProjectSnippetDiscussions.show(project.id, snippet.id, thread.id);
  expect(shown.notes!.map((n) => n.body)).toEqual(["Should we pin the Node version?", "Yes, Node 20"]);
  expect((await alice.gl.ProjectSnippetDiscussions.all(project.id, snippet.id)).map((d) => d.individual_note)).toEqual([true, true, false]);
  await bob.gl.ProjectSnippetDiscussions.removeNote(project.id, snippet.id, thread.id, reply.id);
  expect((await alice.gl.ProjectSnippetDiscussions.show(project.id, snippet.id, thread.id)).notes).toHaveLength(1);

  // The author or a Maintainer deletes a comment.
  await alice.gl.ProjectSnippetNotes.remove(project.id, snippet.id, note.id);
  expect(await failureStatus(alice.gl.ProjectSnippetNotes.show(project.id, snippet.id, note.id))).toBe(404);

  // Snippets have no state events.
  expect((await root.get(`/projects/${project.id}/snippets/${snippet.id}/resource_state_events`)).status).toBe(404);
});

test("a note is only reached through its own snippet; unknown snippets are 404 Snippet Not Found", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const project = await alice.gl.Projects.create({ name: "Docs", visibility: "private" });
  const other = await alice.gl.Projects.create({ name: "Other", visibility: "private" });
  const first = await alice.gl.ProjectSnippets.create(project.id, "One", { visibility: "private", fileName: "a", content: "a" } as never);
  const second = await alice.gl.ProjectSnippets.create(project.id, "Two", { visibility: "private", fileName: "b", content: "b" } as never);
  const elsewhere = await alice.gl.ProjectSnippets.create(other.id, "Three", { visibility: "private", fileName: "c", content: "c" } as never);
  const note = await alice.gl.ProjectSnippetNotes.create(project.id, first.id, "on the first");
  const thread = await alice.gl.ProjectSnippetDiscussions.create(project.id, first.id, "thread on the first");

  const base = `/projects/${project.id}/snippets/${second.id}`;
  for (const [method, path] of [
    ["get", `${base}/notes/${note.id}`],
    ["put", `${base}/notes/${note.id}`],
    ["delete", `${base}/notes/${note.id}`],
    ["get", `${base}/discussions/${thread.id}`],
  ] as const) {
    const res = await root[method](path, { json: method === "put" ? { body: "moved" } : undefined });
    expect([method, path, res.status]).toEqual([method, path, 404]);
  }
  // A snippet of another project, a personal snippet, an unknown id: the snippet is not found.
  const personal = await alice.gl.Snippets.create("Mine", { fileName: "m", content: "m" } as never);
  for (const id of [elsewhere.id, personal.id, 999999]) {
    const res = await root.get(`/projects/${project.id}/snippets/${id}/notes`);
    expect([id, res.status, res.body]).toEqual([id, 404, { message: "404 Snippet Not Found" }]);
  }
  expect((await alice.gl.ProjectSnippetNotes.show(project.id, first.id, note.id)).body).toBe("on the first");
});
