import { addMember, apiClient, assertStatus as ok, createGroup, createProject, createUser, eventually, type ApiClient, type TestApp } from "@collab/testing";
import type { Database } from "@collab/db";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

/**
 * Issue lists through the HTTP gateway: GET /projects/:id/issues, /groups/:id/issues and /issues
 * with every filter of the spec's table, every order, scopes, pagination and who sees what.
 *
 * The world (built before each test, after a reset):
 *
 *   platform (private group, label "backend", milestone "gm": started 30 days ago, due 5 days ago)
 *   ├── platform/api (private): labels bug (priority 2), feature (priority 1), docs;
 *   │     milestones v1 (started 10 days ago, due in 5 days) and v2 (starts in 20, due in 40)
 *   └── platform/web (private)
 *   root/pub (public)
 *
 *   alice: Developer of api and web · bob: Reporter of api · carol: Guest of api · dave: nobody
 *
 *   api#1 "Login fails on Safari"  by alice  bug            → bob         v1  due today      weight 3
 *   api#2 "Add dark mode"          by bob    feature,backend → alice, bob  v1  due tomorrow   weight 1   "theme support"
 *   api#3 "Docs typo in README"    by root   docs                                  closed (last write)
 *   api#4 "Leaked credentials"     by alice  —               —             v2  confidential
 *   api#5 "Crash when saving"      by root   bug,feature     → alice       gm  due 3 days ago weight 5   incident, at_risk
 *   web#1 "Web crash"              by alice  backend
 *   pub#1 "Public question"        by dave;  pub#2 "Hidden report" by dave, confidential
 */
let app: TestApp;
let root: ApiClient;
let database: Database;

