import { Gitlab } from "@gitbeaker/rest";
import { addMember, apiClient, assertStatus as ok, createGroup, createProject, createUser, eventually, watchEvents, type ApiClient, type SeenEvent, type ApiResponse, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import type { EventContract } from "@collab/core";
import { Issues } from "@collab/issues-contract";

/**
 * Issue writes through the HTTP gateway: create, edit (every parameter), delete, reorder, move,
 * clone, subscriptions, who may do what on private and public projects, and the domain events
 * the bus carries.
 *
 * The world (built before each test, after a reset):
 *   platform (private group) ─ platform/api (private), platform/target (private), platform/secret (private)
 *   root/pub (public)
 *   owner (50), maintainer (40), developer (30), reporter (20), guest (10) on api and on pub;
 *   developer is also a Developer of target, reporter a Guest of target; outsider belongs nowhere.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("issue-writes");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

// ---- helpers ------------------------------------------------------------------------------------

async function seed() {
  const group = await createGroup(root, "Platform", "platform", { visibility: "private" });
  const project = async (name: string, extra: Record<string, unknown>) => (await createProject(root, { name, ...extra })) as { id: number; path_with_namespace: string };
  const [api, target, secret, pub] = await Promise.all([
    project("api", { namespace_id: group.id, visibility: "private" }),
    project("target", { namespace_id: group.id, visibility: "private" }),
    project("secret", { namespace_id: group.id, visibility: "private" }),
    project("pub", { visibility: "public" }),
  ]);
  const [owner, maintainer, developer, reporter, guest, outsider] = await Promise.all(
    ["owner", "maintainer", "developer", "reporter", "guest", "outsider"].map((u) => createUser(app, u, { name: u[0].toUpperCase() + u.slice(1) })),
  );
  const member = (projectId: number, user: { id: number }, level: number) => addMember(app, "projects", projectId, user.id, level);
  await Promise.all([
    ...[api, pub].flatMap((p) => [member(p.id, owner, 50), member(p.id, maintainer, 40), member(p.id, developer, 30), member(p.id, reporter, 20), member(p.id, guest, 10)]),
    member(target.id, developer, 30),
    member(target.id, reporter, 10),
  ]);
  return { group, api, target, secret, pub, owner, maintainer, developer, reporter, guest, outsider };
}
type World = Awaited<ReturnType<typeof seed>>;

interface Issue {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  state: string;
  labels: string[];
  assignees: { id: number; username: string }[];
  milestone: { id: number; title: string } | null;
  assignee?: { id: number; username: string } | null;
  [k: string]: unknown;
}

const issuePath = (projectId: number, iid?: number) => `/projects/${projectId}/issues${iid === undefined ? "" : `/${iid}`}`;

async function createIssue(as: ApiClient, projectId: number, body: Record<string, unknown>): Promise<Issue> {
  return ok(await as.post(issuePath(projectId), { json: body }), 201, `create ${String(body.title)}`).body;
}

async function edit(as: ApiClient, projectId: number, iid: number, body: Record<string, unknown>): Promise<Issue> {
  return ok(await as.put(issuePath(projectId, iid), { json: body }), 200, `edit ${JSON.stringify(body).slice(0, 80)}`).body;
}

const label = async (projectId: number, name: string) => ok(await root.post(`/projects/${projectId}/labels`, { json: { name, color: "#00FF00" } }), 201, `label ${name}`).body;
const milestone = async (projectId: number, title: string) => ok(await root.post(`/projects/${projectId}/milestones`, { json: { title } }), 201, `milestone ${title}`).body as { id: number };

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const recent = (iso: unknown) => typeof iso === "string" && Math.abs(Date.parse(iso) - Date.now()) < 60_000;

// ---- create -------------------------------------------------------------------------------------

describe("POST /projects/:id/issues", () => {
  let w: World;
  beforeEach(async () => {
    w = await seed();
  });

  test("a fresh issue has GitLab's full shape", async () => {
    const res = await w.developer.api.post(issuePath(w.api.id), { json: { title: "First bug" } });
    expect(res.status).toBe(201);
    const author = { id: w.developer.id, username: "developer", name: "Developer", state: "active", locked: false, avatar_url: null, web_url: "http://collab.test/developer" };
    const api = `http://collab.test/api/v4/projects/${w.api.id}`;
    expect(res.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: w.api.id,
      title: "First bug",
      description: null,
      state: "opened",
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      closed_at: null,
      closed_by: null,
      labels: [],
      milestone: null,
      assignees: [],
      author,
      type: "ISSUE",
      assignee: null,
      user_notes_count: 0,
      merge_requests_count: 0,
      upvotes: 0,
      downvotes: 0,
      due_date: null,
      confidential: false,
      discussion_locked: null,
      issue_type: "issue",
      web_url: "http://collab.test/platform/api/-/issues/1",
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: { count: 0, completed_count: 0 },
      has_tasks: true,
      task_status: "0 of 0 checklist items completed",
      _links: { self: `${api}/issues/1`, notes: `${api}/issues/1/notes`, award_emoji: `${api}/issues/1/award_emoji`, project: api, closed_as_duplicate_of: null },
      references: { short: "#1", relative: "#1", full: "platform/api#1" },
      severity: "UNKNOWN",
      subscribed: true,
      moved_to_id: null,
      service_desk_reply_to: null,
      imported: false,
      imported_from: "none",
      // Ultimate (the default tier) adds these.
      weight: null,
      epic_iid: null,
      epic: null,
      iteration: null,
      health_status: null,
      blocking_issues_count: 0,
    });
    expect(recent(res.body.created_at)).toBe(true);
    expect(res.body.updated_at).toBe(res.body.created_at);
    // GET answers the same document.
    expect((await w.developer.api.get(issuePath(w.api.id, 1))).body).toEqual(res.body);
  });

  test("checklists in the description are counted", async () => {
    const issue = await createIssue(w.developer.api, w.api.id, { title: "Tasks", description: "- [x] one\n- [ ] two\n* [X] three\n1. [ ] four\n- [~] n/a\nplain" });
    expect(issue).toMatchObject({ task_completion_status: { count: 4, completed_count: 2 }, has_tasks: true, task_status: "2 of 4 checklist items completed" });
  });

  test("title is required and validated", async () => {
    const missing = await w.developer.api.post(issuePath(w.api.id), { json: { description: "no title" } });
    expect([missing.status, missing.body]).toEqual([400, { error: "title is missing" }]);
    const blank = await w.developer.api.post(issuePath(w.api.id), { json: { title: "  " } });
    expect([blank.status, blank.body]).toEqual([400, { message: { title: ["can't be blank"] } }]);
    const long = await w.developer.api.post(issuePath(w.api.id), { json: { title: "x".repeat(256) } });
    expect([long.status, long.body]).toEqual([400, { message: { title: ["is too long (maximum is 255 characters)"] } }]);
    expect((await w.developer.api.post(issuePath(w.api.id), { json: { title: "x".repeat(255) } })).status).toBe(201);
    // Nothing was created by the failures.
    expect((await root.get(issuePath(w.api.id))).body.map((i: Issue) => i.iid)).toEqual([1]);
  });

  test("iids are per project, start at 1 and are never reused", async () => {
    expect((await createIssue(w.developer.api, w.api.id, { title: "a" })).iid).toBe(1);
    expect((await createIssue(w.developer.api, w.api.id, { title: "b" })).iid).toBe(2);
    expect((await createIssue(w.developer.api, w.target.id, { title: "c" })).iid).toBe(1);
    ok(await root.delete(issuePath(w.api.id, 2)), 204, "delete");
    expect((await createIssue(w.developer.api, w.api.id, { title: "d" })).iid).toBe(3);
  });

  test("iid and created_at are honoured for administrators and owners only; a taken iid is 409", async () => {
    const asDev = await createIssue(w.developer.api, w.api.id, { title: "dev", iid: 40, created_at: "2020-01-02T03:04:05Z" });
    expect(asDev.iid).toBe(1);
    expect(recent(asDev.created_at)).toBe(true);
    const asMaintainer = await createIssue(w.maintainer.api, w.api.id, { title: "maintainer", iid: 41, created_at: "2020-01-02T03:04:05Z" });
    expect(asMaintainer.iid).toBe(2);

    const asOwner = await createIssue(w.owner.api, w.api.id, { title: "owner", iid: 10, created_at: "2020-01-02T03:04:05Z" });
    expect(asOwner).toMatchObject({ iid: 10, created_at: "2020-01-02T03:04:05.000Z", updated_at: "2020-01-02T03:04:05.000Z" });
    const asAdmin = await createIssue(root, w.api.id, { title: "admin", iid: 20, created_at: "2021-06-07T08:09:10+02:00" });
    expect(asAdmin).toMatchObject({ iid: 20, created_at: "2021-06-07T06:09:10.000Z" });
    // The sequence continues after the highest explicit iid.
    expect((await createIssue(w.developer.api, w.api.id, { title: "next" })).iid).toBe(21);

    const taken = await root.post(issuePath(w.api.id), { json: { title: "again", iid: 10 } });
    expect([taken.status, taken.body]).toEqual([409, { message: "Duplicated issue" }]);
  });

  test("labels create unknown project labels; assignees must see the project; milestones of the project only", async () => {
    await label(w.api.id, "bug");
    const v1 = await milestone(w.api.id, "v1");
    const elsewhere = await milestone(w.target.id, "v1-other");
    const issue = await createIssue(w.developer.api, w.api.id, {
      title: "Labelled",
      labels: "bug,brand-new",
      assignee_ids: [w.reporter.id, w.guest.id, w.outsider.id],
      milestone_id: v1.id,
    });
    expect(issue.labels).toEqual(["brand-new", "bug"]);
    expect(issue.assignees.map((u) => u.username).sort()).toEqual(["guest", "reporter"]);
    expect(issue.assignee).toEqual(issue.assignees[0]);
    expect(issue.milestone).toMatchObject({ id: v1.id, title: "v1" });
    const labels = await root.get(`/projects/${w.api.id}/labels`);
    expect(labels.body.map((l: { name: string }) => l.name).sort()).toEqual(["brand-new", "bug"]);

    const foreign = await createIssue(w.developer.api, w.api.id, { title: "Foreign milestone", milestone_id: elsewhere.id });
    expect(foreign.milestone).toBeNull();
    const single = await createIssue(w.developer.api, w.api.id, { title: "assignee_id", assignee_id: w.reporter.id });
    expect(single.assignees.map((u) => u.id)).toEqual([w.reporter.id]);
    const both = await w.developer.api.post(issuePath(w.api.id), { json: { title: "x", assignee_id: w.reporter.id, assignee_ids: [w.reporter.id] } });
    expect([both.status, both.body]).toEqual([400, { error: "assignee_id, assignee_ids are mutually exclusive" }]);

    // A Guest files issues but cannot set their metadata, nor create labels through them.
    const byGuest = await createIssue(w.guest.api, w.api.id, { title: "From a guest", labels: "guest-label", assignee_ids: [w.guest.id], milestone_id: v1.id, due_date: "2030-01-01" });
    expect(byGuest).toMatchObject({ labels: [], assignees: [], milestone: null, due_date: null });
    expect((await root.get(`/projects/${w.api.id}/labels`)).body.map((l: { name: string }) => l.name)).not.toContain("guest-label");
  });

  test("who may create: members of private projects, any signed-in user on public ones", async () => {
    expect((await w.outsider.api.post(issuePath(w.api.id), { json: { title: "x" } })).body).toEqual({ message: "404 Project Not Found" });
    expect((await apiClient(app.url).post(issuePath(w.pub.id), { json: { title: "x" } })).status).toBe(401);
    const onPublic = await createIssue(w.outsider.api, w.pub.id, { title: "Question", confidential: true });
    expect(onPublic).toMatchObject({ author: { username: "outsider" }, confidential: true, references: { full: "root/pub#1" } });
  });
});

// ---- edit ---------------------------------------------------------------------------------------

describe("PUT /projects/:id/issues/:issue_iid", () => {
  let w: World;
  let P: (iid?: number) => string;
  beforeEach(async () => {
    w = await seed();
    P = (iid?: number) => issuePath(w.api.id, iid);
  });

  test("title and description, with the description limit of 1,048,576 characters", async () => {
    await createIssue(w.developer.api, w.api.id, { title: "Old" });
    const updated = await edit(w.reporter.api, w.api.id, 1, { title: "New", description: "Body" });
    expect(updated).toMatchObject({ title: "New", description: "Body", subscribed: false });
    expect(Date.parse(String(updated.updated_at))).toBeGreaterThan(Date.parse(String(updated.created_at)));

    expect((await edit(w.reporter.api, w.api.id, 1, { description: "y".repeat(1_048_576) })).description).toHaveLength(1_048_576);
    const tooLong = await w.reporter.api.put(P(1), { json: { description: "y".repeat(1_048_577) } });
    expect([tooLong.status, tooLong.body]).toEqual([400, { message: { description: ["is too long (maximum is 1048576 characters)"] } }]);
    const blank = await w.reporter.api.put(P(1), { json: { title: "" } });
    expect([blank.status, blank.body]).toEqual([400, { message: { title: ["can't be blank"] } }]);
    expect((await root.get(P(1))).body.title).toBe("New");
  });

  test("no parameter at all is a 400 naming the accepted ones", async () => {
    await createIssue(w.developer.api, w.api.id, { title: "x" });
    const res = await w.developer.api.put(P(1), { json: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error:
        "assignee_id, assignee_ids, confidential, created_at, description, discussion_locked, due_date, issue_type, labels, milestone_id, state_event, title are missing, at least one parameter must be provided",
    });
    const unknown = await w.developer.api.put(P(99), { json: { title: "x" } });
    expect([unknown.status, unknown.body]).toEqual([404, { message: "404 Not found" }]);
  });

  test("labels, add_labels and remove_labels combine: replace, then add, then remove", async () => {
    await label(w.api.id, "a");
    await createIssue(w.developer.api, w.api.id, { title: "x", labels: "a,b" });
    expect((await edit(w.developer.api, w.api.id, 1, { labels: "c,d", add_labels: "e", remove_labels: "d" })).labels).toEqual(["c", "e"]);
    expect((await edit(w.developer.api, w.api.id, 1, { add_labels: "f,a" })).labels).toEqual(["a", "c", "e", "f"]);
    expect((await edit(w.developer.api, w.api.id, 1, { remove_labels: "c,unknown" })).labels).toEqual(["a", "e", "f"]);
    expect((await edit(w.developer.api, w.api.id, 1, { add_labels: ["g"], remove_labels: ["a", "e"] })).labels).toEqual(["f", "g"]);
    expect((await edit(w.developer.api, w.api.id, 1, { labels: "" })).labels).toEqual([]);
    // Unknown names became project labels; remove_labels never creates one.
    const names = (await root.get(`/projects/${w.api.id}/labels`, { query: { per_page: 100 } })).body.map((l: { name: string }) => l.name).sort();
    expect(names).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
    // Form-encoded lists work too.
    const form = await w.developer.api.put(P(1), { form: { labels: "x,y" } });
    expect(form.body.labels).toEqual(["x", "y"]);
  });

  test("assignee_ids replace the assignees; 0, an empty value or [] clear them", async () => {
    await createIssue(w.developer.api, w.api.id, { title: "x" });
    const two = await edit(w.developer.api, w.api.id, 1, { assignee_ids: [w.reporter.id, w.guest.id] });
    expect(two.assignees.map((u) => u.username).sort()).toEqual(["guest", "reporter"]);
    expect((await edit(w.developer.api, w.api.id, 1, { assignee_ids: 0 })).assignees).toEqual([]);
    await edit(w.developer.api, w.api.id, 1, { assignee_ids: [w.reporter.id] });
    expect((await edit(w.developer.api, w.api.id, 1, { assignee_ids: "" })).assignees).toEqual([]);
    await edit(w.developer.api, w.api.id, 1, { assignee_ids: [w.reporter.id] });
    expect((await edit(w.developer.api, w.api.id, 1, { assignee_ids: [] })).assignees).toEqual([]);
    expect((await w.developer.api.put(P(1), { form: { "assignee_ids[]": "0" } })).body.assignees).toEqual([]);
    const viaId = await edit(w.developer.api, w.api.id, 1, { assignee_id: w.guest.id });
    expect([viaId.assignees.map((u) => u.id), viaId.assignee?.id]).toEqual([[w.guest.id], w.guest.id]);
    expect((await edit(w.developer.api, w.api.id, 1, { assignee_id: 0 })).assignee).toBeNull();
    // Someone who cannot see the private project is not assigned.
    expect((await edit(w.developer.api, w.api.id, 1, { assignee_ids: [w.outsider.id] })).assignees).toEqual([]);
  });

  test("milestone_id sets the milestone (the project's or its groups'); 0, empty or a foreign one removes it", async () => {
    const v1 = await milestone(w.api.id, "v1");
    const groupMilestone = ok(await root.post(`/groups/${w.group.id}/milestones`, { json: { title: "q3" } }), 201, "group milestone").body;
    const foreign = await milestone(w.target.id, "elsewhere");
    await createIssue(w.developer.api, w.api.id, { title: "x" });
    expect((await edit(w.developer.api, w.api.id, 1, { milestone_id: v1.id })).milestone).toMatchObject({ id: v1.id, title: "v1", project_id: w.api.id });
    expect((await edit(w.developer.api, w.api.id, 1, { milestone_id: 0 })).milestone).toBeNull();
    await edit(w.developer.api, w.api.id, 1, { milestone_id: v1.id });
    expect((await edit(w.developer.api, w.api.id, 1, { milestone_id: "" })).milestone).toBeNull();
    expect((await edit(w.developer.api, w.api.id, 1, { milestone_id: groupMilestone.id })).milestone).toMatchObject({ id: groupMilestone.id, title: "q3", group_id: w.group.id });
    expect((await edit(w.developer.api, w.api.id, 1, { milestone_id: foreign.id })).milestone).toBeNull();
  });

  test("state_event closes and reopens, recording closed_at, closed_by and state events", async () => {
    await createIssue(w.developer.api, w.api.id, { title: "x" });
    const closed = await edit(w.reporter.api, w.api.id, 1, { state_event: "close" });
    expect(closed).toMatchObject({ state: "closed", closed_by: { id: w.reporter.id, username: "reporter" } });
    expect(recent(closed.closed_at)).toBe(true);
    // Closing a closed issue changes nothing.
    expect((await edit(w.developer.api, w.api.id, 1, { state_event: "close" })).closed_by).toMatchObject({ username: "reporter" });
    const reopened = await edit(w.developer.api, w.api.id, 1, { state_event: "reopen" });
    expect(reopened).toMatchObject({ state: "opened", closed_at: null, closed_by: null });
    const events = await w.developer.api.get(`${P(1)}/resource_state_events`);
    expect(events.body.map((e: { state: string; user: { username: string } }) => [e.state, e.user.username])).toEqual([
      ["closed", "reporter"],
      ["reopened", "developer"],
    ]);
    const bad = await w.developer.api.put(P(1), { json: { state_event: "merge" } });
    expect([bad.status, bad.body]).toEqual([400, { error: "state_event does not have a valid value" }]);
    // The issue lists see the state.
    expect((await w.developer.api.get(issuePath(w.api.id), { query: { state: "closed" } })).body).toEqual([]);
  });

  test("concurrent closes of one issue all answer it closed, and record one close", async () => {
    await createIssue(w.developer.api, w.api.id, { title: "x" });
    const answers = await Promise.all([w.developer, w.reporter, w.developer, w.reporter].map((u) => edit(u.api, w.api.id, 1, { state_event: "close" })));
    expect(answers.map((a) => a.state)).toEqual(["closed", "closed", "closed", "closed"]);
    expect(new Set(answers.map((a) => a.closed_at)).size).toBe(1);
    const events = await w.developer.api.get(`${P(1)}/resource_state_events`);
    expect(events.body.map((e: { state: string }) => e.state)).toEqual(["closed"]);
  });

  test("due_date, confidential, discussion_locked, issue_type, weight and health_status", async () => {
    await createIssue(w.developer.api, w.api.id, { title: "x" });
    const updated = await edit(w.developer.api, w.api.id, 1, {
      due_date: "2030-05-01",
      confidential: true,
      discussion_locked: true,
      issue_type: "incident",
      weight: 5,
      health_status: "needs_attention",
    });
    expect(updated).toMatchObject({ due_date: "2030-05-01", confidential: true, discussion_locked: true, issue_type: "incident", type: "INCIDENT", weight: 5, health_status: "needs_attention" });
    const cleared = await edit(w.developer.api, w.api.id, 1, { due_date: "", confidential: false, discussion_locked: false, issue_type: "issue", weight: "", health_status: "" });
    expect(cleared).toMatchObject({ due_date: null, confidential: false, discussion_locked: false, issue_type: "issue", weight: null, health_status: null });
    for (const [body, error] of [
      [{ due_date: "tomorrow" }, "due_date is invalid"],
      [{ confidential: "maybe" }, "confidential is invalid"],
      [{ issue_type: "epic" }, "issue_type does not have a valid value"],
      [{ weight: -1 }, "weight does not have a valid value"],
      [{ health_status: "fine" }, "health_status does not have a valid value"],
    ] as const) {
      const res = await w.developer.api.put(P(1), { json: body });
      expect([body, res.status, res.body]).toEqual([body, 400, { error }]);
    }
  });

  test("updated_at: administrators and owners only, never empty", async () => {
    const created = await createIssue(w.developer.api, w.api.id, { title: "x" });
    const byAdmin = await edit(root, w.api.id, 1, { title: "y", updated_at: "2031-02-03T04:05:06Z" });
    expect(byAdmin.updated_at).toBe("2031-02-03T04:05:06.000Z");
    expect((await edit(w.owner.api, w.api.id, 1, { title: "z", updated_at: "2032-01-01T00:00:00Z" })).updated_at).toBe("2032-01-01T00:00:00.000Z");
    // Others' updated_at is ignored, as GitLab drops it.
    const byDev = await edit(w.developer.api, w.api.id, 1, { title: "w", updated_at: "2033-01-01T00:00:00Z" });
    expect(byDev.title).toBe("w");
    expect(recent(byDev.updated_at)).toBe(true);
    expect(byDev.created_at).toBe(created.created_at);
    for (const value of ["", null]) {
      const res = await root.put(P(1), { json: { title: "v", updated_at: value } });
      expect([value, res.status, res.body]).toEqual([value, 400, { error: "updated_at is empty" }]);
    }
  });

  test("who may edit what: Guests edit their own issues but not the metadata", async () => {
    const v1 = await milestone(w.api.id, "v1");
    await createIssue(w.developer.api, w.api.id, { title: "by developer" });
    await createIssue(w.guest.api, w.api.id, { title: "by guest" });
    const denied = await w.guest.api.put(P(1), { json: { title: "hijack" } });
    expect([denied.status, denied.body]).toEqual([403, { message: "403 Forbidden" }]);
    const own = await edit(w.guest.api, w.api.id, 2, { title: "renamed", labels: "x", milestone_id: v1.id, state_event: "close" });
    expect(own).toMatchObject({ title: "renamed", labels: [], milestone: null, state: "closed" });
    // An assigned Guest may edit the issue too.
    await edit(w.developer.api, w.api.id, 1, { assignee_ids: [w.guest.id] });
    expect((await edit(w.guest.api, w.api.id, 1, { description: "assigned" })).description).toBe("assigned");
  });
});

// ---- delete -------------------------------------------------------------------------------------

describe("DELETE /projects/:id/issues/:issue_iid", () => {
  test("owners and administrators only; 204 without a body; unknown iid 404", async () => {
    const w = await seed();
    await createIssue(w.developer.api, w.api.id, { title: "a" });
    await createIssue(w.developer.api, w.api.id, { title: "b" });
    for (const who of [w.maintainer, w.developer, w.reporter]) {
      const res = await who.api.delete(issuePath(w.api.id, 1));
      expect([who.username, res.status, res.body]).toEqual([who.username, 403, { message: "403 Forbidden" }]);
    }
    const byOwner = await w.owner.api.delete(issuePath(w.api.id, 1));
    expect([byOwner.status, byOwner.text]).toEqual([204, ""]);
    const gone = await root.get(issuePath(w.api.id, 1));
    expect([gone.status, gone.body]).toEqual([404, { message: "404 Not found" }]);
    expect((await root.delete(issuePath(w.api.id, 2))).status).toBe(204);
    const again = await root.delete(issuePath(w.api.id, 2));
    expect([again.status, again.body]).toEqual([404, { message: "404 Issue Not Found" }]);
    expect((await root.get(issuePath(w.api.id))).body).toEqual([]);
  });
});

// ---- reorder ------------------------------------------------------------------------------------

describe("PUT /projects/:id/issues/:issue_iid/reorder", () => {
  const byPosition = async (projectId: number) =>
    (await root.get(issuePath(projectId), { query: { order_by: "relative_position", sort: "asc", per_page: 100 } })).body.map((i: Issue) => i.iid);

  test("move_after_id / move_before_id place the issue between its neighbours", async () => {
    const w = await seed();
    const ids: Record<number, number> = {};
    for (const title of ["one", "two", "three", "four"]) {
      const issue = await createIssue(w.developer.api, w.api.id, { title });
      ids[issue.iid] = issue.id;
    }
    expect(await byPosition(w.api.id)).toEqual([1, 2, 3, 4]);
    const reorder = (iid: number, body: Record<string, unknown>) => w.developer.api.put(`${issuePath(w.api.id, iid)}/reorder`, { json: body });

    const moved = await reorder(4, { move_after_id: ids[1] });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ iid: 4, title: "four" });
    expect(await byPosition(w.api.id)).toEqual([1, 4, 2, 3]);
    expect((await reorder(3, { move_before_id: ids[1] })).status).toBe(200);
    expect(await byPosition(w.api.id)).toEqual([3, 1, 4, 2]);
    expect((await reorder(2, { move_after_id: ids[1], move_before_id: ids[4] })).status).toBe(200);
    expect(await byPosition(w.api.id)).toEqual([3, 1, 2, 4]);
    expect(await byPosition(w.api.id)).toEqual((await root.get(issuePath(w.api.id), { query: { order_by: "relative_position", sort: "desc" } })).body.map((i: Issue) => i.iid).reverse());

    const other = await createIssue(w.developer.api, w.target.id, { title: "elsewhere" });
    for (const body of [{ move_after_id: 999999 }, { move_before_id: 999999 }, { move_after_id: other.id }]) {
      const res = await reorder(1, body);
      expect([body, res.status, res.body]).toEqual([body, 422, { message: { error: "Unprocessable Entity" } }]);
    }
    const none = await reorder(1, {});
    expect([none.status, none.body]).toEqual([400, { error: "move_after_id, move_before_id are missing, at least one parameter must be provided" }]);
    const unknown = await w.developer.api.put(`${issuePath(w.api.id, 99)}/reorder`, { json: { move_after_id: ids[1] } });
    expect([unknown.status, unknown.body]).toEqual([404, { message: "404 Issue Not Found" }]);
    const guest = await w.guest.api.put(`${issuePath(w.api.id, 1)}/reorder`, { json: { move_after_id: ids[2] } });
    expect(guest.status).toBe(403);
    expect(await byPosition(w.api.id)).toEqual([3, 1, 2, 4]);
  });

  test("positions are spread out again when two neighbours leave no room", async () => {
    const w = await seed();
    const first = await createIssue(w.developer.api, w.api.id, { title: "first" });
    await createIssue(w.developer.api, w.api.id, { title: "last" });
    // Each new issue goes right after `first`, halving the gap every time until none is left.
    for (let n = 3; n <= 16; n++) {
      await createIssue(w.developer.api, w.api.id, { title: `n${n}` });
      ok(await w.developer.api.put(`${issuePath(w.api.id, n)}/reorder`, { json: { move_after_id: first.id } }), 200, `reorder ${n}`);
    }
    expect(await byPosition(w.api.id)).toEqual([1, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  });
});

// ---- move and clone -----------------------------------------------------------------------------

describe("POST .../move and .../clone", () => {
  let w: World;
  let source: Issue;
  beforeEach(async () => {
    w = await seed();
    await label(w.api.id, "bug");
    await label(w.api.id, "feature");
    const v1 = await milestone(w.api.id, "v1");
    await label(w.target.id, "bug");
    await milestone(w.target.id, "v1");
    await createIssue(w.developer.api, w.target.id, { title: "already there" });
    source = await createIssue(w.developer.api, w.api.id, {
      title: "Travelling issue",
      description: "from api",
      labels: "bug,feature",
      milestone_id: v1.id,
      assignee_ids: [w.developer.id, w.guest.id],
      due_date: "2030-01-01",
    });
    ok(await w.reporter.api.post(`${issuePath(w.api.id, source.iid)}/notes`, { json: { body: "A user comment" } }), 201, "note");
  });

  const notesOf = async (projectId: number, iid: number) =>
    (await root.get(`${issuePath(projectId, iid)}/notes`, { query: { sort: "asc", per_page: 100 } })).body.map((n: { body: string; system: boolean; author: { username: string } }) => [
      n.body,
      n.system,
      n.author.username,
    ]);

  test("move: a new issue in the target with a fresh iid, same-named labels and milestone, the notes; the original closed", async () => {
    const res = await w.developer.api.post(`${issuePath(w.api.id, source.iid)}/move`, { json: { to_project_id: w.target.id } });
    expect(res.status).toBe(201);
    const moved = res.body as Issue;
    expect(moved).toMatchObject({
      iid: 2,
      project_id: w.target.id,
      title: "Travelling issue",
      description: "from api",
      state: "opened",
      labels: ["bug"],
      milestone: { title: "v1", project_id: w.target.id },
      due_date: "2030-01-01",
      author: { username: "developer" },
      user_notes_count: 1,
      references: { short: "#2", relative: "#2", full: "platform/target#2" },
      web_url: "http://collab.test/platform/target/-/issues/2",
      moved_to_id: null,
    });
    expect(moved.id).not.toBe(source.id);
    // Only assignees who can see the target stay assigned.
    expect(moved.assignees.map((u) => u.username)).toEqual(["developer"]);
    expect(await notesOf(w.target.id, 2)).toEqual([
      ["A user comment", false, "reporter"],
      ["moved from platform/api#1", true, "developer"],
    ]);

    const original = (await root.get(issuePath(w.api.id, source.iid))).body;
    expect(original).toMatchObject({ state: "closed", moved_to_id: moved.id, closed_by: { username: "developer" }, labels: ["bug", "feature"] });
    expect(await notesOf(w.api.id, source.iid)).toEqual([
      ["A user comment", false, "reporter"],
      ["moved to platform/target#2", true, "developer"],
    ]);
    const events = await root.get(`${issuePath(w.api.id, source.iid)}/resource_state_events`);
    expect(events.body.map((e: { state: string }) => e.state)).toEqual(["closed"]);

    // A moved issue cannot move again.
    const again = await w.developer.api.post(`${issuePath(w.api.id, source.iid)}/move`, { json: { to_project_id: w.target.id } });
    expect([again.status, again.body]).toEqual([400, { message: "Cannot move issue due to insufficient permissions!" }]);
  });

  test("move: same project, missing rights, hidden or unknown targets", async () => {
    const move = (as: ApiClient, body: Record<string, unknown>, iid = source.iid) => as.post(`${issuePath(w.api.id, iid)}/move`, { json: body });
    const same = await move(w.developer.api, { to_project_id: w.api.id });
    expect([same.status, same.body]).toEqual([400, { message: "Cannot move issue to project it originates from!" }]);
    // reporter is only a Guest of target.
    const guestThere = await move(w.reporter.api, { to_project_id: w.target.id });
    expect([guestThere.status, guestThere.body]).toEqual([400, { message: "Cannot move issue due to insufficient permissions!" }]);
    // secret is private and developer is not a member: GitLab finds it, the move is refused.
    const hidden = await move(w.developer.api, { to_project_id: w.secret.id });
    expect([hidden.status, hidden.body]).toEqual([400, { message: "Cannot move issue due to insufficient permissions!" }]);
    // A Guest of the source may not move its issues anywhere.
    const guest = await move(w.guest.api, { to_project_id: w.pub.id });
    expect([guest.status, guest.body]).toEqual([400, { message: "Cannot move issue due to insufficient permissions!" }]);
    const unknown = await move(w.developer.api, { to_project_id: 999999 });
    expect([unknown.status, unknown.body]).toEqual([404, { message: "404 Project Not Found" }]);
    const missingIssue = await move(w.developer.api, { to_project_id: w.target.id }, 99);
    expect([missingIssue.status, missingIssue.body]).toEqual([404, { message: "404 Not found" }]);
    const noTarget = await move(w.developer.api, {});
    expect([noTarget.status, noTarget.body]).toEqual([400, { error: "to_project_id is missing" }]);
    // Nothing moved.
    expect((await root.get(issuePath(w.api.id, source.iid))).body).toMatchObject({ state: "opened", moved_to_id: null });
    expect((await root.get(issuePath(w.target.id))).body.map((i: Issue) => i.title)).toEqual(["already there"]);
  });

  test("clone: a copy in the target, notes only with with_notes=true; the original unchanged", async () => {
    const plain = await w.developer.api.post(`${issuePath(w.api.id, source.iid)}/clone`, { json: { to_project_id: w.target.id } });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ iid: 2, project_id: w.target.id, title: "Travelling issue", labels: ["bug"], milestone: { title: "v1" }, user_notes_count: 0, state: "opened" });
    expect(await notesOf(w.target.id, 2)).toEqual([["cloned from platform/api#1", true, "developer"]]);

    const withNotes = await w.developer.api.post(`${issuePath(w.api.id, source.iid)}/clone`, { json: { to_project_id: w.target.id, with_notes: true } });
    expect(withNotes.status).toBe(201);
    expect(withNotes.body).toMatchObject({ iid: 3, user_notes_count: 1 });
    // Every note comes along, the system note of the first clone included.
    expect(await notesOf(w.target.id, 3)).toEqual([
      ["A user comment", false, "reporter"],
      ["cloned to platform/target#2", true, "developer"],
      ["cloned from platform/api#1", true, "developer"],
    ]);
    expect(await notesOf(w.api.id, source.iid)).toEqual([
      ["A user comment", false, "reporter"],
      ["cloned to platform/target#2", true, "developer"],
      ["cloned to platform/target#3", true, "developer"],
    ]);

    const original = (await root.get(issuePath(w.api.id, source.iid))).body;
    expect(original).toMatchObject({ state: "opened", moved_to_id: null, closed_at: null, labels: ["bug", "feature"], user_notes_count: 1, title: "Travelling issue" });
    expect(original.assignees.map((u: { username: string }) => u.username).sort()).toEqual(["developer", "guest"]);

    const same = await w.developer.api.post(`${issuePath(w.api.id, source.iid)}/clone`, { json: { to_project_id: w.api.id } });
    expect([same.status, same.body]).toEqual([400, { message: "Cannot clone issue to project it originates from!" }]);
    const denied = await w.reporter.api.post(`${issuePath(w.api.id, source.iid)}/clone`, { json: { to_project_id: w.target.id } });
    expect([denied.status, denied.body]).toEqual([400, { message: "Cannot clone issue due to insufficient permissions!" }]);
    const unknown = await w.developer.api.post(`${issuePath(w.api.id, source.iid)}/clone`, { json: { to_project_id: 999999 } });
    expect([unknown.status, unknown.body]).toEqual([404, { message: "404 Project Not Found" }]);
  });
});

// ---- subscriptions ------------------------------------------------------------------------------

describe("POST .../subscribe and .../unsubscribe", () => {
  test("201 with the issue when the state changes, 304 without a body when it does not", async () => {
    const w = await seed();
    await createIssue(w.developer.api, w.api.id, { title: "x", assignee_ids: [w.guest.id] });
    const sub = (as: ApiClient, what: "subscribe" | "unsubscribe") => as.post(`${issuePath(w.api.id, 1)}/${what}`);

    // The author and the assignees follow the issue from the start.
    const already = await sub(w.developer.api, "subscribe");
    expect([already.status, already.text]).toEqual([304, ""]);
    expect((await sub(w.guest.api, "subscribe")).status).toBe(304);
    const off = await sub(w.developer.api, "unsubscribe");
    expect(off.status).toBe(201);
    expect(off.body).toMatchObject({ iid: 1, subscribed: false });
    expect((await sub(w.developer.api, "unsubscribe")).status).toBe(304);
    expect((await w.developer.api.get(issuePath(w.api.id, 1))).body.subscribed).toBe(false);

    const on = await sub(w.reporter.api, "subscribe");
    expect([on.status, on.body.subscribed]).toEqual([201, true]);
    expect((await w.reporter.api.get(issuePath(w.api.id, 1))).body.subscribed).toBe(true);
    expect((await w.maintainer.api.get(issuePath(w.api.id, 1))).body.subscribed).toBe(false);
    // A new assignee is subscribed on assignment.
    await edit(w.developer.api, w.api.id, 1, { assignee_ids: [w.maintainer.id] });
    expect((await w.maintainer.api.get(issuePath(w.api.id, 1))).body.subscribed).toBe(true);

    expect((await apiClient(app.url).post(`${issuePath(w.pub.id, 1)}/subscribe`)).status).toBe(401);
    const hidden = await sub(w.outsider.api, "subscribe");
    expect([hidden.status, hidden.body]).toEqual([404, { message: "404 Project Not Found" }]);
  });
});

// ---- permissions --------------------------------------------------------------------------------

describe("permission matrix for GET, PUT and DELETE of one issue", () => {
  const NOT_FOUND_PROJECT = [404, { message: "404 Project Not Found" }];
  const UNAUTHORIZED = [401, { message: "401 Unauthorized" }];
  const FORBIDDEN = [403, { message: "403 Forbidden" }];

  async function matrix(w: World, projectId: number) {
    const callers: [string, ApiClient][] = [
      ["anonymous", apiClient(app.url)],
      ["non-member", w.outsider.api],
      ["Guest", w.guest.api],
      ["Reporter", w.reporter.api],
      ["Developer", w.developer.api],
      ["Maintainer", w.maintainer.api],
      ["Owner", w.owner.api],
      ["admin", root],
    ];
    const rows: Record<string, unknown[]> = {};
    for (const [who, as] of callers) {
      const issue = await createIssue(root, projectId, { title: `for ${who}` });
      const path = issuePath(projectId, issue.iid);
      const get = await as.get(path);
      const put = await as.put(path, { json: { title: `edited by ${who}` } });
      const del = await as.delete(path);
      const summary = (r: ApiResponse) => (r.status < 300 ? r.status : [r.status, r.body]);
      rows[who] = [summary(get), summary(put), summary(del)];
    }
    return rows;
  }

  test("on a private project", async () => {
    const w = await seed();
    expect(await matrix(w, w.api.id)).toEqual({
      anonymous: [NOT_FOUND_PROJECT, UNAUTHORIZED, UNAUTHORIZED],
      "non-member": [NOT_FOUND_PROJECT, NOT_FOUND_PROJECT, NOT_FOUND_PROJECT],
      Guest: [200, FORBIDDEN, FORBIDDEN],
      Reporter: [200, 200, FORBIDDEN],
      Developer: [200, 200, FORBIDDEN],
      Maintainer: [200, 200, FORBIDDEN],
      Owner: [200, 200, 204],
      admin: [200, 200, 204],
    });
  });

  test("on a public project", async () => {
    const w = await seed();
    expect(await matrix(w, w.pub.id)).toEqual({
      anonymous: [200, UNAUTHORIZED, UNAUTHORIZED],
      "non-member": [200, FORBIDDEN, FORBIDDEN],
      Guest: [200, FORBIDDEN, FORBIDDEN],
      Reporter: [200, 200, FORBIDDEN],
      Developer: [200, 200, FORBIDDEN],
      Maintainer: [200, 200, FORBIDDEN],
      Owner: [200, 200, 204],
      admin: [200, 200, 204],
    });
  });

  test("confidential issues: Reporter+, the author and assignees; 404 for everybody else", async () => {
    const w = await seed();
    await createIssue(w.developer.api, w.api.id, { title: "secret", confidential: true });
    await createIssue(w.guest.api, w.api.id, { title: "guest's own secret", confidential: true });
    await createIssue(w.developer.api, w.pub.id, { title: "public secret", confidential: true });
    const status = async (as: ApiClient, projectId: number, iid: number) => {
      const res = await as.get(issuePath(projectId, iid));
      return res.status === 200 ? 200 : [res.status, res.body];
    };
    const NOT_FOUND = [404, { message: "404 Not found" }];
    expect({
      guest: await status(w.guest.api, w.api.id, 1),
      guestAuthor: await status(w.guest.api, w.api.id, 2),
      reporter: await status(w.reporter.api, w.api.id, 1),
      admin: await status(root, w.api.id, 1),
      publicAnonymous: await status(apiClient(app.url), w.pub.id, 1),
      publicOutsider: await status(w.outsider.api, w.pub.id, 1),
      publicGuest: await status(w.guest.api, w.pub.id, 1),
      publicReporter: await status(w.reporter.api, w.pub.id, 1),
    }).toEqual({
      guest: NOT_FOUND,
      guestAuthor: 200,
      reporter: 200,
      admin: 200,
      publicAnonymous: NOT_FOUND,
      publicOutsider: NOT_FOUND,
      publicGuest: NOT_FOUND,
      publicReporter: 200,
    });
    // Hidden issues cannot be edited, subscribed to or deleted either.
    expect((await w.guest.api.put(issuePath(w.api.id, 1), { json: { title: "x" } })).body).toEqual({ message: "404 Not found" });
    expect((await w.guest.api.post(`${issuePath(w.api.id, 1)}/subscribe`)).body).toEqual({ message: "404 Not found" });
    expect((await w.outsider.api.delete(issuePath(w.pub.id, 1))).body).toEqual({ message: "404 Issue Not Found" });
    // Assigning the Guest reveals the issue to them.
    await edit(w.developer.api, w.api.id, 1, { assignee_ids: [w.guest.id] });
    expect(await status(w.guest.api, w.api.id, 1)).toBe(200);
  });
});

// ---- GET /issues/:id ----------------------------------------------------------------------------

test("GET /issues/:id finds any issue by global id, for administrators only", async () => {
  const w = await seed();
  const issue = await createIssue(w.developer.api, w.api.id, { title: "global" });
  const res = await root.get(`/issues/${issue.id}`);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ id: issue.id, iid: 1, references: { full: "platform/api#1" } });
  expect((await w.developer.api.get(`/issues/${issue.id}`)).body).toEqual({ message: "403 Forbidden" });
  expect((await apiClient(app.url).get(`/issues/${issue.id}`)).status).toBe(401);
  expect((await root.get("/issues/999999")).body).toEqual({ message: "404 Not found" });
});

// ---- domain events ------------------------------------------------------------------------------

describe("durable domain events", () => {
  let seen: SeenEvent[];
  let watch: Awaited<ReturnType<typeof watchEvents>>;

  beforeEach(async () => {
    watch = await watchEvents(app, ["issues.issue.*"]);
    seen = watch.seen;
  });
  afterEach(() => watch.stop());

  /** The first event of that name (already seen or still to come). */
  const next = (event: EventContract, where: (p: Record<string, unknown>) => boolean = () => true) =>
    eventually(() => {
      const found = seen.find((s) => s.event === event.name && where(s.payload));
      if (!found) throw new Error(`no ${event.name} event yet`);
      return found.payload as Record<string, unknown>;
    });

  test("opened, updated, closed, reopened, moved and deleted carry the issue and the actor", async () => {
    const w = await seed();
    const issue = await createIssue(w.developer.api, w.api.id, { title: "Eventful" });
    const base = { id: issue.id, iid: 1, project_id: w.api.id };
    expect(await next(Issues.events.issueOpened)).toMatchObject({ ...base, actor_id: w.developer.id, title: "Eventful", confidential: false });

    await edit(w.reporter.api, w.api.id, 1, { title: "Renamed", labels: "bug" });
    expect(await next(Issues.events.issueUpdated)).toMatchObject({ ...base, actor_id: w.reporter.id, title: "Renamed", changes: ["title", "labels"] });

    await edit(w.maintainer.api, w.api.id, 1, { state_event: "close" });
    expect(await next(Issues.events.issueClosed)).toEqual({ ...base, actor_id: w.maintainer.id, title: "Renamed", confidential: false });
    expect(seen.filter((s) => s.event === Issues.events.issueUpdated.name)).toHaveLength(1); // a state change alone is not an update

    await edit(w.developer.api, w.api.id, 1, { state_event: "reopen" });
    expect(await next(Issues.events.issueReopened)).toMatchObject({ ...base, actor_id: w.developer.id });

    const moved = (await w.developer.api.post(`${issuePath(w.api.id, 1)}/move`, { json: { to_project_id: w.target.id } })).body as Issue;
    expect(await next(Issues.events.issueMoved)).toMatchObject({ ...base, actor_id: w.developer.id, moved_to_id: moved.id, to_project_id: w.target.id });
    expect(await next(Issues.events.issueOpened, (p) => p.id === moved.id)).toMatchObject({ id: moved.id, iid: 1, project_id: w.target.id, actor_id: w.developer.id });

    ok(await root.delete(issuePath(w.target.id, 1)), 204, "delete");
    expect(await next(Issues.events.issueDeleted)).toMatchObject({ id: moved.id, iid: 1, project_id: w.target.id, actor_id: 1 });
  });
});

