import { addMember, apiClient, createUser, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, failureStatus } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Linked issues (GitLab's issue links API) with @gitbeaker/rest and raw requests: linking across
 * projects, the link types seen from both sides, blocking_issues_count, GitLab's refusals, what
 * moving and deleting an issue does to its links, and who may do what.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("issue-links");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const notesOf = async (as: ApiClient, projectId: number, iid: number) =>
  ((await as.get(`/projects/${projectId}/issues/${iid}/notes?sort=asc`)).body as { body: string; system: boolean }[]).filter((n) => n.system).map((n) => n.body);

test("linking issues across projects: types from both sides, blocking counts, refusals, move and delete", async () => {
  const alice = await createGitbeakerUser(app, "alice");
  const api = apiClient(app.url, alice.token);
  const web = await alice.gl.Projects.create({ name: "web", visibility: "private" });
  const backend = await alice.gl.Projects.create({ name: "backend", visibility: "private" });
  const login = await alice.gl.Issues.create(web.id, "Login page");
  const session = await alice.gl.Issues.create(web.id, "Session store");
  const tokens = await alice.gl.Issues.create(backend.id, "Token endpoint");

  // login blocks session (same project); login is blocked by tokens (another project, stored as tokens blocks login).
  const blocks = await alice.gl.IssueLinks.create(web.id, login.iid, web.id, session.iid, { linkType: "blocks" });
  expect(blocks).toMatchObject({ source_issue: { id: login.id, iid: login.iid }, target_issue: { id: session.id }, link_type: "blocks" });
  expect(blocks.source_issue).not.toHaveProperty("_links");
  const blockedBy = await alice.gl.IssueLinks.create(web.id, login.iid, backend.id, tokens.iid, { linkType: "is_blocked_by" });
  expect(blockedBy).toMatchObject({ source_issue: { id: tokens.id }, target_issue: { id: login.id }, link_type: "blocks" });
  const related = await api.post(`/projects/${backend.id}/issues/${tokens.iid}/links`, { json: { target_project_id: web.id, target_issue_iid: session.iid } });
  expect(related.status).toBe(201);
  expect(related.body).toMatchObject({ source_issue: { id: tokens.id }, target_issue: { id: session.id }, link_type: "relates_to" });

  // The list, oldest link first, each link seen from the route's issue.
  const fromLogin = await alice.gl.IssueLinks.all(web.id, login.iid);
  expect(fromLogin.map((i) => [i.id, i.link_type])).toEqual([
    [session.id, "blocks"],
    [tokens.id, "is_blocked_by"],
  ]);
  expect(fromLogin[0]).toMatchObject({ issue_link_id: expect.any(Number), link_created_at: expect.any(String), link_updated_at: expect.any(String), title: "Session store" });
  expect(fromLogin[0]).not.toHaveProperty("subscribed");
  expect(fromLogin[1].references).toMatchObject({ relative: `${backend.path_with_namespace}#${tokens.iid}` });
  expect((await alice.gl.IssueLinks.all(web.id, session.iid)).map((i) => [i.id, i.link_type])).toEqual([
    [login.id, "is_blocked_by"],
    [tokens.id, "relates_to"],
  ]);

  // blocking_issues_count: the open issues each blocks, on the issue, the list and after a close.
  expect((await alice.gl.Issues.show(login.iid, { projectId: web.id })).blocking_issues_count).toBe(1);
  expect((await alice.gl.Issues.show(tokens.iid, { projectId: backend.id })).blocking_issues_count).toBe(1);
  const counts = async () => Object.fromEntries((await alice.gl.Issues.all({ projectId: web.id })).map((i) => [i.title, i.blocking_issues_count]));
  expect(await counts()).toEqual({ "Login page": 1, "Session store": 0 });
  const closed = await alice.gl.Issues.edit(web.id, session.iid, { stateEvent: "close" });
  expect(closed.blocking_issues_count).toBe(0);
  expect(await counts()).toEqual({ "Login page": 0, "Session store": 0 });
  await alice.gl.Issues.edit(web.id, session.iid, { stateEvent: "reopen" });

  // One link, by id, from either side; another issue's link id is 404.
  const linkId = fromLogin[1].issue_link_id as number;
  const shown = await api.get(`/projects/${web.id}/issues/${login.iid}/links/${linkId}`);
  expect(shown.status).toBe(200);
  expect(shown.body).toMatchObject({ source_issue: { id: tokens.id }, target_issue: { id: login.id }, link_type: "blocks" });
  expect((await api.get(`/projects/${backend.id}/issues/${tokens.iid}/links/${linkId}`)).status).toBe(200);
  expect(await api.get(`/projects/${web.id}/issues/${session.iid}/links/${linkId}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });

  // System notes on both sides.
  expect(await notesOf(api, web.id, login.iid)).toEqual(expect.arrayContaining([`marked this issue as blocking #${session.iid}`, `marked this issue as blocked by ${backend.path_with_namespace}#${tokens.iid}`]));
  expect(await notesOf(api, backend.id, tokens.iid)).toEqual(expect.arrayContaining([`marked this issue as blocking ${web.path_with_namespace}#${login.iid}`]));

  // Refusals: the same pair again (either way), itself, a bad type, an unknown target.
  const link = (body: Record<string, unknown>) => api.post(`/projects/${web.id}/issues/${login.iid}/links`, { json: body });
  expect(await link({ target_project_id: web.id, target_issue_iid: session.iid })).toMatchObject({ status: 409, body: { message: "Issue(s) already assigned" } });
  expect(await api.post(`/projects/${web.id}/issues/${session.iid}/links`, { json: { target_project_id: web.id, target_issue_iid: login.iid, link_type: "blocks" } })).toMatchObject({ status: 409 });
  expect(await link({ target_project_id: web.id, target_issue_iid: login.iid })).toMatchObject({ status: 422, body: { message: `#${login.iid} cannot be added: cannot be related to itself` } });
  expect(await link({ target_project_id: web.id, target_issue_iid: session.iid, link_type: "duplicates" })).toMatchObject({ status: 400, body: { error: "link_type does not have a valid value" } });
  expect(await link({ target_project_id: web.id, target_issue_iid: 99 })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  expect(await link({ target_project_id: 999999, target_issue_iid: 1 })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
  expect(await link({ target_project_id: web.id })).toMatchObject({ status: 400, body: { error: "target_issue_iid is missing" } });
  expect((await alice.gl.IssueLinks.all(web.id, login.iid)).length).toBe(2);

  // Unlinking answers the link as it was, with a note on both sides.
  const removed = await alice.gl.IssueLinks.remove(web.id, login.iid, fromLogin[0].issue_link_id as number);
  expect(removed).toMatchObject({ source_issue: { id: login.id }, target_issue: { id: session.id }, link_type: "blocks" });
  expect(await notesOf(api, web.id, session.iid)).toContain(`removed the relation with #${login.iid}`);
  expect(await failureStatus(alice.gl.IssueLinks.remove(web.id, login.iid, fromLogin[0].issue_link_id as number))).toBe(404);
  expect((await alice.gl.IssueLinks.all(web.id, login.iid)).map((i) => i.id)).toEqual([tokens.id]);

  // A moved issue's links follow it; a deleted issue's links go.
  const moved = await alice.gl.Issues.move(backend.id, tokens.iid, web.id);
  expect((await alice.gl.IssueLinks.all(web.id, login.iid)).map((i) => [i.id, i.link_type])).toEqual([[moved.id, "is_blocked_by"]]);
  expect((await alice.gl.IssueLinks.all(backend.id, tokens.iid))).toEqual([]);
  expect((await alice.gl.Issues.show(moved.iid, { projectId: web.id })).blocking_issues_count).toBe(1);
  await alice.gl.Issues.remove(web.id, moved.iid);
  expect(await alice.gl.IssueLinks.all(web.id, login.iid)).toEqual([]);
  expect(await alice.gl.IssueLinks.all(web.id, session.iid)).toEqual([]);
});

test("the list leaves out linked issues the caller may not read", async () => {
  const alice = await createUser(app, "alice");
  const bob = await createUser(app, "bob");
  const open = (await alice.api.post("/projects", { json: { name: "open", visibility: "public" } })).body;
  const secret = (await alice.api.post("/projects", { json: { name: "secret", visibility: "private" } })).body;
  await addMember(app, "projects", open.id, bob.id, 10);
  const a = (await alice.api.post(`/projects/${open.id}/issues`, { json: { title: "a" } })).body;
  const b = (await alice.api.post(`/projects/${open.id}/issues`, { json: { title: "b confidential", confidential: true } })).body;
  const c = (await alice.api.post(`/projects/${secret.id}/issues`, { json: { title: "c" } })).body;
  const d = (await alice.api.post(`/projects/${open.id}/issues`, { json: { title: "d" } })).body;
  for (const [pid, iid] of [[open.id, b.iid], [secret.id, c.iid], [open.id, d.iid]])
    expect((await alice.api.post(`/projects/${open.id}/issues/${a.iid}/links`, { json: { target_project_id: pid, target_issue_iid: iid } })).status).toBe(201);
  expect((await alice.api.get(`/projects/${open.id}/issues/${a.iid}/links`)).body.map((i: { title: string }) => i.title)).toEqual(["b confidential", "c", "d"]);
  expect((await bob.api.get(`/projects/${open.id}/issues/${a.iid}/links`)).body.map((i: { title: string }) => i.title)).toEqual(["d"]);
  // Bob (Guest) may not link to an issue of a project he cannot see, nor one he cannot link in.
  const other = (await alice.api.post(`/projects/${open.id}/issues`, { json: { title: "e" } })).body;
  expect(await bob.api.post(`/projects/${open.id}/issues/${a.iid}/links`, { json: { target_project_id: secret.id, target_issue_iid: c.iid } })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
  const elsewhere = (await alice.api.post("/projects", { json: { name: "elsewhere", visibility: "public" } })).body;
  const f = (await alice.api.post(`/projects/${elsewhere.id}/issues`, { json: { title: "f" } })).body;
  expect(await bob.api.post(`/projects/${open.id}/issues/${a.iid}/links`, { json: { target_project_id: elsewhere.id, target_issue_iid: f.iid } })).toMatchObject({
    status: 403,
    body: { message: "Couldn't link issues. You must have at least the Guest role in both projects." },
  });
  expect((await bob.api.post(`/projects/${open.id}/issues/${a.iid}/links`, { json: { target_project_id: open.id, target_issue_iid: other.iid } })).status).toBe(201);
});

const ROLES = ["anonymous", "non-member", "guest", "reporter", "developer"] as const;
type Role = (typeof ROLES)[number];
const outcome = (res: ApiResponse) => (res.status < 400 ? res.status : typeof res.body?.message === "string" ? res.body.message : `${res.status} ${JSON.stringify(res.body)}`);

async function world(visibility: "private" | "public") {
  const project = (await root.post("/projects", { json: { name: "app", visibility } })).body;
  const callers: Partial<Record<Role, ApiClient>> = { anonymous: apiClient(app.url) };
  const levels: Partial<Record<Role, number>> = { guest: 10, reporter: 20, developer: 30 };
  for (const role of ROLES.filter((r) => r !== "anonymous")) {
    const user = await createUser(app, role.replace("-", ""));
    callers[role] = user.api;
    if (levels[role]) await addMember(app, "projects", project.id, user.id, levels[role]);
  }
  const issue = async (title: string) => (await root.post(`/projects/${project.id}/issues`, { json: { title } })).body as { iid: number };
  return { projectId: project.id as number, callers: callers as Record<Role, ApiClient>, issue };
}

const expected = {
  private: {
    list: { anonymous: "401 Unauthorized", "non-member": "404 Project Not Found", guest: 200, reporter: 200, developer: 200 },
    create: { anonymous: "401 Unauthorized", "non-member": "404 Project Not Found", guest: 201, reporter: 201, developer: 201 },
    get: { anonymous: "401 Unauthorized", "non-member": "404 Project Not Found", guest: 200, reporter: 200, developer: 200 },
    remove: { anonymous: "401 Unauthorized", "non-member": "404 Project Not Found", guest: 200, reporter: 200, developer: 200 },
  },
  public: {
    list: { anonymous: "401 Unauthorized", "non-member": 200, guest: 200, reporter: 200, developer: 200 },
    create: { anonymous: "401 Unauthorized", "non-member": "403 Forbidden", guest: 201, reporter: 201, developer: 201 },
    get: { anonymous: "401 Unauthorized", "non-member": 200, guest: 200, reporter: 200, developer: 200 },
    remove: { anonymous: "401 Unauthorized", "non-member": "No Issue Link found", guest: 200, reporter: 200, developer: 200 },
  },
};

describe.each(["private", "public"] as const)("who may do what on a %s project", (visibility) => {
  test("list, link, show and unlink", async () => {
    const { projectId, callers, issue } = await world(visibility);
    const source = await issue("source");
    const base = `/projects/${projectId}/issues/${source.iid}/links`;
    const table = (fn: (role: Role) => Promise<ApiResponse>) =>
      ROLES.reduce<Promise<Record<string, unknown>>>(async (acc, role) => ({ ...(await acc), [role]: outcome(await fn(role)) }), Promise.resolve({}));

    expect(await table((role) => callers[role].get(base))).toEqual(expected[visibility].list);
    expect(
      await table(async (role) => callers[role].post(base, { json: { target_project_id: projectId, target_issue_iid: (await issue(`target of ${role}`)).iid } })),
    ).toEqual(expected[visibility].create);

    // Links made by root, one per role, to show and remove.
    const links: Partial<Record<Role, number>> = {};
    for (const role of ROLES) {
      const made = await root.post(base, { json: { target_project_id: projectId, target_issue_iid: (await issue(`root's ${role}`)).iid } });
      expect(made.status).toBe(201);
      links[role] = ((await root.get(base)).body as { id: number; issue_link_id: number }[]).find((i) => i.id === made.body.target_issue.id)!.issue_link_id;
    }
    expect(await table((role) => callers[role].get(`${base}/${links[role]}`))).toEqual(expected[visibility].get);
    expect(await table((role) => callers[role].delete(`${base}/${links[role]}`))).toEqual(expected[visibility].remove);
  });
});

test("an issue holds at most 100 links", async () => {
  const alice = await createUser(app, "alice");
  const project = (await alice.api.post("/projects", { json: { name: "busy", visibility: "private" } })).body;
  const newIssue = async (title: string) => (await alice.api.post(`/projects/${project.id}/issues`, { json: { title } })).body as { iid: number };
  const hub = await newIssue("hub");
  for (let i = 0; i < 100; i++) {
    const spoke = await newIssue(`spoke ${i}`);
    expect((await alice.api.post(`/projects/${project.id}/issues/${hub.iid}/links`, { json: { target_project_id: project.id, target_issue_iid: spoke.iid } })).status).toBe(201);
  }
  const last = await newIssue("one too many");
  expect(await alice.api.post(`/projects/${project.id}/issues/${last.iid}/links`, { json: { target_project_id: project.id, target_issue_iid: hub.iid } })).toMatchObject({
    status: 422,
    body: { message: `#${hub.iid} cannot be added: This issue would exceed the maximum number of linked issues (100).` },
  });
  expect((await alice.api.get(`/projects/${project.id}/issues/${hub.iid}/links`)).body).toHaveLength(100);
  expect((await alice.api.get(`/projects/${project.id}/issues/${last.iid}/links`)).body).toEqual([]);
});