beforeAll(async () => {
  app = await startApp("issue-lists");
  // The app's own database, for vote counts (popularity, quicker than awards) and archived projects.
  database = app.database;
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

// ---- helpers ------------------------------------------------------------------------------------

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

async function createIssue(as: ApiClient, projectId: number, body: Record<string, unknown>) {
  return ok(await as.post(`/projects/${projectId}/issues`, { json: body }), 201, `issue ${String(body.title)}`).body as { id: number; iid: number; created_at: string; updated_at: string };
}

async function seed() {
  const group = await createGroup(root, "Platform", "platform", { visibility: "private" });
  const api = await createProject(root, { name: "api", namespace_id: group.id, visibility: "private" });
  const web = await createProject(root, { name: "web", namespace_id: group.id, visibility: "private" });
  const pub = await createProject(root, { name: "pub", visibility: "public" });
  const [alice, bob, carol, dave] = await Promise.all(["alice", "bob", "carol", "dave"].map((username) => createUser(app, username)));
  await addMember(app, "projects", api.id, alice.id, 30);
  await addMember(app, "projects", web.id, alice.id, 30);
  await addMember(app, "projects", api.id, bob.id, 20);
  await addMember(app, "projects", api.id, carol.id, 10);

  const label = async (path: string, name: string, priority?: number) =>
    ok(await root.post(`${path}/labels`, { json: { name, color: "#FF0000", description: `${name} things`, ...(priority !== undefined ? { priority } : {}) } }), 201, `label ${name}`).body;
  await label(`/projects/${api.id}`, "bug", 2);
  await label(`/projects/${api.id}`, "feature", 1);
  await label(`/projects/${api.id}`, "docs");
  await label(`/groups/${group.id}`, "backend");
  const milestone = async (path: string, title: string, start_date: string, due_date: string) =>
    ok(await root.post(`${path}/milestones`, { json: { title, start_date, due_date } }), 201, `milestone ${title}`).body as { id: number };
  const v1 = await milestone(`/projects/${api.id}`, "v1", day(-10), day(5));
  const v2 = await milestone(`/projects/${api.id}`, "v2", day(20), day(40));
  const gm = await milestone(`/groups/${group.id}`, "gm", day(-30), day(-5));

  const i1 = await createIssue(alice.api, api.id, { title: "Login fails on Safari", labels: "bug", assignee_ids: [bob.id], milestone_id: v1.id, due_date: day(0), weight: 3 });
  const i2 = await createIssue(bob.api, api.id, {
    title: "Add dark mode",
    description: "theme support",
    labels: "feature,backend",
    assignee_ids: [alice.id, bob.id],
    milestone_id: v1.id,
    due_date: day(1),
    weight: 1,
  });
  const i3 = await createIssue(root, api.id, { title: "Docs typo in README", labels: "docs" });
  const i4 = await createIssue(alice.api, api.id, { title: "Leaked credentials", confidential: true, milestone_id: v2.id });
  const i5 = await createIssue(root, api.id, {
    title: "Crash when saving",
    labels: "bug,feature",
    assignee_ids: [alice.id],
    milestone_id: gm.id,
    due_date: day(-3),
    weight: 5,
    issue_type: "incident",
    health_status: "at_risk",
  });
  const w1 = await createIssue(alice.api, web.id, { title: "Web crash", labels: "backend" });
  const p1 = await createIssue(dave.api, pub.id, { title: "Public question" });
  const p2 = await createIssue(dave.api, pub.id, { title: "Hidden report", confidential: true });
  ok(await root.put(`/projects/${api.id}/issues/3`, { json: { state_event: "close" } }), 200, "close #3");
  const closed = (await root.get(`/projects/${api.id}/issues/3`)).body as { updated_at: string };
  return { group, api, web, pub, alice, bob, carol, dave, v1, v2, gm, issues: { i1, i2, i3: { ...i3, updated_at: closed.updated_at }, i4, i5, w1, p1, p2 } };
}
type World = Awaited<ReturnType<typeof seed>>;

type Query = NonNullable<Parameters<ApiClient["get"]>[1]>["query"];

/** iids of a project list, in answer order; fails with the query in the message. */
async function listIids(as: ApiClient, path: string, query: Query = {}) {
  const res = await as.get(path, { query });
  if (res.status !== 200) throw new Error(`GET ${path} ${JSON.stringify(query)}: ${res.status} ${res.text}`);
  return (res.body as { iid: number }[]).map((i) => i.iid);
}

/** Full references of a cross-project list ("platform/api#1"), in answer order. */
async function listRefs(as: ApiClient, path: string, query: Query = {}) {
  const res = await as.get(path, { query });
  if (res.status !== 200) throw new Error(`GET ${path} ${JSON.stringify(query)}: ${res.status} ${res.text}`);
  return (res.body as { references: { full: string } }[]).map((i) => i.references.full);
}

/**
 * Checks many queries against the expected iids (sorted, unless `ordered`): one failure shows
 * every query that answered differently.
 */
async function expectIids(as: ApiClient, path: string, cases: [Query, number[]][], ordered = false) {
  const got = [];
  for (const [query] of cases) {
    const iids = await listIids(as, path, query);
    got.push({ query, iids: ordered ? iids : [...iids].sort((a, b) => a - b) });
  }
  expect(got).toEqual(cases.map(([query, iids]) => ({ query, iids })));
}

// ---- project lists: filters ---------------------------------------------------------------------

describe("GET /projects/:id/issues filters", () => {
  let w: World;
  let P: string;
  beforeEach(async () => {
    w = await seed();
    P = `/projects/${w.api.id}/issues`;
  });

  test("without filters: every state, newest first, the list entity without `subscribed`", async () => {
    const res = await root.get(P);
    expect(res.status).toBe(200);
    expect(res.body.map((i: { iid: number }) => i.iid)).toEqual([5, 4, 3, 2, 1]);
    const first = res.body.find((i: { iid: number }) => i.iid === 2);
    expect(first).toMatchObject({
      iid: 2,
      project_id: w.api.id,
      title: "Add dark mode",
      description: "theme support",
      state: "opened",
      labels: ["backend", "feature"],
      milestone: { id: w.v1.id, title: "v1", project_id: w.api.id, due_date: day(5) },
      author: { id: w.bob.id, username: "bob" },
      due_date: day(1),
      weight: 1,
      references: { short: "#2", relative: "#2", full: "platform/api#2" },
      web_url: "http://collab.test/platform/api/-/issues/2",
    });
    expect(first.assignees.map((u: { username: string }) => u.username).sort()).toEqual(["alice", "bob"]);
    expect(first.assignee).toEqual(first.assignees[0]);
    expect(first).not.toHaveProperty("subscribed");
    expect(res.body.find((i: { iid: number }) => i.iid === 3)).toMatchObject({ state: "closed", closed_by: { username: "root" } });
  });

  test("state: opened, closed, all (the default)", async () => {
    await expectIids(root, P, [
      [{ state: "opened" }, [1, 2, 4, 5]],
      [{ state: "closed" }, [3]],
      [{ state: "all" }, [1, 2, 3, 4, 5]],
      [{}, [1, 2, 3, 4, 5]],
    ]);
    expect((await root.get(P, { query: { state: "merged" } })).body).toEqual({ error: "state does not have a valid value" });
  });

  test("assignee_id (id, None, Any), assignee_username (all must match) and their negations", async () => {
    await expectIids(root, P, [
      [{ assignee_id: w.bob.id }, [1, 2]],
      [{ assignee_id: "None" }, [3, 4]],
      [{ assignee_id: "none" }, [3, 4]],
      [{ assignee_id: "Any" }, [1, 2, 5]],
      [{ assignee_id: 999999 }, []],
      [{ assignee_username: ["alice"] }, [2, 5]],
      [{ assignee_username: "alice" }, [2, 5]],
      [{ assignee_username: ["alice", "bob"] }, [2]],
      [{ assignee_username: ["alice", "nobody"] }, []],
      [{ "not[assignee_id]": w.bob.id }, [3, 4, 5]],
      [{ "not[assignee_id]": "None" }, [1, 2, 5]],
      [{ "not[assignee_id]": "Any" }, [3, 4]],
      [{ "not[assignee_username]": "alice" }, [1, 3, 4]],
      [{ "not[assignee_username][]": "bob" }, [3, 4, 5]],
      [{ assignee_id: "Any", "not[assignee_id]": w.bob.id }, [5]],
      [{ assignee_id: "Any", "not[assignee_username]": "alice" }, [1]],
    ]);
    const both = await root.get(P, { query: { assignee_id: w.bob.id, assignee_username: ["bob"] } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: "assignee_id, assignee_username are mutually exclusive" });
    expect((await root.get(P, { query: { assignee_id: "someone" } })).body).toEqual({ error: "assignee_id is invalid" });
  });

  test("author_id / author_username, mutually exclusive, and their negations", async () => {
    await expectIids(root, P, [
      [{ author_id: w.alice.id }, [1, 4]],
      [{ author_username: "bob" }, [2]],
      [{ author_username: "BOB" }, [2]],
      [{ author_username: "nobody" }, []],
      [{ "not[author_id]": w.alice.id }, [2, 3, 5]],
      [{ "not[author_username]": "root" }, [1, 2, 4]],
      [{ author_id: w.alice.id, "not[author_username]": "bob" }, [1, 4]],
    ]);
    const both = await root.get(P, { query: { author_id: w.alice.id, author_username: "alice" } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: "author_id, author_username are mutually exclusive" });
  });

  test("confidential, iids[], not[iids], issue_type, search and in", async () => {
    await expectIids(root, P, [
      [{ confidential: true }, [4]],
      [{ confidential: false }, [1, 2, 3, 5]],
      [{ iids: [1, 3] }, [1, 3]],
      [{ iids: "2,5" }, [2, 5]],
      [{ "not[iids][]": 1 }, [2, 3, 4, 5]],
      [{ "not[iids]": "1,2" }, [3, 4, 5]],
      [{ issue_type: "incident" }, [5]],
      [{ issue_type: "issue" }, [1, 2, 3, 4]],
      [{ search: "crash" }, [5]],
      [{ search: "theme" }, [2]],
      [{ search: "theme", in: "title" }, []],
      [{ search: "theme", in: "description" }, [2]],
      [{ search: "dark", in: "description" }, []],
      [{ search: "dark", in: "title,description" }, [2]],
      [{ search: "100%" }, []],
    ]);
    expect((await root.get(P, { query: { issue_type: "epic" } })).body).toEqual({ error: "issue_type does not have a valid value" });
    expect((await root.get(P, { query: { search: "x", in: "body" } })).body).toEqual({ error: "in does not have a valid value" });
  });

  test("labels: comma list (all must match), None, Any, group labels, not[labels], with_labels_details", async () => {
    await expectIids(root, P, [
      [{ labels: "bug" }, [1, 5]],
      [{ labels: "bug,feature" }, [5]],
      [{ labels: ["bug", "feature"] }, [5]],
      [{ labels: "backend" }, [2]],
      [{ labels: "None" }, [4]],
      [{ labels: "none" }, [4]],
      [{ labels: "Any" }, [1, 2, 3, 5]],
      [{ labels: "unknown" }, []],
      [{ labels: "bug,unknown" }, []],
      [{ "not[labels]": "bug" }, [2, 3, 4]],
      [{ "not[labels]": "bug,docs" }, [2, 4]],
      [{ "not[labels]": "unknown" }, [1, 2, 3, 4, 5]],
      [{ labels: "Any", "not[labels]": "feature" }, [1, 3]],
      [{ labels: "bug", "not[labels]": "feature" }, [1]],
    ]);

    const plain = await root.get(P, { query: { iids: [5] } });
    expect(plain.body[0].labels).toEqual(["bug", "feature"]);
    const detailed = await root.get(P, { query: { iids: [5], with_labels_details: true } });
    expect(detailed.body[0].labels).toEqual([
      { id: expect.any(Number), name: "bug", color: "#FF0000", text_color: "#FFFFFF", description: "bug things", description_html: "bug things" },
      { id: expect.any(Number), name: "feature", color: "#FF0000", text_color: "#FFFFFF", description: "feature things", description_html: "feature things" },
    ]);
  });

  test("milestone (title, None, Any) and milestone_id (None, Any, Upcoming, Started), with negations", async () => {
    await expectIids(root, P, [
      [{ milestone: "v1" }, [1, 2]],
      [{ milestone: "gm" }, [5]],
      [{ milestone: "v9" }, []],
      [{ milestone: "None" }, [3]],
      [{ milestone: "Any" }, [1, 2, 4, 5]],
      [{ milestone_id: "None" }, [3]],
      [{ milestone_id: "Any" }, [1, 2, 4, 5]],
      // Upcoming: the container's active milestone with the nearest future due date (v1 here).
      [{ milestone_id: "Upcoming" }, [1, 2]],
      // Started: active milestones whose start date has passed (v1 and the group's gm).
      [{ milestone_id: "Started" }, [1, 2, 5]],
      [{ "not[milestone]": "v1" }, [3, 4, 5]],
      [{ "not[milestone]": "None" }, [1, 2, 4, 5]],
      [{ "not[milestone]": "Any" }, [3]],
      [{ "not[milestone_id]": "Upcoming" }, [3, 4, 5]],
      [{ "not[milestone_id]": "Started" }, [3, 4]],
      [{ milestone: "Any", "not[milestone]": "v1" }, [4, 5]],
    ]);
    const both = await root.get(P, { query: { milestone: "v1", milestone_id: "Any" } });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: "milestone, milestone_id are mutually exclusive" });
    expect((await root.get(P, { query: { milestone_id: w.v1.id } })).body).toEqual({ error: "milestone_id does not have a valid value" });
  });

  test("after labels and milestones are deleted, label and milestone filters (and X-Total) see the issues without them", async () => {
    const labelId = async (path: string, name: string) => ok(await root.get(`${path}/labels/${name}`), 200, `label ${name}`).body.id as number;
    const [bug, backend] = await Promise.all([labelId(`/projects/${w.api.id}`, "bug"), labelId(`/groups/${w.group.id}`, "backend")]);
    ok(await root.delete(`/projects/${w.api.id}/labels/${bug}`), 204, "delete bug");
    ok(await root.delete(`/groups/${w.group.id}/labels/${backend}`), 204, "delete backend");
    ok(await root.delete(`/projects/${w.api.id}/milestones/${w.v1.id}`), 204, "delete v1");
    ok(await root.delete(`/groups/${w.group.id}/milestones/${w.gm.id}`), 204, "delete gm");
    // The issues service follows the deletions' events (at once in one process, shortly in the topology).
    await eventually(async () => {
      expect(await listIids(root, P, { labels: "None" })).toEqual([4, 1]);
      expect(await listIids(root, P, { milestone: "None" })).toEqual([5, 3, 2, 1]);
    });

    await expectIids(root, P, [
      [{ labels: "Any" }, [2, 3, 5]],
      [{ labels: "feature" }, [2, 5]],
      [{ labels: "bug" }, []],
      [{ labels: "backend" }, []],
      [{ "not[labels]": "feature" }, [1, 3, 4]],
      [{ labels: "None", "not[labels]": "docs" }, [1, 4]],
      [{ milestone: "Any" }, [4]],
      [{ milestone: "v1" }, []],
      [{ milestone: "gm" }, []],
      [{ milestone_id: "None" }, [1, 2, 3, 5]],
      [{ milestone_id: "Started" }, []],
      [{ milestone_id: "Upcoming" }, [4]],
      [{ "not[milestone]": "v2" }, [1, 2, 3, 5]],
      [{ "not[milestone]": "Any" }, [1, 2, 3, 5]],
    ]);
    const none = await root.get(P, { query: { labels: "None" } });
    expect(none.headers.get("x-total")).toBe("2");
    expect((await root.get(P, { query: { milestone: "None" } })).headers.get("x-total")).toBe("4");
    // The group list: web#1 carried only the group label.
    expect(await listRefs(root, `/groups/${w.group.id}/issues`, { labels: "None" })).toEqual(["platform/web#1", "platform/api#4", "platform/api#1"]);
    expect((await root.get(P, { query: { iids: [2] } })).body[0]).toMatchObject({ labels: ["feature"], milestone: null });

    // New labels and milestones of the old names match none of the old issues.
    ok(await root.post(`/projects/${w.api.id}/labels`, { json: { name: "bug", color: "#FF0000" } }), 201, "bug again");
    ok(await root.post(`/projects/${w.api.id}/milestones`, { json: { title: "v1" } }), 201, "v1 again");
    await expectIids(root, P, [
      [{ labels: "bug" }, []],
      [{ milestone: "v1" }, []],
    ]);
  });

  test("due_date keywords: 0, any, today, tomorrow, overdue, week, month, next_month_and_previous_two_weeks", async () => {
    // Independent of the implementation: weeks start on Monday, months on the 1st (UTC).
    const today = new Date(`${day(0)}T00:00:00Z`);
    const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    const sunday = new Date(new Date(`${monday}T00:00:00Z`).getTime() + 6 * 86_400_000).toISOString().slice(0, 10);
    const monthStart = `${day(0).slice(0, 7)}-01`;
    const monthEnd = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0)).toISOString().slice(0, 10);
    const nextMonthEnd = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 2, 0)).toISOString().slice(0, 10);
    const due: Record<number, string> = { 1: day(0), 2: day(1), 5: day(-3) };
    const within = (from: string, to: string) => [1, 2, 5].filter((iid) => due[iid] >= from && due[iid] <= to);

    await expectIids(root, P, [
      [{ due_date: "0" }, [3, 4]],
      [{ due_date: "any" }, [1, 2, 5]],
      [{ due_date: "today" }, [1]],
      [{ due_date: "tomorrow" }, [2]],
      [{ due_date: "overdue" }, [5]],
      [{ due_date: "week" }, within(monday, sunday)],
      [{ due_date: "month" }, within(monthStart, monthEnd)],
      [{ due_date: "next_month_and_previous_two_weeks" }, within(day(-14), nextMonthEnd)],
      [{ due_date: "" }, [1, 2, 3, 4, 5]],
    ]);
    expect((await root.get(P, { query: { due_date: "yesterday" } })).body).toEqual({ error: "due_date does not have a valid value" });
  });

  test("created_after/before and updated_after/before are inclusive bounds", async () => {
    const { i2, i3 } = w.issues;
    await expectIids(root, P, [
      [{ created_after: i3.created_at }, [3, 4, 5]],
      [{ created_before: i3.created_at }, [1, 2, 3]],
      [{ created_after: i2.created_at, created_before: i3.created_at }, [2, 3]],
      [{ updated_after: i3.updated_at }, [3]],
      [{ updated_before: i2.updated_at }, [1, 2]],
      [{ created_after: "2000-01-01" }, [1, 2, 3, 4, 5]],
      [{ created_before: "2000-01-01T00:00:00Z" }, []],
    ]);
    expect((await root.get(P, { query: { created_after: "last tuesday" } })).body).toEqual({ error: "created_after is invalid" });
  });

  test("weight, health_status, epic_id and iteration_id with None / Any", async () => {
    await expectIids(root, P, [
      [{ weight: 3 }, [1]],
      [{ weight: "None" }, [3, 4]],
      [{ weight: "Any" }, [1, 2, 5]],
      [{ "not[weight]": 3 }, [2, 3, 4, 5]],
      [{ "not[weight]": "None" }, [1, 2, 5]],
      [{ "not[weight]": "Any" }, [3, 4]],
      [{ health_status: "at_risk" }, [5]],
      [{ health_status: "on_track" }, []],
      [{ health_status: "None" }, [1, 2, 3, 4]],
      [{ health_status: "Any" }, [5]],
      // No epics or iterations exist: None matches everything, Any nothing.
      [{ epic_id: "None" }, [1, 2, 3, 4, 5]],
      [{ epic_id: "Any" }, []],
      [{ iteration_id: "None" }, [1, 2, 3, 4, 5]],
      [{ iteration_id: "Any" }, []],
    ]);
    expect((await root.get(P, { query: { health_status: "fine" } })).body).toEqual({ error: "health_status is invalid" });
  });

  test("my_reaction_emoji: the caller's own reactions (None, Any, a name; negated with not[])", async () => {
    await expectIids(root, P, [
      [{ my_reaction_emoji: "None" }, [1, 2, 3, 4, 5]],
      [{ my_reaction_emoji: "Any" }, []],
    ]);
    ok(await root.post(`${P}/2/award_emoji`, { json: { name: "thumbsup" } }), 201, "award");
    ok(await root.post(`${P}/4/award_emoji`, { json: { name: "tada" } }), 201, "award");
    // Another user's reaction is not the caller's.
    const other = await createUser(app, "reactor");
    await addMember(app, "projects", w.api.id, other.id, 30);
    ok(await other.api.post(`${P}/5/award_emoji`, { json: { name: "thumbsup" } }), 201, "award");
    await expectIids(root, P, [
      [{ my_reaction_emoji: "None" }, [1, 3, 5]],
      [{ my_reaction_emoji: "Any" }, [2, 4]],
      [{ my_reaction_emoji: "thumbsup" }, [2]],
      [{ my_reaction_emoji: "+1" }, [2]],
      [{ my_reaction_emoji: "rocket" }, []],
      [{ "not[my_reaction_emoji]": "thumbsup" }, [1, 3, 4, 5]],
      [{ "not[my_reaction_emoji]": "None" }, [2, 4]],
      [{ "not[my_reaction_emoji]": "Any" }, [1, 3, 5]],
    ]);
    await expectIids(other.api, P, [[{ my_reaction_emoji: "thumbsup" }, [5]]]);
  });

  test("filters combine with AND", async () => {
    await expectIids(root, P, [
      [{ labels: "bug", state: "opened", assignee_id: "Any" }, [1, 5]],
      [{ labels: "bug", milestone: "v1", due_date: "today" }, [1]],
      [{ author_username: "alice", confidential: false }, [1]],
      [{ search: "a", issue_type: "incident", "not[labels]": "docs" }, [5]],
    ]);
  });
});

