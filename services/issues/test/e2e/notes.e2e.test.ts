import { addMember, apiClient, createGroup, createProject as postProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Comments on issues through the HTTP gateway: listing (order, pages, what is listed and for whom),
 * reading one, creating (limits, flags, timestamps), editing and deleting by role, and the issue's
 * user_notes_count, discussion locks and confidential issues along the way.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("notes");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** A project in its own group (so group owners are project owners), made by root. */
async function createProject(path: string, visibility: "private" | "public" = "private") {
  const group = await createGroup(root, `${path}-group`, `${path}-group`, { visibility });
  const project = await postProject(root, { name: path, namespace_id: group.id, visibility });
  return { id: project.id, groupId: group.id };
}

async function createIssue(api: ApiClient, projectId: number, extra: Record<string, unknown> = {}) {
  const res = await api.post(`/projects/${projectId}/issues`, { json: { title: "Invoices are rounded wrongly", ...extra } });
  expect(res.status).toBe(201);
  return res.body as { id: number; iid: number; project_id: number };
}

const notesPath = (projectId: number, iid: number) => `/projects/${projectId}/issues/${iid}/notes`;

async function comment(api: ApiClient, projectId: number, iid: number, body: string, extra: Record<string, unknown> = {}) {
  const res = await api.post(notesPath(projectId, iid), { json: { body, ...extra } });
  expect(res.status).toBe(201);
  return res.body as { id: number; body: string; created_at: string; updated_at: string; internal: boolean };
}

const userNotesCount = async (projectId: number, iid: number) => (await root.get(`/projects/${projectId}/issues/${iid}`)).body.user_notes_count;
const bodies = (notes: { body: string }[]) => notes.map((n) => n.body);

describe("GET /projects/:id/issues/:issue_iid/notes", () => {
  /** Three dated comments, a system note from a title change, and a thread with a reply. */
  async function busyIssue() {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    const path = notesPath(project.id, issue.iid);
    const first = await comment(root, project.id, issue.iid, "first", { created_at: "2024-01-01T10:00:00Z" });
    const second = await comment(root, project.id, issue.iid, "second", { created_at: "2024-01-02T10:00:00Z" });
    const third = await comment(root, project.id, issue.iid, "third", { created_at: "2024-01-03T10:00:00Z" });
    const retitled = await root.put(`/projects/${project.id}/issues/${issue.iid}`, { json: { title: "Invoices round wrongly" } });
    expect(retitled.status).toBe(200);
    const thread = await root.post(`/projects/${project.id}/issues/${issue.iid}/discussions`, { json: { body: "thread start" } });
    expect(thread.status).toBe(201);
    const reply = await root.post(`/projects/${project.id}/issues/${issue.iid}/discussions/${thread.body.id}/notes`, { json: { body: "thread reply" } });
    expect(reply.status).toBe(201);
    return { project, issue, path, first, second, third };
  }

  test("newest first by default; comments and system notes, not the notes inside threads", async () => {
    const { path, issue, project } = await busyIssue();
    const res = await root.get(path);
    expect(res.status).toBe(200);
    expect(bodies(res.body)).toEqual(["changed title from **Invoices are rounded wrongly** to **Invoices round wrongly**", "third", "second", "first"]);
    expect(res.headers.get("x-total")).toBe("4");
    const [system, third] = res.body;
    expect(system).toMatchObject({ system: true, type: null, noteable_type: "Issue", noteable_id: issue.id, noteable_iid: issue.iid, project_id: project.id });
    expect(third).toMatchObject({ system: false, type: null, author: { username: "root" }, created_at: "2024-01-03T10:00:00.000Z" });
  });

  test("sort=asc, and order_by=updated_at follows edits", async () => {
    const { path, first } = await busyIssue();
    const asc = await root.get(path, { query: { sort: "asc" } });
    expect(bodies(asc.body)).toEqual(["first", "second", "third", expect.stringMatching(/^changed title/)]);

    // Editing "first" makes it the most recently updated comment.
    expect((await root.put(`${path}/${first.id}`, { json: { body: "first, edited" } })).status).toBe(200);
    const byUpdate = await root.get(path, { query: { order_by: "updated_at" } });
    expect(bodies(byUpdate.body)).toEqual(["first, edited", expect.stringMatching(/^changed title/), "third", "second"]);
    const byUpdateAsc = await root.get(path, { query: { order_by: "updated_at", sort: "asc" } });
    expect(bodies(byUpdateAsc.body)).toEqual(["second", "third", expect.stringMatching(/^changed title/), "first, edited"]);
    const byCreation = await root.get(path, { query: { order_by: "created_at", sort: "asc" } });
    expect(bodies(byCreation.body)[0]).toBe("first, edited");
  });

  test("pages carry GitLab's pagination headers", async () => {
    const { path } = await busyIssue();
    const page1 = await root.get(path, { query: { per_page: 3, sort: "asc" } });
    expect(page1.status).toBe(200);
    expect(bodies(page1.body)).toEqual(["first", "second", "third"]);
    expect(page1.headers.get("x-total")).toBe("4");
    expect(page1.headers.get("x-total-pages")).toBe("2");
    expect(page1.headers.get("x-per-page")).toBe("3");
    expect(page1.headers.get("x-page")).toBe("1");
    expect(page1.headers.get("x-next-page")).toBe("2");
    expect(page1.headers.get("x-prev-page")).toBe("");
    expect(page1.headers.get("link")).toContain('rel="next"');

    const page2 = await root.get(path, { query: { per_page: 3, sort: "asc", page: 2 } });
    expect(bodies(page2.body)).toEqual([expect.stringMatching(/^changed title/)]);
    expect(page2.headers.get("x-next-page")).toBe("");
    expect(page2.headers.get("x-prev-page")).toBe("1");

    const past = await root.get(path, { query: { per_page: 3, page: 3 } });
    expect(past.status).toBe(200);
    expect(past.body).toEqual([]);
    expect(past.headers.get("x-total")).toBe("4");
  });

  test("internal notes are listed for Reporters and above, hidden from Guests", async () => {
    const project = await createProject("billing");
    const [guest, reporter] = [await createUser(app, "guest"), await createUser(app, "reporter")];
    await addMember(app, "projects", project.id, guest.id, 10);
    await addMember(app, "projects", project.id, reporter.id, 20);
    const issue = await createIssue(root, project.id);
    await comment(root, project.id, issue.iid, "public remark");
    const secret = await comment(root, project.id, issue.iid, "customer is Acme", { internal: true });
    expect(secret).toMatchObject({ internal: true, confidential: true });

    const asReporter = await reporter.api.get(notesPath(project.id, issue.iid));
    expect(bodies(asReporter.body)).toEqual(["customer is Acme", "public remark"]);
    expect(asReporter.body[0]).toMatchObject({ internal: true, confidential: true });

    const asGuest = await guest.api.get(notesPath(project.id, issue.iid));
    expect(asGuest.status).toBe(200);
    expect(bodies(asGuest.body)).toEqual(["public remark"]);
    expect(asGuest.headers.get("x-total")).toBe("1");

    const one = await guest.api.get(`${notesPath(project.id, issue.iid)}/${secret.id}`);
    expect(one.status).toBe(404);
    expect(one.body).toEqual({ message: "404 Note Not Found" });
    expect((await reporter.api.get(`${notesPath(project.id, issue.iid)}/${secret.id}`)).status).toBe(200);
  });

  test("an unknown issue answers 404", async () => {
    const project = await createProject("billing");
    const res = await root.get(notesPath(project.id, 99));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "404 Not found" });
  });
});

