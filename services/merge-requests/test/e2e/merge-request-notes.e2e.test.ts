import { addMember, apiClient, assertStatus as ok, createProject, createUser, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * The conversation on merge requests through the gateway: comments and who may write them,
 * resolvable threads (a thread, one note, who may resolve), threads blocking a merge when the
 * project asks for it, the system notes merge request changes and approvals write, and the
 * state events of closing, reopening and merging.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("merge-request-notes");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

interface World {
  project: { id: number; path_with_namespace: string };
  author: TestUser;
  reviewer: TestUser;
  reporter: TestUser;
  guest: TestUser;
  outsider: TestUser;
  mr: { id: number; iid: number };
  base: string;
}

async function world(visibility: "private" | "public" = "private"): Promise<World> {
  const project = await createProject(root, { name: "api", visibility, initialize_with_readme: true });
  const [author, reviewer, reporter, guest, outsider] = await Promise.all(["author", "reviewer", "reporter", "guest", "outsider"].map((u) => createUser(app, u)));
  await addMember(app, "projects", project.id, author.id, 30);
  await addMember(app, "projects", project.id, reviewer.id, 30);
  await addMember(app, "projects", project.id, reporter.id, 20);
  await addMember(app, "projects", project.id, guest.id, 10);
  ok(await author.api.post(`/projects/${project.id}/repository/branches`, { json: { branch: "feature", ref: "main" } }), 201, "branch");
  const mr = ok(await author.api.post(`/projects/${project.id}/merge_requests`, { json: { title: "Add feature", source_branch: "feature", target_branch: "main" } }), 201, "MR").body;
  return { project, author, reviewer, reporter, guest, outsider, mr, base: `/projects/${project.id}/merge_requests/${mr.iid}` };
}

const startThread = async (api: ApiClient, w: World, body: string) => ok(await api.post(`${w.base}/discussions`, { json: { body } }), 201, "thread").body;

describe("comments", () => {
  it("creates, lists, edits and deletes, and keeps user_notes_count", async () => {
    const w = await world();
    const note = ok(await w.reviewer.api.post(`${w.base}/notes`, { json: { body: "Looks good" } }), 201, "note").body;
    expect(note).toMatchObject({
      body: "Looks good",
      type: null,
      system: false,
      noteable_type: "MergeRequest",
      noteable_id: w.mr.id,
      noteable_iid: w.mr.iid,
      project_id: w.project.id,
      resolvable: false,
      author: expect.objectContaining({ username: "reviewer" }),
    });
    expect(note).not.toHaveProperty("resolved");
    ok(await w.reporter.api.post(`${w.base}/notes`, { json: { body: "Reporters may comment" } }), 201, "reporter note");
    expect(ok(await root.get(w.base), 200, "MR").body.user_notes_count).toBe(2);

    const list = ok(await w.author.api.get(`${w.base}/notes`), 200, "list");
    expect(list.body.map((n: { body: string }) => n.body)).toEqual(["Reporters may comment", "Looks good"]);
    expect(list.headers.get("x-total")).toBe("2");
    expect(ok(await w.author.api.get(`${w.base}/notes/${note.id}`), 200, "get").body.id).toBe(note.id);

    expect((await w.author.api.put(`${w.base}/notes/${note.id}`, { json: { body: "not mine" } })).status).toBe(403);
    expect(ok(await w.reviewer.api.put(`${w.base}/notes/${note.id}`, { json: { body: "Looks great" } }), 200, "edit").body.body).toBe("Looks great");
    ok(await w.reviewer.api.delete(`${w.base}/notes/${note.id}`), 204, "delete");
    expect((await w.author.api.get(`${w.base}/notes/${note.id}`)).status).toBe(404);
    expect(ok(await root.get(w.base), 200, "MR").body.user_notes_count).toBe(1);
  });

  it("hides a private project's conversation: Guest 404 Merge Request Not Found, outsider 404, anonymous 401; unknown merge request 404", async () => {
    const w = await world();
    // GitLab's notes API finds the merge request through its finder: a Guest of a private project never sees it.
    const hidden = { status: 404, body: { message: "404 Merge Request Not Found" } };
    expect(await w.guest.api.get(`${w.base}/notes`)).toMatchObject(hidden);
    expect(await w.guest.api.post(`${w.base}/notes`, { json: { body: "hi" } })).toMatchObject(hidden);
    expect(await w.guest.api.get(`${w.base}/resource_state_events`)).toMatchObject(hidden);
    expect((await w.outsider.api.get(`${w.base}/notes`)).status).toBe(404);
    expect((await apiClient(app.url).as(null).get(`${w.base}/notes`)).status).toBe(401);
    const missing = await w.author.api.get(`/projects/${w.project.id}/merge_requests/99/notes`);
    expect(missing).toMatchObject({ status: 404, body: { message: "404 Merge Request Not Found" } });
  });

  it("on a public project anyone signed in comments, until the discussion is locked", async () => {
    const w = await world("public");
    ok(await w.outsider.api.post(`${w.base}/notes`, { json: { body: "drive-by" } }), 201, "outsider note");
    ok(await w.author.api.put(w.base, { json: { discussion_locked: true } }), 200, "lock");
    expect((await w.outsider.api.post(`${w.base}/notes`, { json: { body: "again" } })).status).toBe(403);
    ok(await w.guest.api.post(`${w.base}/notes`, { json: { body: "member" } }), 201, "member note");
  });
});

describe("resolvable threads", () => {
  it("resolves and unresolves a whole thread; only Developers, the author or the note's author may", async () => {
    const w = await world();
    const thread = await startThread(w.reviewer.api, w, "Add a test?");
    expect(thread).toMatchObject({ individual_note: false, notes: [expect.objectContaining({ type: "DiscussionNote", resolvable: true, resolved: false, resolved_by: null, resolved_at: null })] });
    const reply = ok(await w.author.api.post(`${w.base}/discussions/${thread.id}/notes`, { json: { body: "Done" } }), 201, "reply").body;
    expect(reply).toMatchObject({ type: "DiscussionNote", resolvable: true, resolved: false });

    expect((await w.reporter.api.put(`${w.base}/discussions/${thread.id}`, { json: { resolved: true } })).status).toBe(403);
    const resolved = ok(await w.author.api.put(`${w.base}/discussions/${thread.id}`, { json: { resolved: true } }), 200, "resolve").body;
    expect(resolved.id).toBe(thread.id);
    for (const n of resolved.notes) expect(n).toMatchObject({ resolved: true, resolved_by: expect.objectContaining({ username: "author" }), resolved_at: expect.any(String) });

    const reopened = ok(await w.reviewer.api.put(`${w.base}/discussions/${thread.id}`, { json: { resolved: false } }), 200, "unresolve").body;
    for (const n of reopened.notes) expect(n).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null });
    expect((await w.author.api.put(`${w.base}/discussions/${thread.id}`, {})).status).toBe(400);
  });

  it("resolves one note; a plain comment is not resolvable", async () => {
    const w = await world();
    const thread = await startThread(w.reporter.api, w, "Typo in the title");
    const first = thread.notes[0];
    // The note's author may resolve their own note even as a Reporter.
    const one = ok(await w.reporter.api.put(`${w.base}/discussions/${thread.id}/notes/${first.id}`, { json: { resolved: true } }), 200, "resolve note").body;
    expect(one).toMatchObject({ id: first.id, resolved: true, resolved_by: expect.objectContaining({ username: "reporter" }) });
    const both = await w.reporter.api.put(`${w.base}/discussions/${thread.id}/notes/${first.id}`, { json: { body: "x", resolved: false } });
    expect(both.status).toBe(400);

    const comment = ok(await w.reviewer.api.post(`${w.base}/notes`, { json: { body: "plain" } }), 201, "comment").body;
    const discussions = ok(await w.author.api.get(`${w.base}/discussions`), 200, "discussions").body as { id: string; individual_note: boolean; notes: { id: number }[] }[];
    const plain = discussions.find((d) => d.notes[0].id === comment.id)!;
    expect(plain.individual_note).toBe(true);
    const refused = await w.author.api.put(`${w.base}/discussions/${plain.id}/notes/${comment.id}`, { json: { resolved: true } });
    expect(refused).toMatchObject({ status: 400, body: { message: "400 Bad request - Note is not resolvable" } });
  });

  it("blocks the merge while a thread is unresolved when the project asks for it", async () => {
    const w = await world();
    const thread = await startThread(w.reviewer.api, w, "Please rename");
    expect(ok(await root.get(w.base), 200, "get").body).toMatchObject({ detailed_merge_status: "mergeable", blocking_discussions_resolved: true });
    ok(await root.put(`/projects/${w.project.id}`, { json: { only_allow_merge_if_all_discussions_are_resolved: true } }), 200, "setting");
    expect(ok(await root.get(w.base), 200, "get").body).toMatchObject({ detailed_merge_status: "discussions_not_resolved", blocking_discussions_resolved: false });
    expect((await root.put(`${w.base}/merge`)).status).toBe(405);
    ok(await w.reviewer.api.put(`${w.base}/discussions/${thread.id}`, { json: { resolved: true } }), 200, "resolve");
    expect(ok(await root.get(w.base), 200, "get").body).toMatchObject({ detailed_merge_status: "mergeable", blocking_discussions_resolved: true });
    expect(ok(await root.put(`${w.base}/merge`), 200, "merge").body.state).toBe("merged");
  });
});

