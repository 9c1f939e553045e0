import { addMember, apiClient, createGroup, createProject, createUser, eventually, watchEvents, TEST_PASSWORD, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { loadConfig } from "@collab/core";
import { approvalsLeftFor } from "@collab/merge-requests/approvals/gate";
import { resetApprovalsOnPush } from "@collab/merge-requests/approvals/on-push";
import { mergeRequests } from "@collab/merge-requests/db/schema";
import type { ServiceKit } from "@collab/db";
import { eq, inArray } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";
import { createMergeRequest, type CreatedMergeRequest } from "@collab/standalone/test/merge-requests";
import { MergeRequests } from "@collab/merge-requests-contract";

const E = MergeRequests.events;

/**
 * Merge request approvals through the gateway: approve (201 approval state, 304 again, 409 on a
 * stale sha, 401 when not eligible or re-authentication fails), unapprove (404 when not approved),
 * reset_approvals (project/group token bots only, 202), GET approvals / approval_state with
 * approvals_left from approvals_before_merge, project rules (branch-scoped too) and
 * merge-request-level rules; the permission matrix on a private and a public project; reset on push.
 *
 * World (once per file): private group "team" with private project "app", public group "open"
 * with public project "site"; in both groups owner (50), maint (40), author (30), dev (30),
 * dev3 (30), reporter (20), guest (10); outsider belongs nowhere; root is the administrator; a
 * project access token bot and a group access token bot on "team"/"app".
 */
let app: TestApp;
let root: ApiClient;
const U = {} as Record<"owner" | "maint" | "author" | "dev" | "dev3" | "reporter" | "guest" | "outsider", TestUser>;
let priv: { id: number };
let pub: { id: number };
let team: { id: number };
let projectBot: { id: number; api: ApiClient };
let groupBot: { id: number; api: ApiClient };
let serviceAccount: { api: ApiClient } | undefined;
let branchSerial = 0;

beforeAll(async () => {
  app = await startApp("merge-request-approvals");
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  team = await createGroup(root, "team", "team", { visibility: "private" });
  const open = await createGroup(root, "open", "open", { visibility: "public" });
  priv = await createProject(root, { name: "app", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
  pub = await createProject(root, { name: "site", namespace_id: open.id, visibility: "public", initialize_with_readme: true });
  const levels = { owner: 50, maint: 40, author: 30, dev: 30, dev3: 30, reporter: 20, guest: 10 } as const;
  for (const [name, level] of Object.entries(levels)) {
    U[name as keyof typeof levels] = await createUser(app, name);
    await addMember(app, "groups", team.id, U[name as keyof typeof levels].id, level);
    await addMember(app, "groups", open.id, U[name as keyof typeof levels].id, level);
  }
  U.outsider = await createUser(app, "outsider");
  const pt = await root.post(`/projects/${priv.id}/access_tokens`, { json: { name: "bot", scopes: ["api"], access_level: 30 } });
  expect(pt.status).toBe(201);
  projectBot = { id: pt.body.user_id, api: apiClient(app.url, pt.body.token) };
  const gt = await root.post(`/groups/${team.id}/access_tokens`, { json: { name: "gbot", scopes: ["api"], access_level: 30 } });
  expect(gt.status).toBe(201);
  groupBot = { id: gt.body.user_id, api: apiClient(app.url, gt.body.token) };
  const sa = await root.post("/service_accounts", { json: { name: "robot", username: "robot", email: "robot@example.com" } });
  if (sa.status === 201) {
    await addMember(app, "groups", team.id, sa.body.id, 40);
    const t = await root.post(`/users/${sa.body.id}/personal_access_tokens`, { json: { name: "t", scopes: ["api"] } });
    if (t.status === 201) serviceAccount = { api: apiClient(app.url, t.body.token) };
  }
});
afterAll(() => app.stop());

/** A fresh merge request by `author` from a new branch into `target` (main by default). */
async function newMergeRequest(project: { id: number }, target = "main"): Promise<CreatedMergeRequest> {
  const branch = `feature-${++branchSerial}`;
  expect((await root.post(`/projects/${project.id}/repository/branches`, { json: { branch, ref: "main" } })).status).toBe(201);
  return createMergeRequest(U.author.api, project.id, { title: `MR ${branch}`, source_branch: branch, target_branch: target });
}

const M = (mr: CreatedMergeRequest) => `/projects/${mr.project_id}/merge_requests/${mr.iid}`;

async function settings(project: { id: number }, json: Record<string, unknown>) {
  const res = await root.post(`/projects/${project.id}/approvals`, { json });
  expect(res.status).toBe(201);
  return res.body;
}

/** Every test starts from GitLab's default settings and no project rules. */
beforeEach(async () => {
  for (const p of [priv, pub]) {
    await settings(p, {
      approvals_before_merge: 0,
      reset_approvals_on_push: true,
      selective_code_owner_removals: false,
      disable_overriding_approvers_per_merge_request: false,
      merge_requests_author_approval: false,
      merge_requests_disable_committers_approval: false,
      require_reauthentication_to_approve: false,
    });
    const rules = (await root.get(`/projects/${p.id}/approval_rules`, { query: { per_page: "100" } })).body as { id: number }[];
    for (const r of rules) expect((await root.delete(`/projects/${p.id}/approval_rules/${r.id}`)).status).toBe(204);
  }
});

describe("approve and unapprove", () => {
  test("GET approvals shape; approve → 201 state; again → 304; unapprove → 201; again → 404", async () => {
    const mr = await newMergeRequest(priv);
    const initial = await U.dev.api.get(`${M(mr)}/approvals`);
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({
      id: mr.id,
      iid: mr.iid,
      project_id: priv.id,
      title: expect.any(String),
      state: "opened",
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      merge_status: expect.any(String),
      approvals_required: 0,
      approvals_left: 0,
      approved: true,
      approved_by: [],
      user_has_approved: false,
      user_can_approve: true,
    });

    const approved = await U.dev.api.post(`${M(mr)}/approve`);
    expect(approved.status).toBe(201);
    expect(approved.body.approved_by).toEqual([{ user: expect.objectContaining({ id: U.dev.id, username: "dev" }) }]);
    expect(approved.body).toMatchObject({ user_has_approved: true, user_can_approve: false });

    expect((await U.dev.api.post(`${M(mr)}/approve`)).status).toBe(304);

    const unapproved = await U.dev.api.post(`${M(mr)}/unapprove`);
    expect(unapproved.status).toBe(201);
    expect(unapproved.body.approved_by).toEqual([]);
    expect(await U.dev.api.post(`${M(mr)}/unapprove`)).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
  });

  test("sha: a stale one → 409 naming the head; the head → 201", async () => {
    const mr = await newMergeRequest(priv);
    expect(await U.dev.api.post(`${M(mr)}/approve`, { json: { sha: "0".repeat(40) } })).toMatchObject({
      status: 409,
      body: { message: `SHA does not match HEAD of source branch: ${mr.sha}` },
    });
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body.approved_by).toEqual([]);
    expect((await U.dev.api.post(`${M(mr)}/approve`, { json: { sha: mr.sha } })).status).toBe(201);
  });

  test("the author approves only with merge_requests_author_approval; committers' approval can be barred", async () => {
    const mr = await newMergeRequest(priv);
    expect(await U.author.api.post(`${M(mr)}/approve`)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await U.author.api.get(`${M(mr)}/approvals`)).body.user_can_approve).toBe(false);
    await settings(priv, { merge_requests_author_approval: true, merge_requests_disable_committers_approval: true });
    // The author stands for the committers (the repository model keeps no commit authorship).
    expect((await U.author.api.post(`${M(mr)}/approve`)).status).toBe(401);
    await settings(priv, { merge_requests_disable_committers_approval: false });
    expect((await U.author.api.post(`${M(mr)}/approve`)).status).toBe(201);
  });

  test("re-authentication: approval_password required and checked (401 missing or wrong); the deprecated name works too", async () => {
    const mr = await newMergeRequest(priv);
    const s = await settings(priv, { require_reauthentication_to_approve: true });
    expect(s).toMatchObject({ require_reauthentication_to_approve: true, require_password_to_approve: true });
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body.require_password_to_approve).toBe(true);
    expect((await U.dev.api.post(`${M(mr)}/approve`)).status).toBe(401);
    expect((await U.dev.api.post(`${M(mr)}/approve`, { json: { approval_password: "wrong" } })).status).toBe(401);
    expect((await U.dev.api.post(`${M(mr)}/approve`, { json: { approval_password: TEST_PASSWORD } })).status).toBe(201);
    await settings(priv, { require_reauthentication_to_approve: false });
    expect((await settings(priv, { require_password_to_approve: true })).require_reauthentication_to_approve).toBe(true);
    expect((await U.dev3.api.post(`${M(mr)}/approve`)).status).toBe(401);
  });

  test("durable events for approve, unapprove and reset", async () => {
    const watch = await watchEvents(app, [E.mergeRequestApproved, E.mergeRequestUnapproved, E.mergeRequestApprovalsReset]);
    try {
      const mr = await newMergeRequest(priv);
      await U.dev.api.post(`${M(mr)}/approve`);
      await U.dev.api.post(`${M(mr)}/unapprove`);
      await projectBot.api.put(`${M(mr)}/reset_approvals`);
      const payload = { id: mr.id, iid: mr.iid, project_id: priv.id, title: expect.stringMatching(/^MR feature-/) };
      await eventually(() => expect(watch.seen).toHaveLength(3));
      expect(watch.seen.map(({ event, payload }) => ({ event, payload }))).toEqual([
        { event: E.mergeRequestApproved.name, payload: { ...payload, actor_id: U.dev.id } },
        { event: E.mergeRequestUnapproved.name, payload: { ...payload, actor_id: U.dev.id } },
        { event: E.mergeRequestApprovalsReset.name, payload: { ...payload, actor_id: projectBot.id } },
      ]);
    } finally {
      await watch.stop();
    }
  });
});

