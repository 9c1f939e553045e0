import { addMember, apiClient, assertStatus as ok, createGroup, createProject, createUser, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

/**
 * Merge request lists through the gateway: /merge_requests, /groups/:id/merge_requests and
 * /projects/:id/merge_requests with every filter (sentinels and not[...] included), every order,
 * view=simple, label details and pagination headers.
 *
 * The world: group "platform" with project api (private); alice (Developer) and bob (Developer).
 *   !1 "Add login"        alice → feature-a, assignee bob, reviewer bob, labels bug+ui, milestone v1
 *   !2 "Draft: Refactor"  bob   → feature-b, no assignee, no reviewer, label ui, created later
 *   !3 "Fix typo"         alice → feature-c, merged by root, assignee alice, description "typo in docs"
 *   !4 "Closed one"       bob   → feature-d, closed
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("merge-request-lists");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

interface World {
  group: { id: number; full_path: string };
  project: { id: number; path_with_namespace: string };
  alice: TestUser;
  bob: TestUser;
  milestone: { id: number; title: string };
  mrs: { id: number; iid: number }[];
}

async function seed(): Promise<World> {
  const group = await createGroup(root, "Platform", "platform", { visibility: "private" });
  const project = await createProject(root, { name: "api", namespace_id: group.id, visibility: "private", initialize_with_readme: true });
  const [alice, bob] = [await createUser(app, "alice"), await createUser(app, "bob")];
  await addMember(app, "projects", project.id, alice.id, 30);
  await addMember(app, "projects", project.id, bob.id, 30);
  const P = `/projects/${project.id}`;
  const milestone = ok(await root.post(`${P}/milestones`, { json: { title: "v1", due_date: "2030-01-01" } }), 201, "milestone").body;
  ok(await root.post(`${P}/labels`, { json: { name: "bug", color: "#FF0000", priority: 1 } }), 201, "label");
  ok(await root.post(`${P}/labels`, { json: { name: "ui", color: "#00FF00", priority: 2 } }), 201, "label");
  for (const b of ["feature-a", "feature-b", "feature-c", "feature-d"]) ok(await root.post(`${P}/repository/branches`, { json: { branch: b, ref: "main" } }), 201, b);
  const create = async (as: TestUser, json: Record<string, unknown>) => ok(await as.api.post(`${P}/merge_requests`, { json: { target_branch: "main", ...json } }), 201, "create").body;
  const m1 = await create(alice, { title: "Add login", source_branch: "feature-a", assignee_id: bob.id, reviewer_ids: [bob.id], labels: "bug,ui", milestone_id: milestone.id });
  const m2 = await create(bob, { title: "Draft: Refactor", source_branch: "feature-b", labels: "ui" });
  const m3 = await create(alice, { title: "Fix typo", source_branch: "feature-c", assignee_id: alice.id, description: "typo in docs" });
  const m4 = await create(bob, { title: "Closed one", source_branch: "feature-d" });
  ok(await root.put(`${P}/merge_requests/${m3.iid}/merge`), 200, "merge");
  ok(await root.put(`${P}/merge_requests/${m4.iid}`, { json: { state_event: "close" } }), 200, "close");
  // Distinct creation times, for the date filters and orders.
  await app.database.db.execute(sql`UPDATE merge_requests.merge_requests SET created_at = TIMESTAMPTZ '2024-01-01T00:00:00Z' + (iid || ' days')::interval`);
  return { group, project, alice, bob, milestone, mrs: [m1, m2, m3, m4] };
}

const iids = (res: { body: { iid: number }[] }) => res.body.map((m) => m.iid);

describe("project list filters", () => {
  let w: World;
  let list: (query?: Record<string, string | number | boolean | (string | number)[]>, as?: ApiClient) => Promise<number[]>;
  beforeEach(async () => {
    w = await seed();
    list = async (query = {}, as = root) => iids(ok(await as.get(`/projects/${w.project.id}/merge_requests`, { query }), 200, JSON.stringify(query)));
  });

  it("lists all states newest first by default; state filters", async () => {
    expect(await list()).toEqual([4, 3, 2, 1]);
    expect(await list({ state: "opened" })).toEqual([2, 1]);
    expect(await list({ state: "merged" })).toEqual([3]);
    expect(await list({ state: "closed" })).toEqual([4]);
    expect(await list({ state: "locked" })).toEqual([]);
    expect(await list({ iids: [1, 3] })).toEqual([3, 1]);
  });

  it("filters by author, assignee, reviewer and merge user (ids, usernames, None / Any)", async () => {
    expect(await list({ author_id: w.alice.id })).toEqual([3, 1]);
    expect(await list({ author_username: "bob" })).toEqual([4, 2]);
    expect(await list({ author_username: "nobody" })).toEqual([]);
    expect(await list({ assignee_id: "None" })).toEqual([4, 2]);
    expect(await list({ assignee_id: "Any" })).toEqual([3, 1]);
    expect(await list({ assignee_id: w.bob.id })).toEqual([1]);
    expect(await list({ assignee_username: "alice" })).toEqual([3]);
    expect(await list({ reviewer_id: "None" })).toEqual([4, 3, 2]);
    expect(await list({ reviewer_id: "Any" })).toEqual([1]);
    expect(await list({ reviewer_id: w.bob.id })).toEqual([1]);
    expect(await list({ reviewer_username: "bob" })).toEqual([1]);
    expect(await list({ merge_user_username: "root" })).toEqual([3]);
    expect(await list({ merge_user_id: w.alice.id })).toEqual([]);
  });

  it("filters by labels, milestone, reaction emoji", async () => {
    expect(await list({ labels: "ui" })).toEqual([2, 1]);
    expect(await list({ labels: "bug,ui" })).toEqual([1]);
    expect(await list({ labels: "None" })).toEqual([4, 3]);
    expect(await list({ labels: "Any" })).toEqual([2, 1]);
    expect(await list({ milestone: "v1" })).toEqual([1]);
    expect(await list({ milestone: "None" })).toEqual([4, 3, 2]);
    expect(await list({ milestone: "Any" })).toEqual([1]);
    expect(await list({ my_reaction_emoji: "None" })).toEqual([4, 3, 2, 1]);
    expect(await list({ my_reaction_emoji: "Any" })).toEqual([]);
  });

  it("filters by the caller's own reactions (my_reaction_emoji, not[my_reaction_emoji])", async () => {
    const award = async (iid: number, name: string) => ok(await root.post(`/projects/${w.project.id}/merge_requests/${iid}/award_emoji`, { json: { name } }), 201, `award ${name}`);
    await award(1, "thumbsup");
    await award(3, "eyes");
    expect(await list({ my_reaction_emoji: "None" })).toEqual([4, 2]);
    expect(await list({ my_reaction_emoji: "Any" })).toEqual([3, 1]);
    expect(await list({ my_reaction_emoji: "thumbsup" })).toEqual([1]);
    expect(await list({ my_reaction_emoji: "rocket" })).toEqual([]);
    expect(await list({ "not[my_reaction_emoji]": "thumbsup" })).toEqual([4, 3, 2]);
    expect(await list({ "not[my_reaction_emoji]": "None" })).toEqual([3, 1]);
    expect(await list({ "not[my_reaction_emoji]": "Any" })).toEqual([4, 2]);
  });

  it("negates with not[...]", async () => {
    expect(await list({ "not[labels]": "bug" })).toEqual([4, 3, 2]);
    expect(await list({ "not[milestone]": "v1" })).toEqual([4, 3, 2]);
    expect(await list({ "not[milestone]": "None" })).toEqual([1]);
    expect(await list({ "not[author_id]": w.alice.id })).toEqual([4, 2]);
    expect(await list({ "not[author_username]": "bob" })).toEqual([3, 1]);
    expect(await list({ "not[assignee_id]": "None" })).toEqual([3, 1]);
    expect(await list({ "not[assignee_id]": w.bob.id })).toEqual([4, 3, 2]);
    expect(await list({ "not[assignee_username]": "alice" })).toEqual([4, 2, 1]);
    expect(await list({ "not[reviewer_id]": "Any" })).toEqual([4, 3, 2]);
    expect(await list({ "not[reviewer_username]": "bob" })).toEqual([4, 3, 2]);
    expect(await list({ "not[my_reaction_emoji]": "None" })).toEqual([]);
    expect(await list({ "not[my_reaction_emoji]": "Any" })).toEqual([4, 3, 2, 1]);
  });

  it("filters by dates, branches, search, draft and deployments", async () => {
    expect(await list({ created_after: "2024-01-02T12:00:00Z" })).toEqual([4, 3, 2]);
    expect(await list({ created_before: "2024-01-02T12:00:00Z" })).toEqual([1]);
    expect(await list({ updated_after: "2000-01-01T00:00:00Z", updated_before: "2999-01-01T00:00:00Z" })).toEqual([4, 3, 2, 1]);
    expect(await list({ merged_after: "2000-01-01T00:00:00Z" })).toEqual([3]);
    expect(await list({ merged_before: "2000-01-01T00:00:00Z" })).toEqual([]);
    // No deployments exist: these match nothing.
    expect(await list({ deployed_after: "2000-01-01T00:00:00Z" })).toEqual([]);
    expect(await list({ environment: "production" })).toEqual([]);
    expect(await list({ source_branch: "feature-b" })).toEqual([2]);
    expect(await list({ target_branch: "main" })).toEqual([4, 3, 2, 1]);
    expect(await list({ source_project_id: w.project.id })).toEqual([4, 3, 2, 1]);
    expect(await list({ search: "typo" })).toEqual([3]);
    expect(await list({ search: "docs", in: "title" })).toEqual([]);
    expect(await list({ search: "docs", in: "description" })).toEqual([3]);
    expect(await list({ wip: "yes" })).toEqual([2]);
    expect(await list({ wip: "no" })).toEqual([4, 3, 1]);
    expect(await list({ draft: true })).toEqual([2]);
    expect(await list({ with_merge_status_recheck: true })).toEqual([4, 3, 2, 1]);
  });

  it("filters by approvals (Premium and up)", async () => {
    await app.database.db.execute(sql`INSERT INTO merge_requests.approvals (merge_request_id, user_id, created_at) VALUES (${w.mrs[0].id}, ${w.bob.id}, now()), (${w.mrs[1].id}, ${w.alice.id}, now())`);
    expect(await list({ approved_by_ids: [w.bob.id] })).toEqual([1]);
    expect(await list({ approved_by_ids: "None" })).toEqual([4, 3]);
    expect(await list({ approved_by_ids: "Any" })).toEqual([2, 1]);
    expect(await list({ approved_by_usernames: "alice" })).toEqual([2]);
    expect(await list({ approved: "yes" })).toEqual([2, 1]);
    expect(await list({ approved: "no" })).toEqual([4, 3]);
    expect(await list({ approver_ids: "None" })).toEqual([4, 3, 2, 1]);
    expect(await list({ approver_ids: "Any" })).toEqual([]);
    // Approvers are the users the rules in force name: !2's own rule, the project's rule elsewhere.
    ok(await root.post(`/projects/${w.project.id}/approval_rules`, { json: { name: "Backend", approvals_required: 1, user_ids: [w.alice.id] } }), 201, "project rule");
    ok(await root.post(`/projects/${w.project.id}/merge_requests/${w.mrs[1].iid}/approval_rules`, { json: { name: "Docs", approvals_required: 1, user_ids: [w.bob.id] } }), 201, "MR rule");
    expect(await list({ approver_ids: [w.alice.id] })).toEqual([4, 3, 1]);
    expect(await list({ approver_ids: [w.bob.id] })).toEqual([2]);
    expect(await list({ approver_ids: [w.alice.id, w.bob.id] })).toEqual([]);
    expect(await list({ approver_ids: "Any" })).toEqual([4, 3, 2, 1]);
    expect(await list({ approver_ids: "None" })).toEqual([]);
    const tooMany = await root.get(`/projects/${w.project.id}/merge_requests`, { query: { approved_by_ids: [1, 2, 3, 4, 5, 6] } });
    expect(tooMany).toMatchObject({ status: 400, body: { error: "approved_by_ids does not have a valid value" } });
  });

  it("orders by every key, with id as the tie-breaker", async () => {
    expect(await list({ sort: "asc" })).toEqual([1, 2, 3, 4]);
    expect(await list({ order_by: "title", sort: "asc" })).toEqual([1, 4, 2, 3]);
    expect(await list({ order_by: "merged_at" })).toEqual([3, 4, 2, 1]);
    expect(await list({ order_by: "updated_at" })).toHaveLength(4);
    expect(await list({ order_by: "popularity" })).toEqual([4, 3, 2, 1]);
    expect(await list({ order_by: "milestone_due", sort: "asc" })).toEqual([1, 2, 3, 4]);
    expect(await list({ order_by: "label_priority", sort: "asc" })).toEqual([1, 2, 3, 4]);
    expect(await list({ order_by: "priority", sort: "asc" })).toEqual([1, 2, 3, 4]);
  });

  it("answers GitLab's 400s", async () => {
    const bad = async (query: Record<string, string | number>) => (await root.get(`/projects/${w.project.id}/merge_requests`, { query })).body;
    expect(await bad({ author_id: 1, author_username: "x" })).toEqual({ error: "author_id, author_username are mutually exclusive" });
    expect(await bad({ wip: "yes", draft: "true" })).toEqual({ error: "wip, draft are mutually exclusive" });
    expect(await bad({ state: "open" })).toEqual({ error: "state does not have a valid value" });
    expect(await bad({ order_by: "due_date" })).toEqual({ error: "order_by does not have a valid value" });
    expect(await bad({ assignee_id: "someone" })).toEqual({ error: "assignee_id is invalid" });
  });

  it("view=simple, with_labels_details, pagination headers", async () => {
    const simple = ok(await root.get(`/projects/${w.project.id}/merge_requests`, { query: { view: "simple", per_page: 1 } }), 200, "simple");
    expect(Object.keys(simple.body[0]).sort()).toEqual(["created_at", "description", "id", "iid", "project_id", "state", "title", "updated_at", "web_url"]);
    expect(simple.headers.get("x-total")).toBe("4");
    expect(simple.headers.get("x-total-pages")).toBe("4");
    expect(simple.headers.get("x-next-page")).toBe("2");
    const past = ok(await root.get(`/projects/${w.project.id}/merge_requests`, { query: { per_page: 2, page: 5 } }), 200, "past the end");
    expect(past.body).toEqual([]);
    expect(past.headers.get("x-total")).toBe("4");
    const detailed = ok(await root.get(`/projects/${w.project.id}/merge_requests`, { query: { with_labels_details: true, iids: [1] } }), 200, "labels").body[0];
    expect(detailed.labels.map((l: { name: string }) => l.name)).toEqual(["bug", "ui"]);
    expect(detailed.labels[0]).toMatchObject({ id: expect.any(Number), color: "#FF0000", text_color: expect.any(String) });
  });

  it("presents the list entity", async () => {
    const [m1] = ok(await root.get(`/projects/${w.project.id}/merge_requests`, { query: { iids: [1] } }), 200, "one").body;
    expect(m1).toMatchObject({
      iid: 1,
      project_id: w.project.id,
      source_project_id: w.project.id,
      target_project_id: w.project.id,
      title: "Add login",
      state: "opened",
      author: { username: "alice" },
      assignee: { username: "bob" },
      assignees: [{ username: "bob" }],
      reviewers: [{ username: "bob" }],
      labels: ["bug", "ui"],
      milestone: { title: "v1" },
      draft: false,
      work_in_progress: false,
      merge_status: "can_be_merged",
      detailed_merge_status: "mergeable",
      sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      merge_commit_sha: null,
      reference: "!1",
      references: { short: "!1", relative: "!1", full: `${w.project.path_with_namespace}!1` },
      web_url: expect.stringMatching(/\/platform\/api\/-\/merge_requests\/1$/),
      time_stats: { time_estimate: 0, total_time_spent: 0 },
      task_completion_status: { count: 0, completed_count: 0 },
      approvals_before_merge: null,
    });
    expect(m1).not.toHaveProperty("changes_count");
  });
});

describe("global and group lists", () => {
  it("/merge_requests defaults to created_by_me; assigned_to_me, reviews_for_me, all; anonymous only with scope=all", async () => {
    const w = await seed();
    const mine = async (as: ApiClient, query: Record<string, string> = {}) => iids(ok(await as.get("/merge_requests", { query }), 200, "global"));
    expect(await mine(w.alice.api)).toEqual([3, 1]);
    expect(await mine(w.alice.api, { scope: "assigned_to_me" })).toEqual([3]);
    expect(await mine(w.bob.api, { scope: "assigned-to-me" })).toEqual([1]);
    expect(await mine(w.bob.api, { scope: "reviews_for_me" })).toEqual([1]);
    expect(await mine(w.bob.api, { scope: "all" })).toEqual([4, 3, 2, 1]);
    expect(await apiClient(app.url).get("/merge_requests")).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    // A private project: nothing for anonymous callers, even with scope=all.
    expect(iids(ok(await apiClient(app.url).get("/merge_requests", { query: { scope: "all" } }), 200, "anonymous"))).toEqual([]);
    const outsider = await createUser(app, "outsider");
    expect(await mine(outsider.api, { scope: "all" })).toEqual([]);
  });

  it("group lists cover the projects below, relative references, non_archived", async () => {
    const w = await seed();
    const outsider = await createUser(app, "outsider");
    expect(ok(await outsider.api.get(`/groups/${w.group.id}/merge_requests`), 404, "hidden group").body).toEqual({ message: "404 Group Not Found" });
    // A project member sees the group, and the merge requests of the projects they may read.
    expect(iids(ok(await w.alice.api.get(`/groups/${w.group.id}/merge_requests`), 200, "member"))).toEqual([4, 3, 2, 1]);
    const res = ok(await root.get(`/groups/${w.group.id}/merge_requests`, { query: { state: "opened" } }), 200, "group").body;
    expect(res.map((m: { iid: number }) => m.iid)).toEqual([2, 1]);
    expect(res[0].references).toMatchObject({ short: "!2", relative: "api!2" });
    await app.database.db.execute(sql`UPDATE namespaces.projects SET archived = true WHERE id = ${w.project.id}`);
    expect(iids(ok(await root.get(`/groups/${w.group.id}/merge_requests`), 200, "archived"))).toEqual([]);
    expect(iids(ok(await root.get(`/groups/${w.group.id}/merge_requests`, { query: { non_archived: false } }), 200, "archived too"))).toEqual([4, 3, 2, 1]);
  });
});