describe("system notes and state events", () => {
  it("changes, approvals and state moves are recorded where GitLab records them", async () => {
    const w = await world();
    ok(await w.author.api.put(w.base, { json: { title: "Add the feature" } }), 200, "retitle");
    ok(await w.reviewer.api.post(`${w.base}/approve`), 201, "approve");
    ok(await w.reviewer.api.post(`${w.base}/unapprove`), 201, "unapprove");
    ok(await w.author.api.put(w.base, { json: { state_event: "close" } }), 200, "close");
    ok(await w.reviewer.api.put(w.base, { json: { state_event: "reopen" } }), 200, "reopen");

    const notes = ok(await w.author.api.get(`${w.base}/notes`, { query: { sort: "asc" } }), 200, "notes").body as { body: string; system: boolean; author: { username: string } }[];
    expect(notes.map((n) => [n.system, n.author.username, n.body])).toEqual([
      [true, "author", "changed title from **Add feature** to **Add the feature**"],
      [true, "reviewer", "approved this merge request"],
      [true, "reviewer", "unapproved this merge request"],
    ]);

    const events = ok(await w.author.api.get(`${w.base}/resource_state_events`), 200, "events").body as { id: number; state: string; user: { username: string }; resource_type: string; resource_id: number }[];
    expect(events.map((e) => [e.state, e.user.username, e.resource_type, e.resource_id])).toEqual([
      ["closed", "author", "MergeRequest", w.mr.id],
      ["reopened", "reviewer", "MergeRequest", w.mr.id],
    ]);
    expect(ok(await w.author.api.get(`${w.base}/resource_state_events/${events[1].id}`), 200, "event").body).toEqual(events[1]);
    expect((await w.author.api.get(`${w.base}/resource_state_events/${events[1].id + 100}`)).status).toBe(404);
    expect((await w.outsider.api.get(`${w.base}/resource_state_events`)).status).toBe(404);
  });
});