test("closed or merged merge requests cannot be approved (401); merged ones cannot be reset (401)", async () => {
  const mr = await newMergeRequest(priv);
  await U.dev.api.post(`${M(mr)}/approve`);
  await app.database.db.update(mergeRequests).set({ state: "closed" }).where(eq(mergeRequests.id, mr.id));
  expect((await U.maint.api.post(`${M(mr)}/approve`)).status).toBe(401);
  expect((await U.maint.api.get(`${M(mr)}/approvals`)).body).toMatchObject({ state: "closed", user_can_approve: false });
  expect((await U.dev.api.post(`${M(mr)}/unapprove`)).status).toBe(201);
  await U.dev.api.post(`${M(mr)}/approve`).then((r) => expect(r.status).toBe(401));
  await app.database.db.update(mergeRequests).set({ state: "merged" }).where(eq(mergeRequests.id, mr.id));
  expect((await projectBot.api.put(`${M(mr)}/reset_approvals`)).status).toBe(401);
});

describe("approvals_left", () => {
  test("approvals_before_merge (deprecated setting) requires that many approvals from Developers up", async () => {
    await settings(priv, { approvals_before_merge: 2 });
    const mr = await newMergeRequest(priv);
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body).toMatchObject({ approvals_required: 2, approvals_left: 2, approved: false });
    expect((await U.maint.api.post(`${M(mr)}/approve`)).body).toMatchObject({ approvals_left: 1, approved: false });
    // A Reporter is not eligible at all.
    expect((await U.reporter.api.post(`${M(mr)}/approve`)).status).toBe(401);
    expect((await U.dev.api.post(`${M(mr)}/approve`)).body).toMatchObject({ approvals_left: 0, approved: true });
  });

  test("project rules: each is satisfied by its own approvers; any_approver by any Developer; approval_state shows who", async () => {
    const named = await root.post(`/projects/${priv.id}/approval_rules`, { json: { name: "maintainers", approvals_required: 1, user_ids: [U.maint.id] } });
    expect(named.status).toBe(201);
    const any = await root.post(`/projects/${priv.id}/approval_rules`, { json: { name: "All Members", approvals_required: 1, rule_type: "any_approver" } });
    expect(any.status).toBe(201);
    const mr = await newMergeRequest(priv);
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body).toMatchObject({ approvals_required: 2, approvals_left: 2, has_approval_rules: true });
    expect((await U.dev.api.post(`${M(mr)}/approve`)).body.approvals_left).toBe(1);
    const state = await U.dev.api.get(`${M(mr)}/approval_state`);
    expect(state.status).toBe(200);
    expect(state.body).toEqual({
      approval_rules_overwritten: false,
      rules: [
        expect.objectContaining({ id: named.body.id, name: "maintainers", rule_type: "regular", approved: false, approved_by: [], source_rule: null, overridden: false }),
        expect.objectContaining({ id: any.body.id, name: "All Members", rule_type: "any_approver", approved: true, approved_by: [expect.objectContaining({ id: U.dev.id })] }),
      ],
    });
    expect((await U.maint.api.post(`${M(mr)}/approve`)).body).toMatchObject({ approvals_left: 0, approved: true });
  });

  test("group approvers: members of a rule's groups are eligible; others are not", async () => {
    const reviewers = await createGroup(root, "reviewers", "reviewers", { visibility: "private" });
    await addMember(app, "groups", reviewers.id, U.dev3.id, 30);
    const rule = await root.post(`/projects/${priv.id}/approval_rules`, { json: { name: "reviewers", approvals_required: 1, group_ids: [reviewers.id] } });
    // root made the group, so it is its Owner: a member too.
    const rootId = (await root.get("/user")).body.id;
    expect(rule.body.eligible_approvers.map((u: { id: number }) => u.id)).toEqual([rootId, U.dev3.id].sort((x, y) => x - y));
    const mr = await newMergeRequest(priv);
    expect((await U.dev.api.post(`${M(mr)}/approve`)).status).toBe(401);
    expect((await U.dev3.api.post(`${M(mr)}/approve`)).body).toMatchObject({ approvals_left: 0 });
  });

  test("branch-scoped rules apply to merge requests whose target branch they protect", async () => {
    expect((await root.post(`/projects/${priv.id}/repository/branches`, { json: { branch: "release/1", ref: "main" } })).status).toBe(201);
    const pb = await root.post(`/projects/${priv.id}/protected_branches`, { json: { name: "release/*" } });
    expect(pb.status).toBe(201);
    await root.post(`/projects/${priv.id}/approval_rules`, { json: { name: "release", approvals_required: 2, protected_branch_ids: [pb.body.id] } });
    await root.post(`/projects/${priv.id}/approval_rules`, { json: { name: "protected", approvals_required: 1, applies_to_all_protected_branches: true } });
    // main is protected by default: "protected" applies, "release" does not.
    expect((await U.dev.api.get(`${M(await newMergeRequest(priv))}/approvals`)).body.approvals_required).toBe(1);
    expect((await U.dev.api.get(`${M(await newMergeRequest(priv, "release/1"))}/approvals`)).body.approvals_required).toBe(3);
    expect((await U.dev.api.get(`${M(await newMergeRequest(priv, "feature-1"))}/approvals`)).body.approvals_required).toBe(0);
    expect((await root.delete(`/projects/${priv.id}/protected_branches/${encodeURIComponent("release/*")}`)).status).toBe(204);
  });

  test("merge-request rules replace the project's; deleting them brings the project's back", async () => {
    await root.post(`/projects/${priv.id}/approval_rules`, { json: { name: "two", approvals_required: 2, rule_type: "any_approver" } });
    const mr = await newMergeRequest(priv);
    const own = await U.author.api.post(`${M(mr)}/approval_rules`, { json: { name: "just dev3", approvals_required: 1, user_ids: [U.dev3.id] } });
    expect(own.status).toBe(201);
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body).toMatchObject({ approvals_required: 1, approvals_left: 1 });
    expect((await U.dev.api.get(`${M(mr)}/approval_state`)).body.approval_rules_overwritten).toBe(true);
    expect((await U.dev.api.post(`${M(mr)}/approve`)).status).toBe(401);
    expect((await U.dev3.api.post(`${M(mr)}/approve`)).body.approvals_left).toBe(0);
    expect((await U.author.api.delete(`${M(mr)}/approval_rules/${own.body.id}`)).status).toBe(204);
    // dev3's approval counts for the project's any_approver rule.
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body).toMatchObject({ approvals_required: 2, approvals_left: 1 });
  });
});

