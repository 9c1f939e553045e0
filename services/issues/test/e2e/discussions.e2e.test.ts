import { addMember, apiClient, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Threads on issues through the HTTP gateway: listing (standalone comments, system notes and
 * threads), reading one, starting a thread, replying (which turns a standalone comment into a
 * thread), editing and deleting thread notes.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("discussions");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** A private project with one issue, made by root. */
async function projectWithIssue() {
  const project = await createProject(root, { name: "billing", visibility: "private" });
  const issue = await root.post(`/projects/${project.id}/issues`, { json: { title: "Invoices are rounded wrongly" } });
  expect(issue.status).toBe(201);
  const base = `/projects/${project.id}/issues/${issue.body.iid}`;
  return { projectId: project.id, issue: issue.body as { id: number; iid: number }, base };
}

interface Discussion {
  id: string;
  individual_note: boolean;
  notes: { id: number; type: string | null; body: string; system: boolean; [k: string]: unknown }[];
}

async function startThread(api: ApiClient, base: string, body: string, extra: Record<string, unknown> = {}): Promise<Discussion> {
  const res = await api.post(`${base}/discussions`, { json: { body, ...extra } });
  expect(res.status).toBe(201);
  return res.body;
}

async function reply(api: ApiClient, base: string, discussionId: string, body: string, extra: Record<string, unknown> = {}) {
  const res = await api.post(`${base}/discussions/${discussionId}/notes`, { json: { body, ...extra } });
  expect(res.status).toBe(201);
  return res.body as Discussion["notes"][number];
}

async function comment(api: ApiClient, base: string, body: string, extra: Record<string, unknown> = {}) {
  const res = await api.post(`${base}/notes`, { json: { body, ...extra } });
  expect(res.status).toBe(201);
  return res.body as { id: number; body: string };
}

const shape = (d: Discussion) => ({ individual: d.individual_note, notes: d.notes.map((n) => [n.type, n.body]) });
const userNotesCount = async (base: string) => (await root.get(base)).body.user_notes_count;

describe("GET /projects/:id/issues/:issue_iid/discussions", () => {
  test("standalone comments and system notes are individual notes; threads list their notes oldest first", async () => {
    const { base } = await projectWithIssue();
    await comment(root, base, "standalone", { created_at: "2024-01-01T00:00:00Z" });
    const thread = await startThread(root, base, "thread start", { created_at: "2024-01-02T00:00:00Z" });
    await reply(root, base, thread.id, "reply one", { created_at: "2024-01-03T00:00:00Z" });
    await reply(root, base, thread.id, "reply two", { created_at: "2024-01-04T00:00:00Z" });
    expect((await root.put(base, { json: { title: "Invoices round wrongly" } })).status).toBe(200);

    const res = await root.get(`${base}/discussions`);
    expect(res.status).toBe(200);
    expect(res.body.map(shape)).toEqual([
      { individual: true, notes: [[null, "standalone"]] },
      { individual: false, notes: [["DiscussionNote", "thread start"], ["DiscussionNote", "reply one"], ["DiscussionNote", "reply two"]] },
      { individual: true, notes: [[null, "changed title from **Invoices are rounded wrongly** to **Invoices round wrongly**"]] },
    ]);
    expect(res.body[1].id).toBe(thread.id);
    expect(res.body[1].id).toMatch(/^[0-9a-f]{40}$/);
    expect(res.body[2].notes[0].system).toBe(true);
    expect(res.headers.get("x-total")).toBe("3");
  });

  test("paginated by thread, with headers", async () => {
    const { base } = await projectWithIssue();
    for (let day = 1; day <= 5; day++) {
      const t = await startThread(root, base, `thread ${day}`, { created_at: `2024-01-0${day}T00:00:00Z` });
      await reply(root, base, t.id, `reply to ${day}`, { created_at: `2024-02-0${day}T00:00:00Z` });
    }
    const page1 = await root.get(`${base}/discussions`, { query: { per_page: 2 } });
    expect(page1.body.map((d: Discussion) => d.notes.map((n) => n.body))).toEqual([
      ["thread 1", "reply to 1"],
      ["thread 2", "reply to 2"],
    ]);
    expect(page1.headers.get("x-total")).toBe("5");
    expect(page1.headers.get("x-total-pages")).toBe("3");
    expect(page1.headers.get("x-next-page")).toBe("2");
    const page3 = await root.get(`${base}/discussions`, { query: { per_page: 2, page: 3 } });
    expect(page3.body.map((d: Discussion) => d.notes[0].body)).toEqual(["thread 5"]);
    expect(page3.headers.get("x-next-page")).toBe("");
    expect(page3.headers.get("x-prev-page")).toBe("2");
  });

  test("a new issue has no discussions", async () => {
    const { base } = await projectWithIssue();
    const res = await root.get(`${base}/discussions`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get("x-total")).toBe("0");
  });

  test("internal threads are hidden from Guests", async () => {
    const { projectId, base } = await projectWithIssue();
    const guest = await createUser(app, "guest");
    await addMember(app, "projects", projectId, guest.id, 10);
    const hidden = await startThread(root, base, "internal thread", { internal: true });
    await reply(root, base, hidden.id, "internal reply");
    await startThread(root, base, "open thread");
    const asGuest = await guest.api.get(`${base}/discussions`);
    expect(asGuest.body.map((d: Discussion) => d.notes.map((n) => n.body))).toEqual([["open thread"]]);
    const one = await guest.api.get(`${base}/discussions/${hidden.id}`);
    expect(one.status).toBe(404);
    expect(one.body).toEqual({ message: "404 Discussion Not Found" });
    expect((await root.get(`${base}/discussions`)).body).toHaveLength(2);
  });
});

describe("GET /projects/:id/issues/:issue_iid/discussions/:discussion_id", () => {
  test("returns the thread; unknown ids are 404 Discussion Not Found", async () => {
    const { base, issue } = await projectWithIssue();
    const thread = await startThread(root, base, "first");
    await reply(root, base, thread.id, "second");
    const res = await root.get(`${base}/discussions/${thread.id}`);
    expect(res.status).toBe(200);
    expect(shape(res.body)).toEqual({ individual: false, notes: [["DiscussionNote", "first"], ["DiscussionNote", "second"]] });
    expect(res.body.notes[0]).toMatchObject({ noteable_type: "Issue", noteable_id: issue.id, noteable_iid: issue.iid, resolvable: false, system: false, author: { username: "root" } });

    const missing = await root.get(`${base}/discussions/0123456789abcdef0123456789abcdef01234567`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Discussion Not Found" });
  });

  test("a thread of another issue is not found through this one", async () => {
    const { projectId, base } = await projectWithIssue();
    const other = await root.post(`/projects/${projectId}/issues`, { json: { title: "Other" } });
    const elsewhere = await startThread(root, `/projects/${projectId}/issues/${other.body.iid}`, "elsewhere");
    const res = await root.get(`${base}/discussions/${elsewhere.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 Discussion Not Found" });
  });
});

describe("POST /projects/:id/issues/:issue_iid/discussions", () => {
  test("starts a thread (201) whose note is a DiscussionNote", async () => {
    const { projectId, base, issue } = await projectWithIssue();
    const dev = await createUser(app, "dev");
    await addMember(app, "projects", projectId, dev.id, 30);
    const res = await dev.api.post(`${base}/discussions`, { json: { body: "Should we round half to even?" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{40}$/), individual_note: false });
    expect(res.body.notes).toHaveLength(1);
    expect(res.body.notes[0]).toMatchObject({
      type: "DiscussionNote",
      body: "Should we round half to even?",
      author: { id: dev.id, username: "dev" },
      system: false,
      noteable_id: issue.id,
      noteable_type: "Issue",
      noteable_iid: issue.iid,
      project_id: projectId,
      resolvable: false,
    });
    expect(await userNotesCount(base)).toBe(1);
  });

  test("body is required and limited like any note", async () => {
    const { base } = await projectWithIssue();
    const missing = await root.post(`${base}/discussions`, { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "body is missing" });
    const tooLong = await root.post(`${base}/discussions`, { json: { body: "x".repeat(1_000_001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' });
    expect((await root.get(`${base}/discussions`)).body).toEqual([]);
  });

  test("created_at is honoured for administrators", async () => {
    const { base } = await projectWithIssue();
    const thread = await startThread(root, base, "backdated", { created_at: "2021-06-01T12:00:00Z" });
    expect(thread.notes[0].created_at).toBe("2021-06-01T12:00:00.000Z");
  });
});

describe("POST /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes", () => {
  test("a reply joins the thread (201) and answers with the new note", async () => {
    const { projectId, base } = await projectWithIssue();
    const dev = await createUser(app, "dev");
    await addMember(app, "projects", projectId, dev.id, 30);
    const thread = await startThread(root, base, "question");
    const res = await dev.api.post(`${base}/discussions/${thread.id}/notes`, { json: { body: "answer" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: "DiscussionNote", body: "answer", author: { id: dev.id }, system: false });
    expect(res.body.id).not.toBe(thread.notes[0].id);
    const after = await root.get(`${base}/discussions/${thread.id}`);
    expect(after.body.notes.map((n: { id: number }) => n.id)).toEqual([thread.notes[0].id, res.body.id]);
    expect(await userNotesCount(base)).toBe(2);
  });

  test("replying to a standalone comment turns it into a thread", async () => {
    const { base } = await projectWithIssue();
    const note = await comment(root, base, "standalone");
    const [before] = (await root.get(`${base}/discussions`)).body as Discussion[];
    expect(shape(before)).toEqual({ individual: true, notes: [[null, "standalone"]] });

    const answer = await reply(root, base, before.id, "a reply");
    expect(answer.type).toBe("DiscussionNote");
    const after = await root.get(`${base}/discussions/${before.id}`);
    expect(shape(after.body)).toEqual({ individual: false, notes: [["DiscussionNote", "standalone"], ["DiscussionNote", "a reply"]] });
    expect(after.body.notes[0].id).toBe(note.id);
    expect((await root.get(`${base}/discussions`)).body).toHaveLength(1);
  });

  test("an unknown thread is 404 Discussion Not Found; body is required", async () => {
    const { base } = await projectWithIssue();
    const missing = await root.post(`${base}/discussions/0123456789abcdef0123456789abcdef01234567/notes`, { json: { body: "hello?" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Discussion Not Found" });
    const thread = await startThread(root, base, "question");
    const noBody = await root.post(`${base}/discussions/${thread.id}/notes`, { json: {} });
    expect(noBody.status).toBe(400);
    expect(noBody.body).toEqual({ error: "body is missing" });
  });

  test("a reply to an internal thread is internal", async () => {
    const { base } = await projectWithIssue();
    const thread = await startThread(root, base, "internal", { internal: true });
    const answer = await reply(root, base, thread.id, "still internal");
    expect(answer).toMatchObject({ internal: true, confidential: true });
  });
});

describe("PUT /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id", () => {
  test("the author edits the body of a thread note; others get 403", async () => {
    const { projectId, base } = await projectWithIssue();
    const [dev, maintainer] = [await createUser(app, "dev"), await createUser(app, "maintainer")];
    await addMember(app, "projects", projectId, dev.id, 30);
    await addMember(app, "projects", projectId, maintainer.id, 40);
    const thread = await startThread(dev.api, base, "frist");
    const path = `${base}/discussions/${thread.id}/notes/${thread.notes[0].id}`;
    const res = await dev.api.put(path, { json: { body: "first" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: thread.notes[0].id, body: "first", type: "DiscussionNote" });
    const refused = await maintainer.api.put(path, { json: { body: "mine now" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "403 Forbidden" });
    expect((await root.get(`${base}/discussions/${thread.id}`)).body.notes[0].body).toBe("first");
  });

  test("issue notes are not resolvable; exactly one of body and resolved", async () => {
    const { base } = await projectWithIssue();
    const thread = await startThread(root, base, "question");
    const path = `${base}/discussions/${thread.id}/notes/${thread.notes[0].id}`;
    const resolved = await root.put(path, { json: { resolved: true } });
    expect(resolved.status).toBe(400);
    expect(resolved.body).toEqual({ message: "400 Bad request - Note is not resolvable" });
    const neither = await root.put(path, { json: {} });
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ error: "body, resolved are missing, exactly one parameter must be provided" });
    const both = await root.put(path, { json: { body: "x", resolved: true } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: "body, resolved are mutually exclusive" });
  });

  test("a note outside the thread is 404", async () => {
    const { base } = await projectWithIssue();
    const a = await startThread(root, base, "a");
    const b = await startThread(root, base, "b");
    const res = await root.put(`${base}/discussions/${a.id}/notes/${b.notes[0].id}`, { json: { body: "moved?" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 Note Not Found" });
  });
});

describe("DELETE /projects/:id/issues/:issue_iid/discussions/:discussion_id/notes/:note_id", () => {
  test("deletes a thread note (204); the thread goes when its last note does", async () => {
    const { base } = await projectWithIssue();
    const thread = await startThread(root, base, "question");
    const answer = await reply(root, base, thread.id, "answer");
    expect(await userNotesCount(base)).toBe(2);

    const res = await root.delete(`${base}/discussions/${thread.id}/notes/${answer.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(shape((await root.get(`${base}/discussions/${thread.id}`)).body)).toEqual({ individual: false, notes: [["DiscussionNote", "question"]] });
    expect(await userNotesCount(base)).toBe(1);

    expect((await root.delete(`${base}/discussions/${thread.id}/notes/${thread.notes[0].id}`)).status).toBe(204);
    expect((await root.get(`${base}/discussions/${thread.id}`)).status).toBe(404);
    expect(await userNotesCount(base)).toBe(0);
    const again = await root.delete(`${base}/discussions/${thread.id}/notes/${answer.id}`);
    expect(again.status).toBe(404);
  });

  test("a Developer cannot delete another's thread note; a Maintainer can", async () => {
    const { projectId, base } = await projectWithIssue();
    const [dev, dev2, maintainer] = [await createUser(app, "dev"), await createUser(app, "dev2"), await createUser(app, "maintainer")];
    await addMember(app, "projects", projectId, dev.id, 30);
    await addMember(app, "projects", projectId, dev2.id, 30);
    await addMember(app, "projects", projectId, maintainer.id, 40);
    const thread = await startThread(dev.api, base, "question");
    const path = `${base}/discussions/${thread.id}/notes/${thread.notes[0].id}`;
    expect((await dev2.api.delete(path)).status).toBe(403);
    expect((await maintainer.api.delete(path)).status).toBe(204);
  });
});