// ---- project lists: orders ----------------------------------------------------------------------

describe("GET /projects/:id/issues order_by × sort", () => {
  test("every order_by in both directions, id breaking ties in the same direction", async () => {
    const w = await seed();
    // Vote counts set in the table: quicker than three users' thumbsup awards.
    await database.db.execute(sql`UPDATE issues.issues SET upvotes = CASE iid WHEN 2 THEN 3 WHEN 4 THEN 1 ELSE 0 END WHERE project_id = ${w.api.id}`);
    const P = `/projects/${w.api.id}/issues`;
    const orders: [string, number[], number[]][] = [
      // order_by, asc, desc
      ["created_at", [1, 2, 3, 4, 5], [5, 4, 3, 2, 1]],
      ["updated_at", [1, 2, 4, 5, 3], [3, 5, 4, 2, 1]],
      ["title", [2, 5, 3, 4, 1], [1, 4, 3, 5, 2]],
      // Dates, weights, milestone due dates and label priorities: empty values last both ways.
      ["due_date", [5, 1, 2, 3, 4], [2, 1, 5, 4, 3]],
      ["weight", [2, 1, 5, 3, 4], [5, 1, 2, 4, 3]],
      ["relative_position", [1, 2, 3, 4, 5], [5, 4, 3, 2, 1]],
      ["popularity", [1, 3, 5, 4, 2], [2, 4, 5, 3, 1]],
      ["milestone_due", [5, 1, 2, 4, 3], [4, 2, 1, 5, 3]],
      // Highest (lowest number) label priority: #2 and #5 carry feature (1), #1 bug (2).
      ["label_priority", [2, 5, 1, 3, 4], [1, 5, 2, 4, 3]],
      // Milestone due date first, then label priority.
      ["priority", [5, 2, 1, 4, 3], [4, 1, 2, 5, 3]],
    ];
    const got = [];
    for (const [order_by] of orders) {
      got.push([order_by, await listIids(root, P, { order_by, sort: "asc" }), await listIids(root, P, { order_by, sort: "desc" })]);
    }
    expect(got).toEqual(orders);
    expect(await listIids(root, P, { order_by: "title" })).toEqual([1, 4, 3, 5, 2]); // sort defaults to desc
    expect((await root.get(P, { query: { order_by: "iid" } })).body).toEqual({ error: "order_by does not have a valid value" });
    expect((await root.get(P, { query: { sort: "up" } })).body).toEqual({ error: "sort does not have a valid value" });
  });

  test("pagination headers and pages", async () => {
    const w = await seed();
    const P = `/projects/${w.api.id}/issues`;
    const res = await root.get(P, { query: { per_page: 2, page: 2, state: "all" } });
    expect(res.status).toBe(200);
    expect(res.body.map((i: { iid: number }) => i.iid)).toEqual([3, 2]);
    expect(Object.fromEntries(["x-page", "x-per-page", "x-total", "x-total-pages", "x-next-page", "x-prev-page"].map((h) => [h, res.headers.get(h)]))).toEqual({
      "x-page": "2",
      "x-per-page": "2",
      "x-total": "5",
      "x-total-pages": "3",
      "x-next-page": "3",
      "x-prev-page": "1",
    });
    const link = res.headers.get("link")!;
    expect(link).toContain(`<http://collab.test/api/v4/projects/${w.api.id}/issues?page=1&per_page=2&state=all>; rel="prev"`);
    expect(link).toContain(`<http://collab.test/api/v4/projects/${w.api.id}/issues?page=3&per_page=2&state=all>; rel="next"`);
    expect(link).toContain('rel="last"');
    // Filtered totals count only the matching issues.
    const filtered = await root.get(P, { query: { labels: "bug", per_page: 1 } });
    expect(filtered.headers.get("x-total")).toBe("2");
    expect(filtered.headers.get("x-total-pages")).toBe("2");
    const past = await root.get(P, { query: { page: 9 } });
    expect(past.body).toEqual([]);
    expect(past.headers.get("x-total")).toBe("5");
    expect((await root.get(P, { query: { per_page: 0 } })).body).toEqual({ error: "per_page has a value not allowed" });
  });
});