describe("held answers in pages", () => {
  test("a page follows an approver's level, a protected branch and a deleted source branch on the next request", async () => {
    const project = await createProject(root, { name: "held", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
    const approver = await createUser(app, "approver");
    await addMember(app, "projects", project.id, approver.id, 30);
    expect((await root.post(`/projects/${project.id}/approval_rules`, { json: { name: "anyone", approvals_required: 1, rule_type: "any_approver" } })).status).toBe(201);
    const mr = await newMergeRequest(project);
    const listed = async () => {
      const page = await U.author.api.get(`/projects/${project.id}/merge_requests`);
      expect(page.status).toBe(200);
      return page.body.find((m: { iid: number }) => m.iid === mr.iid) as { detailed_merge_status: string; source_branch: string };
    };
    expect((await listed()).detailed_merge_status).toBe("not_approved");
    expect((await approver.api.post(`${M(mr)}/approve`)).status).toBe(201);
    expect((await listed()).detailed_merge_status).toBe("mergeable");
    // Demoted to Reporter: the approval no longer counts for any_approver; promoted back, it does.
    expect((await root.put(`/projects/${project.id}/members/${approver.id}`, { json: { access_level: 20 } })).status).toBe(200);
    expect((await listed()).detailed_merge_status).toBe("not_approved");
    expect((await root.put(`/projects/${project.id}/members/${approver.id}`, { json: { access_level: 30 } })).status).toBe(200);
    expect((await listed()).detailed_merge_status).toBe("mergeable");
    // A rule for protected branches applies while main is protected, and no longer once it is not.
    expect((await root.post(`/projects/${project.id}/approval_rules`, { json: { name: "protected", approvals_required: 1, applies_to_all_protected_branches: true } })).status).toBe(201);
    expect((await listed()).detailed_merge_status).toBe("not_approved");
    expect((await root.delete(`/projects/${project.id}/protected_branches/main`)).status).toBe(204);
    expect((await listed()).detailed_merge_status).toBe("mergeable");
    // The source branch deleted: the list shows the git state stored on the row, which follows the
    // branch's push event (as GitLab's refresh after a push), so the commits check fails soon after.
    const branch = (await listed()).source_branch;
    expect((await root.delete(`/projects/${project.id}/repository/branches/${branch}`)).status).toBe(204);
    await eventually(async () => expect((await listed()).detailed_merge_status).toBe("commits_status"));
  });
});

describe("reset_approvals", () => {
  test("project and group token bots → 202 and approvals gone; people, administrators and service accounts → 401", async () => {
    const mr = await newMergeRequest(priv);
    await U.dev.api.post(`${M(mr)}/approve`);
    for (const api of [U.maint.api, U.owner.api, U.dev.api, root, ...(serviceAccount ? [serviceAccount.api] : [])])
      expect(await api.put(`${M(mr)}/reset_approvals`)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body.approved_by).toHaveLength(1);
    expect((await projectBot.api.put(`${M(mr)}/reset_approvals`)).status).toBe(202);
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body.approved_by).toEqual([]);
    await U.dev.api.post(`${M(mr)}/approve`);
    expect((await groupBot.api.put(`${M(mr)}/reset_approvals`)).status).toBe(202);
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body.approved_by).toEqual([]);
  });
});

