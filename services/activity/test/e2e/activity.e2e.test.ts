import { addMember, apiClient, createGroup, createPersonalAccessToken, createProject, createUser, eventually, GitClient, ProjectClone, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createMergeRequest } from "@collab/standalone/test/merge-requests";

/**
 * The activity service through the gateway: events recorded from real actions in other services
 * (issues, merge requests, comments, pushes), the three Events API routes with their filters,
 * ordering, pagination and visibility, the read_user scope, and group activity analytics.
 *
 * World (per test): private group "team" with private project "app" (dev: Developer, guest: Guest),
 * public group "open" with public project "site"; outsider belongs nowhere.
 */
let app: TestApp;
let root: ApiClient;
let dev: TestUser;
let guest: TestUser;
let outsider: TestUser;
let team: { id: number; full_path: string };
let priv: { id: number };
let pub: { id: number; path_with_namespace: string };
let git: GitClient;

beforeAll(async () => {
  app = await startApp("activity");
  git = new GitClient();
});
afterAll(async () => {
  git.cleanUp();
  await app.stop();
});

beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  team = await createGroup(root, "team", "team", { visibility: "private" });
  const open = await createGroup(root, "open", "open", { visibility: "public" });
  priv = await createProject(root, { name: "app", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
  pub = await createProject(root, { name: "site", namespace_id: open.id, visibility: "public", initialize_with_readme: true });
  dev = await createUser(app, "dev");
  guest = await createUser(app, "guest");
  outsider = await createUser(app, "outsider");
  await addMember(app, "groups", team.id, dev.id, 30);
  await addMember(app, "groups", team.id, guest.id, 10);
  await addMember(app, "groups", open.id, dev.id, 30);
});

async function openIssue(as: ApiClient, projectId: number, title: string, extra: Record<string, unknown> = {}) {
  const res = await as.post(`/projects/${projectId}/issues`, { json: { title, ...extra } });
  expect(res.status).toBe(201);
  return res.body as { id: number; iid: number };
}

/** Waits until `path` (as `as`) lists `n` events, and answers the response. */
async function eventsWhen(as: ApiClient, path: string, n: number) {
  return eventually(async () => {
    const res = await as.get(path);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(n);
    return res;
  });
}