// ---- @gitbeaker/rest ----------------------------------------------------------------------------

test("a developer works an issue with @gitbeaker/rest", async () => {
  const w = await seed();
  const gl = new Gitlab({ host: app.url, token: w.developer.token });
  await label(w.target.id, "bug");

  const created = await gl.Issues.create(w.api.id, "Checkout is slow", { description: "- [ ] profile\n- [ ] fix", labels: "perf,bug", assigneeIds: [w.developer.id] });
  expect(created).toMatchObject({ iid: 1, title: "Checkout is slow", labels: ["bug", "perf"], state: "opened", task_completion_status: { count: 2, completed_count: 0 } });

  const shown = await gl.Issues.show(created.iid, { projectId: w.api.id });
  expect(shown.id).toBe(created.id);
  const byGlobalId = await new Gitlab({ host: app.url, token: app.rootToken }).Issues.show(created.id);
  expect(byGlobalId.iid).toBe(1);

  const edited = await gl.Issues.edit(w.api.id, created.iid, { addLabels: "triaged", removeLabels: "perf", dueDate: "2030-02-03", stateEvent: "close" });
  expect(edited).toMatchObject({ labels: ["bug", "triaged"], due_date: "2030-02-03", state: "closed", closed_by: { username: "developer" } });

  const listed = await gl.Issues.all({ projectId: w.api.id, state: "closed", labels: "bug" });
  expect(listed.map((i) => i.iid)).toEqual([1]);
  const mine = await gl.Issues.all({ scope: "created_by_me" });
  expect(mine.map((i) => i.title)).toEqual(["Checkout is slow"]);
  const detailed = await gl.Issues.all({ groupId: w.group.id, withLabelsDetails: true });
  expect(detailed[0].labels.map((l) => l.name)).toEqual(["bug", "triaged"]);

  const unsubscribed = await gl.Issues.unsubscribe(w.api.id, created.iid);
  expect(unsubscribed.subscribed).toBe(false);
  const subscribed = await gl.Issues.subscribe(w.api.id, created.iid);
  expect(subscribed.subscribed).toBe(true);

  const cloned = await gl.Issues.clone(w.api.id, created.iid, w.target.id, { withNotes: true });
  expect(cloned).toMatchObject({ project_id: w.target.id, iid: 1, labels: ["bug"] });
  const moved = await gl.Issues.move(w.api.id, created.iid, w.target.id);
  expect(moved).toMatchObject({ project_id: w.target.id, iid: 2 });
  expect((await gl.Issues.show(created.iid, { projectId: w.api.id })).moved_to_id).toBe(moved.id);

  await new Gitlab({ host: app.url, token: w.owner.token }).Issues.remove(w.api.id, created.iid);
  await expect(gl.Issues.show(created.iid, { projectId: w.api.id })).rejects.toThrow();
  expect((await gl.Issues.all({ projectId: w.api.id })).length).toBe(0);
});
