import { addMember, apiClient, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Resource state events of issues through the HTTP gateway: nothing for a new issue, one event per
 * close and reopen (moves included), reading one, pagination and hiding.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("state-events");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

async function createIssue(projectId: number, extra: Record<string, unknown> = {}) {
  const res = await root.post(`/projects/${projectId}/issues`, { json: { title: "Invoices are rounded wrongly", ...extra } });
  expect(res.status).toBe(201);
  return res.body as { id: number; iid: number };
}

async function setState(api: ApiClient, projectId: number, iid: number, state_event: "close" | "reopen") {
  const res = await api.put(`/projects/${projectId}/issues/${iid}`, { json: { state_event } });
  expect(res.status).toBe(200);
  return res.body as { state: string };
}

const eventsPath = (projectId: number, iid: number) => `/projects/${projectId}/issues/${iid}/resource_state_events`;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("GET /projects/:id/issues/:issue_iid/resource_state_events", () => {
  test("a new issue has no events: an empty list, not 404", async () => {
    const project = await createProject(root, { name: "billing", visibility: "private" });
    const issue = await createIssue(project.id);
    const res = await root.get(eventsPath(project.id, issue.iid));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get("x-total")).toBe("0");
    expect(res.headers.get("x-total-pages")).toBe("1");
  });

  test("close then reopen records closed then reopened, with who and when", async () => {
    const project = await createProject(root, { name: "billing", visibility: "private" });
    const dev = await createUser(app, "dev");
    await addMember(app, "projects", project.id, dev.id, 30);
    const issue = await createIssue(project.id);
    const before = Date.now() - 1000;

    expect((await setState(dev.api, project.id, issue.iid, "close")).state).toBe("closed");
    expect((await setState(root, project.id, issue.iid, "reopen")).state).toBe("opened");

    const res = await dev.api.get(eventsPath(project.id, issue.iid));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.any(Number),
        user: expect.objectContaining({ id: dev.id, username: "dev", name: "dev", state: "active", web_url: "http://collab.test/dev" }),
        created_at: expect.stringMatching(ISO),
        resource_type: "Issue",
        resource_id: issue.id,
        state: "closed",
      },
      {
        id: expect.any(Number),
        user: expect.objectContaining({ username: "root" }),
        created_at: expect.stringMatching(ISO),
        resource_type: "Issue",
        resource_id: issue.id,
        state: "reopened",
      },
    ]);
    const [closed, reopened] = res.body;
    expect(reopened.id).toBeGreaterThan(closed.id);
    expect(Date.parse(closed.created_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(reopened.created_at)).toBeGreaterThanOrEqual(Date.parse(closed.created_at));
  });

  test("a no-op state_event records nothing", async () => {
    const project = await createProject(root, { name: "billing", visibility: "private" });
    const issue = await createIssue(project.id);
    await setState(root, project.id, issue.iid, "reopen");
    expect((await root.get(eventsPath(project.id, issue.iid))).body).toEqual([]);
    await setState(root, project.id, issue.iid, "close");
    await setState(root, project.id, issue.iid, "close");
    expect((await root.get(eventsPath(project.id, issue.iid))).body.map((e: { state: string }) => e.state)).toEqual(["closed"]);
  });

  test("events belong to their issue", async () => {
    const project = await createProject(root, { name: "billing", visibility: "private" });
    const a = await createIssue(project.id);
    const b = await createIssue(project.id);
    await setState(root, project.id, a.iid, "close");
    expect((await root.get(eventsPath(project.id, b.iid))).body).toEqual([]);
    const [event] = (await root.get(eventsPath(project.id, a.iid))).body;
    expect(event.resource_id).toBe(a.id);
    expect((await root.get(`${eventsPath(project.id, b.iid)}/${event.id}`)).status).toBe(404);
  });

  test("paginated with GitLab's headers, oldest first", async () => {
    const project = await createProject(root, { name: "billing", visibility: "private" });
    const issue = await createIssue(project.id);
    for (let i = 0; i < 3; i++) {
      await setState(root, project.id, issue.iid, "close");
      await setState(root, project.id, issue.iid, "reopen");
    }
    const page1 = await root.get(eventsPath(project.id, issue.iid), { query: { per_page: 4 } });
    expect(page1.status).toBe(200);
    expect(page1.body.map((e: { state: string }) => e.state)).toEqual(["closed", "reopened", "closed", "reopened"]);
    expect(page1.headers.get("x-total")).toBe("6");
    expect(page1.headers.get("x-total-pages")).toBe("2");
    expect(page1.headers.get("x-per-page")).toBe("4");
    expect(page1.headers.get("x-next-page")).toBe("2");
    const page2 = await root.get(eventsPath(project.id, issue.iid), { query: { per_page: 4, page: 2 } });
    expect(page2.body.map((e: { state: string }) => e.state)).toEqual(["closed", "reopened"]);
    expect(page2.headers.get("x-next-page")).toBe("");
    expect(page2.headers.get("x-prev-page")).toBe("1");
  });

  test("a move closes the original and records it there", async () => {
    const source = await createProject(root, { name: "billing", visibility: "private" });
    const target = await createProject(root, { name: "payments", visibility: "private" });
    const issue = await createIssue(source.id);
    const moved = await root.post(`/projects/${source.id}/issues/${issue.iid}/move`, { json: { to_project_id: target.id } });
    expect(moved.status).toBe(201);

    const original = await root.get(`/projects/${source.id}/issues/${issue.iid}`);
    expect(original.body).toMatchObject({ state: "closed", moved_to_id: moved.body.id });
    const events = await root.get(eventsPath(source.id, issue.iid));
    expect(events.body).toEqual([expect.objectContaining({ state: "closed", resource_type: "Issue", resource_id: issue.id, user: expect.objectContaining({ username: "root" }) })]);
    // The new issue starts open, with no history of its own.
    expect((await root.get(eventsPath(target.id, moved.body.iid))).body).toEqual([]);
  });

  test("an issue the caller cannot see answers 404", async () => {
    const open = await createProject(root, { name: "storefront", visibility: "public" });
    const closed = await createProject(root, { name: "billing", visibility: "private" });
    const [outsider, guest] = [await createUser(app, "outsider"), await createUser(app, "guest")];
    await addMember(app, "projects", open.id, guest.id, 10);
    const secret = await createIssue(open.id, { confidential: true });
    const hidden = await createIssue(closed.id);
    await setState(root, open.id, secret.iid, "close");
    await setState(root, closed.id, hidden.iid, "close");

    for (const api of [outsider.api, guest.api]) {
      const res = await api.get(eventsPath(open.id, secret.iid));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 Not found" });
    }
    const privateProject = await outsider.api.get(eventsPath(closed.id, hidden.iid));
    expect(privateProject.status).toBe(404);
    expect(privateProject.body).toEqual({ message: "404 Project Not Found" });
    const missing = await root.get(eventsPath(open.id, 999));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Not found" });
  });

  test("requires authentication", async () => {
    const project = await createProject(root, { name: "storefront", visibility: "public" });
    const issue = await createIssue(project.id);
    const res = await apiClient(app.url).get(eventsPath(project.id, issue.iid));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });
});

describe("GET /projects/:id/issues/:issue_iid/resource_state_events/:resource_state_event_id", () => {
  test("returns one event by id; unknown ids are 404", async () => {
    const project = await createProject(root, { name: "billing", visibility: "private" });
    const issue = await createIssue(project.id);
    await setState(root, project.id, issue.iid, "close");
    const [event] = (await root.get(eventsPath(project.id, issue.iid))).body;
    const res = await root.get(`${eventsPath(project.id, issue.iid)}/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(event);

    const missing = await root.get(`${eventsPath(project.id, issue.iid)}/${event.id + 1000}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 Not found" });
    const invalid = await root.get(`${eventsPath(project.id, issue.iid)}/abc`);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: "resource_state_event_id is invalid" });
  });
});