describe("recording and the project events", () => {
  it("records issue, merge request, comment and push events with GitLab's action names and shapes", async () => {
    const issue = await openIssue(dev.api, pub.id, "Bug");
    expect((await dev.api.put(`/projects/${pub.id}/issues/${issue.iid}`, { json: { state_event: "close" } })).status).toBe(200);
    expect((await dev.api.post(`/projects/${pub.id}/issues/${issue.iid}/notes`, { json: { body: "looks fixed" } })).status).toBe(201);
    // dev pushes a new branch with git, then two more commits onto it.
    const clone = await ProjectClone.of(git, app.url, pub.path_with_namespace, dev);
    const start = await clone.commit("feature", "Start feature", { from: "origin/main" });
    await clone.pushOk("feature");
    await clone.commit("feature", "Prepare file");
    const head = await clone.commit("feature", `Add file ${"and more ".repeat(10)}`);
    await clone.pushOk("feature");
    const mr = await createMergeRequest(dev.api, pub.id, { title: "Feature", source_branch: "feature", target_branch: "main" });
    expect((await root.post(`/projects/${pub.id}/merge_requests/${mr.iid}/approve`, { json: {} })).status).toBe(201);
    expect((await root.put(`/projects/${pub.id}/merge_requests/${mr.iid}/merge`, { json: {} })).status).toBe(200);

    const res = await eventually(async () => {
      const r = await root.get(`/projects/${pub.id}/events?sort=asc&target_type=issue`);
      expect(r.body).toHaveLength(2);
      const all = await root.get(`/projects/${pub.id}/events?sort=asc&per_page=100`);
      expect(all.body.filter((e: { action_name: string }) => e.action_name === "accepted")).toHaveLength(1);
      return all;
    });
    const byAction = (name: string) => res.body.filter((e: { action_name: string }) => e.action_name === name);
    const [opened] = byAction("opened").filter((e: { target_type: string }) => e.target_type === "Issue");
    expect(opened).toMatchObject({
      title: null,
      project_id: pub.id,
      target_id: issue.id,
      target_iid: issue.iid,
      target_type: "Issue",
      author_id: dev.id,
      author_username: "dev",
      author: { id: dev.id, username: "dev" },
      target_title: "Bug",
      imported: false,
      imported_from: "none",
      data: null,
    });
    expect(byAction("closed")[0]).toMatchObject({ target_type: "Issue", target_iid: issue.iid });
    const [comment] = byAction("commented on");
    expect(comment).toMatchObject({ target_type: "Note", author_id: dev.id, note: { body: "looks fixed", system: false, noteable_type: "Issue", noteable_iid: issue.iid, attachment: null, author: { id: dev.id } } });
    expect(byAction("pushed new")[0]).toMatchObject({ author_id: dev.id, push_data: { action: "created", ref_type: "branch", ref: "feature", commit_count: 1, commit_from: null, commit_to: start, commit_title: "Start feature", ref_count: null } });
    // The newest commit's title, cut at 70 characters as GitLab's.
    const title = `Add file ${"and more ".repeat(10)}`;
    expect(byAction("pushed to")[0]).toMatchObject({ author_id: dev.id, push_data: { action: "pushed", ref_type: "branch", ref: "feature", commit_count: 2, commit_from: start, commit_to: head, commit_title: `${title.slice(0, 67)}...`, ref_count: null } });
    expect(byAction("approved")[0]).toMatchObject({ target_type: "MergeRequest", target_iid: mr.iid, author_id: 1 });
    expect(byAction("accepted")[0]).toMatchObject({ target_type: "MergeRequest", target_id: mr.id, target_title: "Feature" });
    // The close of the merge request's state is not a separate event; system notes record none.
    expect(res.body.every((e: { note?: { system: boolean } }) => !e.note || !e.note.system)).toBe(true);
    // Ascending by id.
    const ids = res.body.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("records project creation, milestones, project members joining and leaving, and ref pushes", async () => {
    const milestone = await root.post(`/projects/${pub.id}/milestones`, { json: { title: "v1" } });
    expect(milestone.status).toBe(201);
    expect((await root.put(`/projects/${pub.id}/milestones/${milestone.body.id}`, { json: { state_event: "close" } })).status).toBe(200);
    expect((await root.delete(`/projects/${pub.id}/milestones/${milestone.body.id}`)).status).toBe(204);
    await addMember(app, "projects", pub.id, outsider.id, 20);
    expect((await root.delete(`/projects/${pub.id}/members/${outsider.id}`)).status).toBe(204);
    const clone = await ProjectClone.of(git, app.url, pub.path_with_namespace, { username: "root", token: app.rootToken });
    await clone.pushOk("main:refs/heads/topic");
    await clone.pushOk("--delete", "topic");
    await clone.run(["tag", "v1.0", "main"]);
    await clone.pushOk("v1.0");

    const res = await eventually(async () => {
      const r = await root.get(`/projects/${pub.id}/events?sort=asc&per_page=100`);
      expect(r.body.some((e: { push_data?: { ref_type: string } }) => e.push_data?.ref_type === "tag")).toBe(true);
      expect(r.body.some((e: { action_name: string }) => e.action_name === "left")).toBe(true);
      return r;
    });
    const summary = res.body.map((e: { action_name: string; target_type: string | null; target_title: string | null; author_id: number; push_data?: { ref: string } }) =>
      [e.action_name, e.target_type, e.target_title ?? e.push_data?.ref ?? null, e.author_id]);
    expect(summary).toEqual(expect.arrayContaining([
      ["created", null, null, 1],
      ["opened", "Milestone", "v1", 1],
      ["closed", "Milestone", "v1", 1],
      ["destroyed", "Milestone", "v1", 1],
      ["joined", null, null, outsider.id],
      ["left", null, null, outsider.id],
      ["pushed new", null, "topic", 1],
      ["deleted", null, "topic", 1],
      ["pushed new", null, "v1.0", 1],
    ]));
    expect((await root.get(`/projects/${pub.id}/events?action=joined`)).body).toHaveLength(1);
    expect((await root.get(`/projects/${pub.id}/events?target_type=milestone`)).body).toHaveLength(3);
    expect((await root.get(`/projects/${pub.id}/events?target_type=project`)).body).toEqual([]);
    // Group memberships record nothing (GitLab records joined/left for projects only).
    expect((await root.get(`/users/${dev.id}/events?action=joined`)).body).toEqual([]);
  });

  it("filters by action, target_type and dates, sorts, paginates with headers, and rejects bad filters", async () => {
    for (const t of ["one", "two", "three"]) await openIssue(dev.api, pub.id, t);
    await dev.api.put(`/projects/${pub.id}/issues/1`, { json: { state_event: "close" } });
    // The project's own "created" event and four issue events.
    await eventsWhen(root, `/projects/${pub.id}/events`, 5);

    const closed = await root.get(`/projects/${pub.id}/events?action=closed`);
    expect(closed.body.map((e: { action_name: string }) => e.action_name)).toEqual(["closed"]);
    const created = await root.get(`/projects/${pub.id}/events?action=created&sort=asc`);
    expect(created.body.map((e: { target_title: string }) => e.target_title)).toEqual([null, "one", "two", "three"]);
    const desc = await root.get(`/projects/${pub.id}/events?action=created`);
    expect(desc.body.map((e: { target_title: string }) => e.target_title)).toEqual(["three", "two", "one", null]);
    expect((await root.get(`/projects/${pub.id}/events?target_type=merge_request`)).body).toEqual([]);

    const paged = await root.get(`/projects/${pub.id}/events?per_page=3&page=2`);
    expect(paged.body).toHaveLength(2);
    expect(paged.headers.get("x-total")).toBe("5");
    expect(paged.headers.get("x-total-pages")).toBe("2");
    expect(paged.headers.get("x-page")).toBe("2");
    expect(paged.headers.get("x-prev-page")).toBe("1");

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    // Both bounds are exclusive whole days.
    expect((await root.get(`/projects/${pub.id}/events?before=${today}`)).body).toHaveLength(0);
    expect((await root.get(`/projects/${pub.id}/events?before=${tomorrow}`)).body).toHaveLength(5);
    expect((await root.get(`/projects/${pub.id}/events?after=${today}`)).body).toHaveLength(0);
    expect((await root.get(`/projects/${pub.id}/events?after=${yesterday}`)).body).toHaveLength(5);

    const bad = await root.get(`/projects/${pub.id}/events?target_type=work_item`);
    // Epics are a target type (EE), though a project has no epic events.
    expect((await root.get(`/projects/${pub.id}/events?target_type=epic`)).body).toEqual([]);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: "target_type does not have a valid value" });
    expect((await root.get(`/projects/${pub.id}/events?action=opened`)).body).toEqual({ error: "action does not have a valid value" });
    expect((await root.get(`/projects/${pub.id}/events?sort=up`)).status).toBe(400);
    expect((await root.get(`/projects/${pub.id}/events?before=yesterday`)).body).toEqual({ error: "before is invalid" });
  });

  it("hides private projects from outsiders and confidential issues from guests", async () => {
    await openIssue(dev.api, priv.id, "Secret", { confidential: true });
    await openIssue(dev.api, priv.id, "Plain");
    await eventsWhen(dev.api, `/projects/${priv.id}/events?target_type=issue`, 2);

    const hidden = await outsider.api.get(`/projects/${priv.id}/events`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: "404 Project Not Found" });
    expect((await apiClient(app.url).get(`/projects/${priv.id}/events`)).status).toBe(404);
    const asGuest = await guest.api.get(`/projects/${priv.id}/events?target_type=issue`);
    expect(asGuest.body.map((e: { target_title: string }) => e.target_title)).toEqual(["Plain"]);
    // dev's own events on any project the outsider cannot read stay hidden on dev's profile too.
    expect((await outsider.api.get(`/users/${dev.id}/events`)).body).toEqual([]);
    expect((await guest.api.get(`/users/dev/events`)).body.map((e: { target_title: string }) => e.target_title)).toEqual(["Plain"]);
  });

  it("hides issue events of a project whose issues are private to members from non-members", async () => {
    await openIssue(dev.api, pub.id, "members only");
    expect((await root.put(`/projects/${pub.id}`, { json: { issues_access_level: "private" } })).status).toBe(200);
    await eventsWhen(dev.api, `/projects/${pub.id}/events?target_type=issue`, 1);
    expect((await outsider.api.get(`/projects/${pub.id}/events?target_type=issue`)).body).toEqual([]);
    expect((await outsider.api.get(`/users/dev/events`)).body).toEqual([]);
    // The project's own "created" event stays visible.
    expect((await outsider.api.get(`/projects/${pub.id}/events`)).body).toHaveLength(1);
  });
});