describe("GET /projects/:id/issues/:issue_iid/notes/:note_id", () => {
  test("returns the note with its fields", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    const created = await comment(root, project.id, issue.iid, "Looks like a float rounding issue");
    const res = await root.get(`${notesPath(project.id, issue.iid)}/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        id: created.id,
        type: null,
        body: "Looks like a float rounding issue",
        attachment: null,
        author: expect.objectContaining({ username: "root", name: expect.any(String), state: "active", web_url: "http://collab.test/root" }),
        created_at: created.created_at,
        updated_at: created.updated_at,
        system: false,
        noteable_id: issue.id,
        noteable_type: "Issue",
        noteable_iid: issue.iid,
        project_id: project.id,
        resolvable: false,
        confidential: false,
        internal: false,
        imported: false,
        imported_from: "none",
      }),
    );
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test("an unknown note, or one of another issue, is 404 Note Not Found", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    const other = await createIssue(root, project.id);
    const elsewhere = await comment(root, project.id, other.iid, "on the other issue");
    for (const id of [999999, elsewhere.id]) {
      const res = await root.get(`${notesPath(project.id, issue.iid)}/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Note Not Found" });
    }
  });
});

describe("POST /projects/:id/issues/:issue_iid/notes", () => {
  test("creates a comment (201) and moves the issue's user_notes_count; system notes do not count", async () => {
    const project = await createProject("billing");
    const dev = await createUser(app, "dev");
    await addMember(app, "projects", project.id, dev.id, 30);
    const issue = await createIssue(root, project.id);
    expect(await userNotesCount(project.id, issue.iid)).toBe(0);

    const res = await dev.api.post(notesPath(project.id, issue.iid), { json: { body: "I can reproduce it" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: "I can reproduce it", author: { id: dev.id, username: "dev" }, system: false, internal: false, noteable_iid: issue.iid });
    await comment(dev.api, project.id, issue.iid, "and here is a fix");
    expect(await userNotesCount(project.id, issue.iid)).toBe(2);

    await root.put(`/projects/${project.id}/issues/${issue.iid}`, { json: { title: "Renamed" } });
    expect(await userNotesCount(project.id, issue.iid)).toBe(2);
  });

  test("form-encoded bodies work like JSON", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    const res = await root.post(notesPath(project.id, issue.iid), { form: { body: "sent as a form", internal: "true" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: "sent as a form", internal: true });
  });

  test("body is required and may not be blank", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    const missing = await root.post(notesPath(project.id, issue.iid), { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: "body is missing" });
    const blank = await root.post(notesPath(project.id, issue.iid), { json: { body: "   " } });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: `400 Bad request - Note {:note=>["can't be blank"]}` });
    expect(await userNotesCount(project.id, issue.iid)).toBe(0);
  });

  test("a body of exactly 1,000,000 characters is accepted, one more is rejected", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    const longest = await root.post(notesPath(project.id, issue.iid), { json: { body: "a".repeat(1_000_000) } });
    expect(longest.status).toBe(201);
    expect(longest.body.body).toHaveLength(1_000_000);

    const tooLong = await root.post(notesPath(project.id, issue.iid), { json: { body: "a".repeat(1_000_001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' });
    expect(await userNotesCount(project.id, issue.iid)).toBe(1);
  });

  test("the limit counts characters, not UTF-16 code units", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    // 600,000 emoji are 600,000 characters but 1,200,000 UTF-16 code units.
    const res = await root.post(notesPath(project.id, issue.iid), { json: { body: "🎉".repeat(600_000) } });
    expect(res.status).toBe(201);
  });

  test("internal and its deprecated alias confidential make an internal note", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    expect(await comment(root, project.id, issue.iid, "a", { internal: true })).toMatchObject({ internal: true, confidential: true });
    expect(await comment(root, project.id, issue.iid, "b", { confidential: true })).toMatchObject({ internal: true, confidential: true });
    expect(await comment(root, project.id, issue.iid, "c", { internal: false })).toMatchObject({ internal: false, confidential: false });
    expect(await comment(root, project.id, issue.iid, "d")).toMatchObject({ internal: false, confidential: false });
    const invalid = await root.post(notesPath(project.id, issue.iid), { json: { body: "e", internal: "maybe" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: "internal is invalid" });
  });

  test("internal is silently dropped for those who may not mark notes internal", async () => {
    const project = await createProject("billing");
    const [guest, reporter] = [await createUser(app, "guest"), await createUser(app, "reporter")];
    await addMember(app, "projects", project.id, guest.id, 10);
    await addMember(app, "projects", project.id, reporter.id, 20);
    const issue = await createIssue(root, project.id);
    const fromGuest = await guest.api.post(notesPath(project.id, issue.iid), { json: { body: "guest note", internal: true } });
    expect(fromGuest.status).toBe(201);
    expect(fromGuest.body).toMatchObject({ internal: false, confidential: false });
    // The Guest still sees what they wrote.
    expect(bodies((await guest.api.get(notesPath(project.id, issue.iid))).body)).toEqual(["guest note"]);
    expect(await comment(reporter.api, project.id, issue.iid, "reporter note", { internal: true })).toMatchObject({ internal: true });
  });

  test("created_at is honoured for administrators and project owners, silently ignored for others", async () => {
    const project = await createProject("billing");
    const [owner, maintainer, dev] = [await createUser(app, "owner"), await createUser(app, "maintainer"), await createUser(app, "dev")];
    await addMember(app, "groups", project.groupId, owner.id, 50);
    await addMember(app, "projects", project.id, maintainer.id, 40);
    await addMember(app, "projects", project.id, dev.id, 30);
    const issue = await createIssue(root, project.id);
    const past = "2020-02-03T04:05:06Z";
    const startedAt = Date.now() - 1000;

    for (const api of [root, owner.api]) {
      const note = await comment(api, project.id, issue.iid, "backdated", { created_at: past });
      expect(note.created_at).toBe("2020-02-03T04:05:06.000Z");
      expect(note.updated_at).toBe("2020-02-03T04:05:06.000Z");
    }
    for (const api of [maintainer.api, dev.api]) {
      const note = await comment(api, project.id, issue.iid, "not backdated", { created_at: past });
      expect(Date.parse(note.created_at)).toBeGreaterThanOrEqual(startedAt);
    }
  });

  test("created_at before the Unix epoch or unparseable is rejected", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    for (const created_at of ["1969-12-31T00:00:00Z", "yesterday"]) {
      const res = await root.post(notesPath(project.id, issue.iid), { json: { body: "x", created_at } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "created_at is invalid" });
    }
  });

  test("a locked discussion takes comments from members only", async () => {
    const project = await createProject("storefront", "public");
    const [guest, outsider] = [await createUser(app, "guest"), await createUser(app, "outsider")];
    await addMember(app, "projects", project.id, guest.id, 10);
    const issue = await createIssue(root, project.id);

    // Unlocked, anyone signed in may comment on a public project.
    const earlier = await outsider.api.post(notesPath(project.id, issue.iid), { json: { body: "+1" } });
    expect(earlier.status).toBe(201);
    const guestNote = await comment(guest.api, project.id, issue.iid, "guest remark");

    const locked = await root.put(`/projects/${project.id}/issues/${issue.iid}`, { json: { discussion_locked: true } });
    expect(locked.body.discussion_locked).toBe(true);
    const refused = await outsider.api.post(notesPath(project.id, issue.iid), { json: { body: "+1 again" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "403 Forbidden" });
    // Nor may a non-member touch their earlier comment while the lock holds; members still may.
    const ownEdit = await outsider.api.put(`${notesPath(project.id, issue.iid)}/${earlier.body.id}`, { json: { body: "+2" } });
    expect(ownEdit.status).toBe(403);
    expect((await outsider.api.delete(`${notesPath(project.id, issue.iid)}/${earlier.body.id}`)).status).toBe(403);
    expect((await guest.api.put(`${notesPath(project.id, issue.iid)}/${guestNote.id}`, { json: { body: "guest remark, edited" } })).status).toBe(200);
    expect((await guest.api.delete(`${notesPath(project.id, issue.iid)}/${guestNote.id}`)).status).toBe(204);
    // Threads and replies are comments too.
    expect((await outsider.api.post(`/projects/${project.id}/issues/${issue.iid}/discussions`, { json: { body: "thread" } })).status).toBe(403);
    expect((await guest.api.post(notesPath(project.id, issue.iid), { json: { body: "member comment" } })).status).toBe(201);
    // Reading is unaffected.
    expect((await outsider.api.get(notesPath(project.id, issue.iid))).status).toBe(200);
    expect(await userNotesCount(project.id, issue.iid)).toBe(2);
  });

  test("notes of a confidential issue are hidden (404) from those who cannot see the issue", async () => {
    const project = await createProject("storefront", "public");
    const [guest, reporter, outsider] = [await createUser(app, "guest"), await createUser(app, "reporter"), await createUser(app, "outsider")];
    await addMember(app, "projects", project.id, guest.id, 10);
    await addMember(app, "projects", project.id, reporter.id, 20);
    const issue = await createIssue(root, project.id, { confidential: true });
    const note = await comment(root, project.id, issue.iid, "security detail");
    const path = notesPath(project.id, issue.iid);

    for (const user of [outsider, guest]) {
      for (const res of [await user.api.get(path), await user.api.get(`${path}/${note.id}`), await user.api.post(path, { json: { body: "hi" } })]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: "404 Not found" });
      }
    }
    expect((await reporter.api.get(path)).status).toBe(200);
    expect((await reporter.api.post(path, { json: { body: "on it" } })).status).toBe(201);
  });
});