describe("permission matrix", () => {
  const read = (mr: CreatedMergeRequest) => [`${M(mr)}/approvals`, `${M(mr)}/approval_state`];

  test("private project: anonymous 401, outsider 404, Guest 403, Reporter reads but may not approve, Developer up and admin approve, bot approves", async () => {
    const mr = await newMergeRequest(priv);
    const anon = apiClient(app.url);
    for (const path of read(mr)) expect((await anon.get(path)).status).toBe(401);
    expect((await anon.post(`${M(mr)}/approve`)).status).toBe(401);
    for (const path of read(mr)) expect(await U.outsider.api.get(path)).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect((await U.outsider.api.post(`${M(mr)}/approve`)).status).toBe(404);
    for (const path of read(mr)) expect((await U.guest.api.get(path)).status).toBe(403);
    expect((await U.guest.api.post(`${M(mr)}/approve`)).status).toBe(403);
    for (const path of read(mr)) expect((await U.reporter.api.get(path)).status).toBe(200);
    expect((await U.reporter.api.post(`${M(mr)}/approve`)).status).toBe(401);
    for (const api of [U.dev.api, U.maint.api, U.owner.api, root, projectBot.api]) expect((await api.post(`${M(mr)}/approve`)).status).toBe(201);
    expect((await U.dev.api.get(`${M(mr)}/approvals`)).body.approved_by).toHaveLength(5);
  });

  test("public project: anonymous 401 (authentication required), outsider and Guest read but may not approve, Developer approves", async () => {
    const mr = await newMergeRequest(pub);
    const anon = apiClient(app.url);
    expect((await anon.get(`${M(mr)}/approvals`)).status).toBe(401);
    for (const api of [U.outsider.api, U.guest.api, U.reporter.api]) {
      expect((await api.get(`${M(mr)}/approvals`)).status).toBe(200);
      expect((await api.post(`${M(mr)}/approve`)).status).toBe(401);
    }
    expect((await U.dev.api.post(`${M(mr)}/approve`)).status).toBe(201);
    // A bot of another project's token is an outsider here.
    expect((await projectBot.api.post(`${M(mr)}/approve`)).status).toBe(401);
    expect((await projectBot.api.put(`${M(mr)}/reset_approvals`)).status).toBe(401);
  });

  test("unknown merge request → 404 Not found (GitLab's find_merge_request_with_access)", async () => {
    expect(await U.dev.api.get(`/projects/${priv.id}/merge_requests/999/approvals`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect((await U.dev.api.post(`/projects/${priv.id}/merge_requests/999/approve`)).status).toBe(404);
  });
});

describe("reset on push", () => {
  test("resetApprovalsOnPush removes the approvals of merge requests whose project resets on push", async () => {
    const a = await newMergeRequest(priv);
    const b = await newMergeRequest(pub);
    await U.dev.api.post(`${M(a)}/approve`);
    await U.dev.api.post(`${M(b)}/approve`);
    await settings(pub, { reset_approvals_on_push: false });
    const reset = await app.database.db.transaction((tx) => resetApprovalsOnPush(tx, [a.id, b.id], [priv.id, pub.id]));
    expect(reset).toEqual([a.id]);
    expect((await U.dev.api.get(`${M(a)}/approvals`)).body.approved_by).toEqual([]);
    expect((await U.dev.api.get(`${M(b)}/approvals`)).body.approved_by).toHaveLength(1);
    expect(await resetApprovalsOnPush(app.database.db, [], [])).toEqual([]);
  });
});

describe("gate", () => {
  test("approvalsLeftFor answers approvals_left of each merge request, batched", async () => {
    await settings(priv, { approvals_before_merge: 2 });
    await root.post(`/projects/${pub.id}/approval_rules`, { json: { name: "one", approvals_required: 1, user_ids: [U.maint.id] } });
    const a = await newMergeRequest(priv);
    const b = await newMergeRequest(pub);
    const c = await newMergeRequest(priv);
    await U.dev.api.post(`${M(a)}/approve`);
    const rows = await app.database.db.select().from(mergeRequests).where(inArray(mergeRequests.id, [a.id, b.id, c.id]));
    const kit = { config: loadConfig(), db: app.database.db } as unknown as ServiceKit;
    const ctx = (app.broker as unknown as { ContextFactory: { create(b: unknown, e: null, p: object, o: object): never } }).ContextFactory.create(app.broker, null, {}, {});
    const left = await approvalsLeftFor(kit, ctx, rows);
    expect(Object.fromEntries(left)).toEqual({ [a.id]: 1, [b.id]: 1, [c.id]: 2 });
    expect((await approvalsLeftFor(kit, ctx, [])).size).toBe(0);
  });
});