describe("own and user events", () => {
  it("lists the caller's own events, everything in their projects with scope=all, and accepts read_user tokens", async () => {
    await openIssue(dev.api, pub.id, "mine");
    await openIssue(root, priv.id, "roots");
    await eventsWhen(dev.api, "/events", 1);
    expect((await dev.api.get("/events")).body[0]).toMatchObject({ target_title: "mine", author_id: dev.id });
    // Both projects' "created" events (by root) and both issues.
    const all = await eventsWhen(dev.api, "/events?scope=all", 4);
    expect(all.body.map((e: { target_title: string | null }) => e.target_title)).toEqual(["roots", "mine", null, null]);
    expect((await outsider.api.get("/events?scope=all")).body).toEqual([]);

    expect((await apiClient(app.url).get("/events")).status).toBe(401);
    const { token } = await createPersonalAccessToken(app, dev.id, { scopes: ["read_user"] });
    const readUser = apiClient(app.url, token);
    expect((await readUser.get("/events")).status).toBe(200);
    expect((await readUser.get(`/users/${dev.id}/events`)).status).toBe(200);
    const project = await readUser.get(`/projects/${pub.id}/events`);
    expect(project.status).toBe(403);
    expect(project.body).toMatchObject({ error: "insufficient_scope" });
  });

  it("finds users by id or username, 404 for unknown ones, and shows nothing of a private profile or blocked user", async () => {
    await openIssue(dev.api, pub.id, "public work");
    await eventsWhen(apiClient(app.url), `/users/dev/events`, 1);
    expect((await apiClient(app.url).get(`/users/${dev.id}/events`)).body).toHaveLength(1);
    const missing = await root.get("/users/nobody/events");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "404 User Not Found" });

    expect((await root.put(`/users/${dev.id}`, { json: { private_profile: true } })).status).toBe(200);
    expect((await outsider.api.get(`/users/${dev.id}/events`)).body).toEqual([]);
    expect((await dev.api.get(`/users/${dev.id}/events`)).body).toHaveLength(1);
    expect((await root.get(`/users/${dev.id}/events`)).body).toHaveLength(1);
  });

  it("drops a project's events when the project is deleted", async () => {
    await openIssue(dev.api, pub.id, "doomed");
    await eventsWhen(dev.api, "/events", 1);
    expect((await root.delete(`/projects/${pub.id}`)).status).toBe(202);
    expect((await root.delete(`/projects/${pub.id}`, { query: { permanently_remove: true, full_path: "open/site" } })).status).toBe(202);
    await eventually(async () => expect((await dev.api.get("/events")).body).toEqual([]));
  });
});