// ---- visibility ---------------------------------------------------------------------------------

describe("who sees which issues", () => {
  let w: World;
  beforeEach(async () => {
    w = await seed();
  });

  test("confidential issues: Reporter+, their author and assignees; hidden from Guests", async () => {
    const P = `/projects/${w.api.id}/issues`;
    expect((await listIids(w.bob.api, P)).sort()).toEqual([1, 2, 3, 4, 5]); // Reporter
    expect((await listIids(w.alice.api, P)).sort()).toEqual([1, 2, 3, 4, 5]); // Developer and author
    expect((await listIids(w.carol.api, P)).sort()).toEqual([1, 2, 3, 5]); // Guest
    expect(await listIids(w.carol.api, P, { confidential: true })).toEqual([]);
    // A Guest assigned to a confidential issue sees it.
    ok(await root.put(`${P}/4`, { json: { assignee_ids: [w.carol.id] } }), 200, "assign carol");
    expect((await listIids(w.carol.api, P)).sort()).toEqual([1, 2, 3, 4, 5]);
    // Non-members of a private project: 404, like the project itself.
    const hidden = await w.dave.api.get(P);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: "404 Project Not Found" });
  });

  test("public project: anonymous callers read its issues, confidential ones hidden", async () => {
    const anonymous = apiClient(app.url);
    const P = `/projects/${w.pub.id}/issues`;
    expect(await listIids(anonymous, P)).toEqual([1]);
    expect(await listIids(w.carol.api, P)).toEqual([1]); // signed in, not a member
    expect(await listIids(w.dave.api, P)).toEqual([2, 1]); // the author
    expect(await listIids(root, P)).toEqual([2, 1]);
    const priv = await anonymous.get(`/projects/${w.api.id}/issues`);
    expect(priv.status).toBe(404);
    expect(priv.body).toEqual({ message: "404 Project Not Found" });
  });

  test("GET /issues: 401 anonymous unless scope=all, which lists public non-confidential issues", async () => {
    const anonymous = apiClient(app.url);
    for (const scope of [undefined, "created_by_me", "assigned_to_me"]) {
      const res = await anonymous.get("/issues", { query: scope ? { scope } : {} });
      expect([scope, res.status, res.body]).toEqual([scope, 401, { message: "401 Unauthorized" }]);
    }
    expect(await listRefs(anonymous, "/issues", { scope: "all" })).toEqual(["root/pub#1"]);
  });

  test("GET /issues scopes: created_by_me (default), assigned_to_me, all, dashed variants", async () => {
    const alice = w.alice.api;
    expect(await listRefs(alice, "/issues")).toEqual(["platform/web#1", "platform/api#4", "platform/api#1"]);
    expect(await listRefs(alice, "/issues", { scope: "created_by_me" })).toEqual(["platform/web#1", "platform/api#4", "platform/api#1"]);
    expect(await listRefs(alice, "/issues", { scope: "created-by-me" })).toEqual(["platform/web#1", "platform/api#4", "platform/api#1"]);
    expect(await listRefs(alice, "/issues", { scope: "assigned_to_me" })).toEqual(["platform/api#5", "platform/api#2"]);
    expect(await listRefs(alice, "/issues", { scope: "assigned-to-me" })).toEqual(["platform/api#5", "platform/api#2"]);
    // Everything alice may read: api and web (member), pub (public) without its confidential issue.
    expect(await listRefs(alice, "/issues", { scope: "all" })).toEqual([
      "root/pub#1",
      "platform/web#1",
      "platform/api#5",
      "platform/api#4",
      "platform/api#3",
      "platform/api#2",
      "platform/api#1",
    ]);
    // carol (Guest of api) does not see the confidential api#4, nor anything of web.
    expect(await listRefs(w.carol.api, "/issues", { scope: "all" })).toEqual(["root/pub#1", "platform/api#5", "platform/api#3", "platform/api#2", "platform/api#1"]);
    // An administrator sees every issue.
    expect((await listRefs(root, "/issues", { scope: "all" })).length).toBe(8);
    expect(await listRefs(root, "/issues")).toEqual(["platform/api#5", "platform/api#3"]);
    expect((await alice.get("/issues", { query: { scope: "mine" } })).body).toEqual({ error: "scope does not have a valid value" });
    // Filters apply across projects; references are full outside a project.
    expect(await listRefs(alice, "/issues", { scope: "all", labels: "backend" })).toEqual(["platform/web#1", "platform/api#2"]);
    const item = (await alice.get("/issues", { query: { scope: "all", iids: [2], labels: "backend" } })).body[0];
    expect(item.references).toEqual({ short: "#2", relative: "platform/api#2", full: "platform/api#2" });
  });

  test("GET /groups/:id/issues: the group's readable projects, group-relative references", async () => {
    const G = `/groups/${w.group.id}/issues`;
    expect(await listRefs(w.alice.api, G)).toEqual(["platform/web#1", "platform/api#5", "platform/api#4", "platform/api#3", "platform/api#2", "platform/api#1"]);
    expect(await listRefs(w.bob.api, G)).toEqual(["platform/api#5", "platform/api#4", "platform/api#3", "platform/api#2", "platform/api#1"]);
    expect(await listRefs(w.carol.api, G)).toEqual(["platform/api#5", "platform/api#3", "platform/api#2", "platform/api#1"]);
    const res = await w.alice.api.get(G, { query: { labels: "backend" } });
    expect(res.body.map((i: { references: unknown }) => i.references)).toEqual([
      { short: "#1", relative: "web#1", full: "platform/web#1" },
      { short: "#2", relative: "api#2", full: "platform/api#2" },
    ]);
    expect(await listRefs(w.alice.api, G, { scope: "created_by_me" })).toEqual(["platform/web#1", "platform/api#4", "platform/api#1"]);
    expect(await listRefs(w.alice.api, G, { scope: "assigned_to_me", state: "opened" })).toEqual(["platform/api#5", "platform/api#2"]);
    // Subgroups' projects belong to the group's list, referenced relative to the group.
    const sub = ok(await root.post("/groups", { json: { name: "Backend", path: "backend", parent_id: w.group.id, visibility: "private" } }), 201, "subgroup").body;
    const deep = ok(await root.post("/projects", { json: { name: "deep", namespace_id: sub.id, visibility: "private" } }), 201, "deep").body;
    await createIssue(root, deep.id, { title: "Deep down", labels: "backend" });
    const deepList = await root.get(G, { query: { labels: "backend" } });
    expect(deepList.body.map((i: { references: { relative: string } }) => i.references.relative)).toEqual(["backend/deep#1", "web#1", "api#2"]);
    expect(await listRefs(root, `/groups/${sub.id}/issues`)).toEqual(["platform/backend/deep#1"]);
    const hidden = await w.dave.api.get(G);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: "404 Group Not Found" });
    expect((await apiClient(app.url).get(G)).status).toBe(404);
  });

  test("non_archived (default true) leaves out issues of archived projects on group and global lists", async () => {
    // No endpoint archives a project yet: the flag is set in the table.
    await database.db.execute(sql`UPDATE namespaces.projects SET archived = true WHERE id = ${w.web.id}`);
    const G = `/groups/${w.group.id}/issues`;
    expect(await listRefs(w.alice.api, G, { labels: "backend" })).toEqual(["platform/api#2"]);
    expect(await listRefs(w.alice.api, G, { labels: "backend", non_archived: false })).toEqual(["platform/web#1", "platform/api#2"]);
    expect(await listRefs(w.alice.api, "/issues", { labels: "backend", scope: "all" })).toEqual(["platform/api#2"]);
    expect(await listRefs(w.alice.api, "/issues", { labels: "backend", scope: "all", non_archived: false })).toEqual(["platform/web#1", "platform/api#2"]);
    // The project's own list is not affected.
    expect(await listIids(w.alice.api, `/projects/${w.web.id}/issues`)).toEqual([1]);
  });
});