describe("PUT /projects/:id/issues/:issue_iid/notes/:note_id", () => {
  test("the author edits their comment; others, even Maintainers, get 403", async () => {
    const project = await createProject("billing");
    const [dev, maintainer] = [await createUser(app, "dev"), await createUser(app, "maintainer")];
    await addMember(app, "projects", project.id, dev.id, 30);
    await addMember(app, "projects", project.id, maintainer.id, 40);
    const issue = await createIssue(root, project.id);
    const note = await comment(dev.api, project.id, issue.iid, "typo in hte comment");
    const path = `${notesPath(project.id, issue.iid)}/${note.id}`;

    const edited = await dev.api.put(path, { json: { body: "typo in the comment" } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: note.id, body: "typo in the comment", author: { id: dev.id }, created_at: note.created_at });
    expect(Date.parse(edited.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(note.updated_at));

    const refused = await maintainer.api.put(path, { json: { body: "hijacked" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "403 Forbidden" });
    expect((await root.get(path)).body.body).toBe("typo in the comment");
  });

  test("the body limit applies to edits", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    const note = await comment(root, project.id, issue.iid, "short");
    const path = `${notesPath(project.id, issue.iid)}/${note.id}`;
    const tooLong = await root.put(path, { json: { body: "b".repeat(1_000_001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' });
    const longest = await root.put(path, { json: { body: "b".repeat(1_000_000) } });
    expect(longest.status).toBe(200);
    expect(longest.body.body).toHaveLength(1_000_000);
  });

  test("an empty body is refused; sending nothing changes nothing", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    const note = await comment(root, project.id, issue.iid, "keep me");
    const path = `${notesPath(project.id, issue.iid)}/${note.id}`;
    for (const body of ["", "   "]) {
      const res = await root.put(path, { json: { body } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "body is empty" });
    }
    const nothing = await root.put(path, { json: {} });
    expect(nothing.status).toBe(200);
    expect(nothing.body).toMatchObject({ body: "keep me", updated_at: note.updated_at });
  });

  test("an existing note's confidentiality cannot change, so an internal note never goes public", async () => {
    const project = await createProject("billing");
    const guest = await createUser(app, "guest");
    await addMember(app, "projects", project.id, guest.id, 10);
    const issue = await createIssue(root, project.id);
    const secret = await comment(root, project.id, issue.iid, "customer is Acme", { internal: true });
    const open = await comment(root, project.id, issue.iid, "public remark");

    const exposed = await root.put(`${notesPath(project.id, issue.iid)}/${secret.id}`, { json: { confidential: false } });
    expect(exposed.status).toBe(400);
    expect(exposed.body).toEqual({ message: '400 Bad request - Note {:confidential=>["can not be changed for existing notes"]}' });
    const hidden = await root.put(`${notesPath(project.id, issue.iid)}/${open.id}`, { json: { body: "edited", confidential: true } });
    expect(hidden.status).toBe(400);
    expect((await root.get(`${notesPath(project.id, issue.iid)}/${open.id}`)).body).toMatchObject({ body: "public remark", internal: false });
    expect(bodies((await guest.api.get(notesPath(project.id, issue.iid))).body)).toEqual(["public remark"]);

    // Repeating the current value is not a change.
    const same = await root.put(`${notesPath(project.id, issue.iid)}/${secret.id}`, { json: { body: "customer is Acme Corp", confidential: true } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ body: "customer is Acme Corp", internal: true });
  });

  test("system notes cannot be edited; unknown notes are 404", async () => {
    const project = await createProject("billing");
    const issue = await createIssue(root, project.id);
    await root.put(`/projects/${project.id}/issues/${issue.iid}`, { json: { title: "Renamed" } });
    const [system] = (await root.get(notesPath(project.id, issue.iid))).body;
    expect(system.system).toBe(true);
    expect((await root.put(`${notesPath(project.id, issue.iid)}/${system.id}`, { json: { body: "rewrite history" } })).status).toBe(403);
    const missing = await root.put(`${notesPath(project.id, issue.iid)}/999999`, { json: { body: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Note Not Found" });
  });
});

describe("DELETE /projects/:id/issues/:issue_iid/notes/:note_id", () => {
  test("the author, or a Maintainer and above, deletes a comment (204); counts move back", async () => {
    const project = await createProject("billing");
    const [dev, dev2, maintainer] = [await createUser(app, "dev"), await createUser(app, "dev2"), await createUser(app, "maintainer")];
    await addMember(app, "projects", project.id, dev.id, 30);
    await addMember(app, "projects", project.id, dev2.id, 30);
    await addMember(app, "projects", project.id, maintainer.id, 40);
    const issue = await createIssue(root, project.id);
    const mine = await comment(dev.api, project.id, issue.iid, "mine");
    const theirs = await comment(dev.api, project.id, issue.iid, "theirs");
    const path = (id: number) => `${notesPath(project.id, issue.iid)}/${id}`;
    expect(await userNotesCount(project.id, issue.iid)).toBe(2);

    const refused = await dev2.api.delete(path(theirs.id));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "403 Forbidden" });
    expect(await userNotesCount(project.id, issue.iid)).toBe(2);

    const own = await dev.api.delete(path(mine.id));
    expect(own.status).toBe(204);
    expect(own.text).toBe("");
    const byMaintainer = await maintainer.api.delete(path(theirs.id));
    expect(byMaintainer.status).toBe(204);

    expect(await userNotesCount(project.id, issue.iid)).toBe(0);
    expect((await root.get(path(mine.id))).body).toEqual({ message: "404 Note Not Found" });
    expect((await root.get(notesPath(project.id, issue.iid))).body).toEqual([]);
    expect((await dev.api.delete(path(mine.id))).status).toBe(404);
  });
});
