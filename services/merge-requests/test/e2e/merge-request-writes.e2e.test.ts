import { addMember, apiClient, assertStatus as ok, createProject, createUser, watchEvents, type ApiClient, type SeenEvent, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";
import { MergeRequests } from "@collab/merge-requests-contract";

/**
 * Merge request writes through the gateway: create (every parameter, GitLab's 400/409/422),
 * single get (detail entity), update (every parameter, system notes, state events), delete, and
 * the domain events on the bus.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("merge-request-writes");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

interface World {
  project: { id: number; path_with_namespace: string };
  developer: TestUser;
  maintainer: TestUser;
  reporter: TestUser;
  milestone: { id: number; title: string };
  P: string;
}

async function seed(): Promise<World> {
  const project = await createProject(root, { name: "api", visibility: "private", initialize_with_readme: true });
  const [developer, maintainer, reporter] = [await createUser(app, "developer"), await createUser(app, "maintainer"), await createUser(app, "reporter")];
  await addMember(app, "projects", project.id, developer.id, 30);
  await addMember(app, "projects", project.id, maintainer.id, 40);
  await addMember(app, "projects", project.id, reporter.id, 20);
  const P = `/projects/${project.id}`;
  for (const b of ["feature", "other", "release"]) ok(await root.post(`${P}/repository/branches`, { json: { branch: b, ref: "main" } }), 201, b);
  const milestone = ok(await root.post(`${P}/milestones`, { json: { title: "v1" } }), 201, "milestone").body;
  return { project, developer, maintainer, reporter, milestone, P };
}

const systemNotes = async (mrId: number) =>
  (
    (await app.database.db.execute(sql`SELECT body FROM merge_requests.notes WHERE noteable_type = 'MergeRequest' AND noteable_id = ${mrId} AND system ORDER BY id`)) as unknown as {
      rows: { body: string }[];
    }
  ).rows.map((r) => r.body);
const milestoneEvents = async (mrId: number) =>
  (
    (await app.database.db.execute(sql`SELECT action, milestone_id FROM merge_requests.resource_milestone_events WHERE merge_request_id = ${mrId} ORDER BY id`)) as unknown as {
      rows: { action: string; milestone_id: number }[];
    }
  ).rows.map((r) => `${r.action} ${r.milestone_id}`);
const stateEvents = async (mrId: number) =>
  ((await app.database.db.execute(sql`SELECT state FROM merge_requests.resource_state_events WHERE merge_request_id = ${mrId} ORDER BY id`)) as unknown as { rows: { state: string }[] }).rows.map(
    (r) => r.state,
  );

describe("create", () => {
  it("creates with every parameter and answers the detail entity", async () => {
    const w = await seed();
    const res = ok(
      await w.developer.api.post(`${w.P}/merge_requests`, {
        json: {
          title: "Add feature",
          source_branch: "feature",
          target_branch: "main",
          description: "- [x] done\n- [ ] todo",
          assignee_ids: [w.developer.id, w.maintainer.id],
          reviewer_ids: [w.maintainer.id],
          labels: "backend,api",
          add_labels: "extra",
          remove_labels: "api",
          milestone_id: w.milestone.id,
          remove_source_branch: true,
          squash: true,
          allow_collaboration: true,
          merge_after: "2030-01-01T00:00:00Z",
        },
      }),
      201,
      "create",
    ).body;
    expect(res).toMatchObject({
      iid: 1,
      title: "Add feature",
      state: "opened",
      author: { username: "developer" },
      assignees: [{ username: "developer" }, { username: "maintainer" }],
      reviewers: [{ username: "maintainer" }],
      labels: ["backend", "extra"],
      milestone: { id: w.milestone.id },
      force_remove_source_branch: true,
      squash: true,
      allow_collaboration: true,
      allow_maintainer_to_push: true,
      merge_after: "2030-01-01T00:00:00.000Z",
      detailed_merge_status: "merge_time",
      task_completion_status: { count: 2, completed_count: 1 },
      changes_count: "0",
      subscribed: true,
      first_contribution: false,
      user: { can_merge: false },
      diff_refs: { base_sha: expect.stringMatching(/^[0-9a-f]{40}$/), head_sha: expect.stringMatching(/^[0-9a-f]{40}$/), start_sha: expect.any(String) },
      pipeline: null,
      head_pipeline: null,
      merge_error: null,
    });
    const got = ok(await w.maintainer.api.get(`${w.P}/merge_requests/1`), 200, "get").body;
    expect(got).toMatchObject({ iid: 1, user: { can_merge: true }, subscribed: true });
    expect(ok(await w.reporter.api.get(`${w.P}/merge_requests/1`), 200, "get").body).toMatchObject({ subscribed: false, user: { can_merge: false } });
  });

  it("marks drafts from the title prefix", async () => {
    const w = await seed();
    for (const [i, title] of ["Draft: a", "[Draft] b", "(draft) c"].entries()) {
      ok(await root.post(`${w.P}/repository/branches`, { json: { branch: `d${i}`, ref: "main" } }), 201, "branch");
      const mr = ok(await w.developer.api.post(`${w.P}/merge_requests`, { json: { title, source_branch: `d${i}`, target_branch: "main" } }), 201, title).body;
      expect(mr).toMatchObject({ draft: true, work_in_progress: true, detailed_merge_status: "draft_status" });
    }
  });

  it("answers GitLab's errors", async () => {
    const w = await seed();
    const post = (json: Record<string, unknown>) => w.developer.api.post(`${w.P}/merge_requests`, { json });
    expect(await post({})).toMatchObject({ status: 400, body: { error: "title is missing, source_branch is missing, target_branch is missing" } });
    expect(await post({ title: "x", source_branch: "feature", target_branch: "feature" })).toMatchObject({ status: 422, body: { message: ["You can't use same project/branch for source and target"] } });
    expect(await post({ title: "x", source_branch: "nope", target_branch: "main" })).toMatchObject({ status: 422, body: { message: ['Source branch "nope" does not exist'] } });
    expect(await post({ title: "x", source_branch: "feature", target_branch: "nope" })).toMatchObject({ status: 422, body: { message: ['Target branch "nope" does not exist'] } });
    expect(await post({ title: " ", source_branch: "feature", target_branch: "main" })).toMatchObject({ status: 400, body: { message: { title: ["can't be blank"] } } });
    ok(await post({ title: "first", source_branch: "feature", target_branch: "main" }), 201, "first");
    expect(await post({ title: "again", source_branch: "feature", target_branch: "main" })).toMatchObject({
      status: 409,
      body: { message: ["Another open merge request already exists for this source branch: !1"] },
    });
    expect(await post({ title: "x", source_branch: "feature", target_branch: "main", assignee_id: 1, assignee_ids: [1] })).toMatchObject({
      status: 400,
      body: { error: "assignee_id, assignee_ids are mutually exclusive" },
    });
  });
});

describe("update", () => {
  it("edits every field, recording system notes and state events", async () => {
    const w = await seed();
    const mr = ok(await w.developer.api.post(`${w.P}/merge_requests`, { json: { title: "Start", source_branch: "feature", target_branch: "main", labels: "a" } }), 201, "create").body;
    const put = (json: Record<string, unknown>, as = w.developer.api) => as.put(`${w.P}/merge_requests/${mr.iid}`, { json });
    expect(await put({})).toMatchObject({ status: 400, body: { error: expect.stringMatching(/are missing, at least one parameter must be provided$/) } });
    ok(await put({ title: "Renamed" }), 200, "title");
    ok(await put({ title: "Draft: Renamed" }), 200, "draft");
    ok(await put({ title: "Renamed" }), 200, "ready");
    ok(await put({ description: "Now described" }), 200, "description");
    ok(await put({ assignee_ids: [w.maintainer.id] }), 200, "assignees");
    ok(await put({ reviewer_ids: [w.developer.id] }), 200, "reviewers");
    ok(await put({ milestone_id: w.milestone.id }), 200, "milestone");
    ok(await put({ milestone_id: 0 }), 200, "no milestone");
    ok(await put({ discussion_locked: true }), 200, "lock");
    ok(await put({ target_branch: "release" }), 200, "target");
    ok(await put({ add_labels: "b", remove_labels: "a" }), 200, "labels");
    ok(await put({ squash: true, remove_source_branch: true, allow_collaboration: true }), 200, "flags");
    ok(await put({ state_event: "close" }), 200, "close");
    const reopened = ok(await put({ state_event: "reopen" }), 200, "reopen").body;
    expect(reopened).toMatchObject({
      title: "Renamed",
      description: "Now described",
      assignees: [{ username: "maintainer" }],
      reviewers: [{ username: "developer" }],
      milestone: null,
      discussion_locked: true,
      target_branch: "release",
      labels: ["b"],
      squash: true,
      force_remove_source_branch: true,
      allow_collaboration: true,
      state: "opened",
      closed_at: null,
    });
    expect(await systemNotes(mr.id)).toEqual([
      "changed title from **Start** to **Renamed**",
      "marked this merge request as **draft**",
      "marked this merge request as **ready**",
      "changed the description",
      "assigned to @maintainer",
      "requested review from @developer",
      "locked the discussion in this merge request",
      "changed target branch from `main` to `release`",
    ]);
    expect(await stateEvents(mr.id)).toEqual(["closed", "reopened"]);
    // Milestone changes are resource milestone events, not system notes.
    expect(await milestoneEvents(mr.id)).toEqual([`add ${w.milestone.id}`, `remove ${w.milestone.id}`]);
  });

  it("refuses what GitLab refuses", async () => {
    const w = await seed();
    const mk = async (source: string) => ok(await w.developer.api.post(`${w.P}/merge_requests`, { json: { title: source, source_branch: source, target_branch: "main" } }), 201, source).body;
    const a = await mk("feature");
    ok(await w.developer.api.put(`${w.P}/merge_requests/${a.iid}`, { json: { state_event: "close" } }), 200, "close");
    await mk("feature"); // another open one for the same branches
    expect(await w.developer.api.put(`${w.P}/merge_requests/${a.iid}`, { json: { state_event: "reopen" } })).toMatchObject({
      status: 409,
      body: { message: ["Another open merge request already exists for this source branch: !2"] },
    });
    expect(await w.developer.api.put(`${w.P}/merge_requests/2`, { json: { target_branch: "" } })).toMatchObject({ status: 400, body: { error: "target_branch is empty" } });
    expect(await w.developer.api.put(`${w.P}/merge_requests/2`, { json: { target_branch: "feature" } })).toMatchObject({ status: 422 });
    expect(await w.developer.api.put(`${w.P}/merge_requests/2`, { json: { state_event: "merge" } })).toMatchObject({ status: 400, body: { error: "state_event does not have a valid value" } });
    expect(await w.reporter.api.put(`${w.P}/merge_requests/2`, { json: { title: "x" } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await w.developer.api.put(`${w.P}/merge_requests/99`, { json: { title: "x" } })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });
});

describe("delete", () => {
  it("is for owners and administrators: 204, then 404", async () => {
    const w = await seed();
    ok(await w.developer.api.post(`${w.P}/merge_requests`, { json: { title: "x", source_branch: "feature", target_branch: "main" } }), 201, "create");
    expect(await w.maintainer.api.delete(`${w.P}/merge_requests/1`)).toMatchObject({ status: 403 });
    expect((await root.delete(`${w.P}/merge_requests/1`)).status).toBe(204);
    expect((await root.get(`${w.P}/merge_requests/1`)).status).toBe(404);
    // The iid is not reused.
    expect(ok(await w.developer.api.post(`${w.P}/merge_requests`, { json: { title: "y", source_branch: "feature", target_branch: "main" } }), 201, "again").body.iid).toBe(2);
  });
});

describe("durable domain events", () => {
  let seen: SeenEvent[];
  let watch: Awaited<ReturnType<typeof watchEvents>>;
  beforeEach(async () => {
    watch = await watchEvents(app, ["merge-requests.merge_request.*"]);
    seen = watch.seen;
  });
  afterEach(() => watch.stop());

  it("opened, updated, closed, reopened, merged and deleted carry the merge request and the actor", async () => {
    const w = await seed();
    const mr = ok(await w.developer.api.post(`${w.P}/merge_requests`, { json: { title: "E", source_branch: "feature", target_branch: "other" } }), 201, "create").body;
    const base = { id: mr.id, iid: 1, project_id: w.project.id, source_branch: "feature", target_branch: "other" };
    ok(await w.developer.api.put(`${w.P}/merge_requests/1`, { json: { title: "E2" } }), 200, "title");
    ok(await w.developer.api.put(`${w.P}/merge_requests/1`, { json: { state_event: "close" } }), 200, "close");
    ok(await w.developer.api.put(`${w.P}/merge_requests/1`, { json: { state_event: "reopen" } }), 200, "reopen");
    ok(await w.developer.api.put(`${w.P}/merge_requests/1/merge`), 200, "merge");
    ok(await root.delete(`${w.P}/merge_requests/1`), 204, "delete");
    const until = Date.now() + 5000;
    while (seen.length < 6 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const E = MergeRequests.events;
    expect(seen.map((s) => s.event)).toEqual([E.mergeRequestOpened, E.mergeRequestUpdated, E.mergeRequestClosed, E.mergeRequestReopened, E.mergeRequestMerged, E.mergeRequestDeleted].map((e) => e.name));
    // Opened also carries what the activity service makes to-dos of: assignees, reviewers, description.
    expect(seen[0].payload).toEqual({ ...base, actor_id: w.developer.id, title: "E", state: "opened", assignee_ids: [], reviewer_ids: [], description: null });
    expect(seen[1].payload).toMatchObject({ ...base, title: "E2", changes: ["title"] });
    expect(seen[4].payload).toMatchObject({ ...base, state: "merged", merge_commit_sha: expect.any(String) });
    expect(seen[5].payload).toMatchObject({ ...base, actor_id: 1 });
  });
});