describe("group activity analytics", () => {
  const A = "/analytics/group_activity";

  it("counts recent issues, merge requests and new group members in the group tree", async () => {
    const sub = await createGroup(root, "sub", "sub", { parent_id: team.id });
    const inner = await createProject(root, { name: "inner", namespace_id: sub.id, initialize_with_readme: true });
    await openIssue(dev.api, priv.id, "a");
    await openIssue(dev.api, inner.id, "b");
    await openIssue(root, priv.id, "secret", { confidential: true });
    const old = await openIssue(root, priv.id, "old");
    expect((await root.put(`/projects/${priv.id}/issues/${old.iid}`, { json: { created_at: "2020-01-01T00:00:00Z" } })).status).toBe(200);
    expect((await root.post(`/projects/${inner.id}/repository/branches`, { json: { branch: "f", ref: "main" } })).status).toBe(201);
    await createMergeRequest(dev.api, inner.id, { title: "MR", source_branch: "f", target_branch: "main" });
    const extra = await createUser(app, "extra");
    await addMember(app, "groups", sub.id, extra.id, 20);
    await addMember(app, "projects", inner.id, outsider.id, 30); // project members are not counted

    const q = `?group_path=${encodeURIComponent(team.full_path)}`;
    expect((await root.get(`${A}/issues_count${q}`)).body).toEqual({ issues_count: 3 });
    expect((await root.get(`${A}/merge_requests_count${q}`)).body).toEqual({ merge_requests_count: 1 });
    // root (creator of both groups), dev, guest, and extra in the subgroup; not the project member.
    expect((await root.get(`${A}/new_members_count${q}`)).body).toEqual({ new_members_count: 5 });
    expect((await root.get(`${A}/issues_count?group_path=team/sub`)).body).toEqual({ issues_count: 1 });
  });

  it("answers 400 without group_path, 401 anonymous, 404 unknown or hidden, 403 below Reporter", async () => {
    expect((await root.get(`${A}/issues_count`)).body).toEqual({ error: "group_path is missing" });
    expect((await apiClient(app.url).get(`${A}/issues_count?group_path=team`)).status).toBe(401);
    const hidden = await outsider.api.get(`${A}/issues_count?group_path=team`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: "404 Group Not Found" });
    expect((await root.get(`${A}/new_members_count?group_path=nope`)).status).toBe(404);
    expect((await guest.api.get(`${A}/merge_requests_count?group_path=team`)).status).toBe(403);
    expect((await dev.api.get(`${A}/merge_requests_count?group_path=team`)).status).toBe(200);
  });
});
