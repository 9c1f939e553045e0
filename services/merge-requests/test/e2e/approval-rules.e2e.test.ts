import { addMember, apiClient, createGroup, createProject, createUser, eventually, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";
import { createMergeRequest, type CreatedMergeRequest } from "@collab/standalone/test/merge-requests";

/**
 * Project approval settings, project approval rules and merge-request-level rules: shapes,
 * validation (400), pagination, PUT replacing users and groups, protected_branch_ids of the
 * project only, the source rule link, disable_overriding_approvers_per_merge_request, nested ids
 * (a rule of another project or merge request is 404) and who may read and write.
 *
 * World: private group "team" with projects "app" and "other"; owner (50), maint (40),
 * author (30), dev (30), reporter (20), guest (10); outsider; root.
 */
let app: TestApp;
let root: ApiClient;
const U = {} as Record<"owner" | "maint" | "author" | "dev" | "reporter" | "guest" | "outsider", TestUser>;
let project: { id: number };
let other: { id: number };
let team: { id: number };
let serial = 0;

beforeAll(async () => {
  app = await startApp("approval-rules");
  await app.reset();
  root = apiClient(app.url, app.rootToken);
  team = await createGroup(root, "team", "team", { visibility: "private" });
  project = await createProject(root, { name: "app", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
  other = await createProject(root, { name: "other", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
  for (const [name, level] of Object.entries({ owner: 50, maint: 40, author: 30, dev: 30, reporter: 20, guest: 10 })) {
    U[name as keyof typeof U] = await createUser(app, name);
    await addMember(app, "groups", team.id, U[name as keyof typeof U].id, level);
  }
  U.outsider = await createUser(app, "outsider");
});
afterAll(() => app.stop());

const R = (p: { id: number }) => `/projects/${p.id}/approval_rules`;

beforeEach(async () => {
  for (const p of [project, other]) {
    for (const r of (await root.get(R(p), { query: { per_page: "100" } })).body as { id: number }[]) await root.delete(`${R(p)}/${r.id}`);
    await root.post(`/projects/${p.id}/approvals`, { json: { disable_overriding_approvers_per_merge_request: false, reset_approvals_on_push: true, selective_code_owner_removals: false } });
  }
});

async function newMergeRequest(p: { id: number }): Promise<CreatedMergeRequest> {
  const branch = `topic-${++serial}`;
  expect((await root.post(`/projects/${p.id}/repository/branches`, { json: { branch, ref: "main" } })).status).toBe(201);
  return createMergeRequest(U.author.api, p.id, { title: `MR ${branch}`, source_branch: branch, target_branch: "main" });
}

describe("project approval settings", () => {
  test("GET defaults; POST (Maintainer up) → 201 settings; selective_code_owner_removals needs reset_approvals_on_push off", async () => {
    const got = await U.reporter.api.get(`/projects/${project.id}/approvals`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      approvers: [],
      approver_groups: [],
      approvals_before_merge: 0,
      reset_approvals_on_push: true,
      selective_code_owner_removals: false,
      disable_overriding_approvers_per_merge_request: false,
      merge_requests_author_approval: false,
      merge_requests_disable_committers_approval: false,
      require_password_to_approve: false,
      require_reauthentication_to_approve: false,
    });
    const refused = await U.maint.api.post(`/projects/${project.id}/approvals`, { json: { selective_code_owner_removals: true } });
    expect(refused).toMatchObject({ status: 400, body: { message: { selective_code_owner_removals: [expect.any(String)] } } });
    const changed = await U.maint.api.post(`/projects/${project.id}/approvals`, { json: { reset_approvals_on_push: false, selective_code_owner_removals: true, approvals_before_merge: 1 } });
    expect(changed.status).toBe(201);
    expect(changed.body).toMatchObject({ reset_approvals_on_push: false, selective_code_owner_removals: true, approvals_before_merge: 1 });
    expect((await U.maint.api.post(`/projects/${project.id}/approvals`, { json: { reset_approvals_on_push: true } })).status).toBe(400);
    expect((await U.maint.api.post(`/projects/${project.id}/approvals`, { json: { selective_code_owner_removals: false, reset_approvals_on_push: true, approvals_before_merge: 0 } })).status).toBe(201);
    for (const api of [U.dev.api, U.reporter.api]) expect((await api.post(`/projects/${project.id}/approvals`, { json: { approvals_before_merge: 3 } })).status).toBe(403);
    expect((await U.guest.api.get(`/projects/${project.id}/approvals`)).status).toBe(403);
    expect((await U.outsider.api.get(`/projects/${project.id}/approvals`)).status).toBe(404);
    expect((await apiClient(app.url).get(`/projects/${project.id}/approvals`)).status).toBe(401);
    expect((await U.maint.api.post(`/projects/${project.id}/approvals`, { json: { reset_approvals_on_push: "maybe" } })).status).toBe(400);
  });
});

describe("project approval rules", () => {
  test("create: shape with users, usernames, groups and protected branches; get; list paginated", async () => {
    const reviewers = await createGroup(root, "reviewers", "reviewers", { visibility: "private" });
    await addMember(app, "groups", reviewers.id, U.dev.id, 30);
    const pb = (await root.post(`/projects/${project.id}/protected_branches`, { json: { name: "stable-*" } })).body;
    // root sees the private group (a maintainer who cannot would have it dropped).
    const created = await root.post(R(project), {
      json: { name: "security", approvals_required: 2, user_ids: [U.maint.id], usernames: ["owner"], group_ids: [reviewers.id], protected_branch_ids: [pb.id] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: "security",
      rule_type: "regular",
      report_type: null,
      eligible_approvers: expect.arrayContaining([expect.objectContaining({ id: U.maint.id }), expect.objectContaining({ id: U.owner.id }), expect.objectContaining({ id: U.dev.id })]),
      approvals_required: 2,
      users: [expect.objectContaining({ id: U.owner.id, username: "owner" }), expect.objectContaining({ id: U.maint.id, username: "maint" })].sort((a, b) => (a.id < b.id ? -1 : 1)),
      groups: [expect.objectContaining({ id: reviewers.id, name: "reviewers", full_path: "reviewers" })],
      contains_hidden_groups: false,
      applies_to_all_protected_branches: false,
      protected_branches: [expect.objectContaining({ id: pb.id, name: "stable-*", merge_access_levels: [expect.objectContaining({ access_level: 40 })] })],
    });
    // A maintainer who cannot see the group sees it hidden.
    expect((await U.maint.api.get(`${R(project)}/${created.body.id}`)).body).toMatchObject({ groups: [], contains_hidden_groups: true });
    expect((await U.reporter.api.get(`${R(project)}/${created.body.id}`)).status).toBe(200);

    for (let i = 0; i < 3; i++) expect((await U.maint.api.post(R(project), { json: { name: `r${i}`, approvals_required: i } })).status).toBe(201);
    const first = await U.dev.api.get(R(project), { query: { per_page: "2" } });
    expect(first.status).toBe(200);
    expect(first.body.map((r: { name: string }) => r.name)).toEqual(["security", "r0"]);
    expect(first.headers.get("x-total")).toBe("4");
    expect((await U.dev.api.get(R(project), { query: { per_page: "2", page: "2" } })).body.map((r: { name: string }) => r.name)).toEqual(["r1", "r2"]);
    await root.delete(`/projects/${project.id}/protected_branches/stable-*`);
  });

  test("validation: missing params, name too long or taken, negative approvals, one any_approver, report_type, foreign protected branches → 400", async () => {
    expect(await U.maint.api.post(R(project), { json: {} })).toMatchObject({ status: 400, body: { error: expect.stringContaining("is missing") } });
    expect(await U.maint.api.post(R(project), { json: { name: "x".repeat(1025), approvals_required: 1 } })).toMatchObject({
      status: 400,
      body: { message: { name: ["is too long (maximum is 1024 characters)"] } },
    });
    expect((await U.maint.api.post(R(project), { json: { name: "x".repeat(1024), approvals_required: 1 } })).status).toBe(201);
    expect(await U.maint.api.post(R(project), { json: { name: "neg", approvals_required: -1 } })).toMatchObject({
      status: 400,
      body: { message: { approvals_required: ["must be greater than or equal to 0"] } },
    });
    expect((await U.maint.api.post(R(project), { json: { name: "dup", approvals_required: 0 } })).status).toBe(201);
    expect(await U.maint.api.post(R(project), { json: { name: "dup", approvals_required: 0 } })).toMatchObject({ status: 400, body: { message: { name: ["has already been taken"] } } });
    expect((await U.maint.api.post(R(project), { json: { name: "any", approvals_required: 0, rule_type: "any_approver" } })).status).toBe(201);
    expect((await U.maint.api.post(R(project), { json: { name: "any2", approvals_required: 0, rule_type: "any_approver" } })).status).toBe(400);
    expect((await U.maint.api.post(R(project), { json: { name: "rep", approvals_required: 1, rule_type: "report_approver" } })).status).toBe(400);
    expect(await U.maint.api.post(R(project), { json: { name: "cov", approvals_required: 1, rule_type: "report_approver", report_type: "code_coverage" } })).toMatchObject({
      status: 201,
      body: { rule_type: "report_approver", report_type: "code_coverage" },
    });
    expect((await U.maint.api.post(R(project), { json: { name: "bad", approvals_required: 1, rule_type: "nope" } })).status).toBe(400);
    const foreign = (await root.get(`/projects/${other.id}/protected_branches`)).body[0];
    expect(foreign.name).toBe("main");
    expect(await U.maint.api.post(R(project), { json: { name: "foreign", approvals_required: 1, protected_branch_ids: [foreign.id] } })).toMatchObject({
      status: 400,
      body: { message: { protected_branches: [expect.any(String)] } },
    });
    // applies_to_all_protected_branches makes protected_branch_ids moot.
    expect(await U.maint.api.post(R(project), { json: { name: "all", approvals_required: 1, protected_branch_ids: [foreign.id], applies_to_all_protected_branches: true } })).toMatchObject({
      status: 201,
      body: { applies_to_all_protected_branches: true, protected_branches: [] },
    });
  });

  test("PUT replaces users and groups that are given, keeps those not given; DELETE → 204; permissions", async () => {
    const rule = (await U.maint.api.post(R(project), { json: { name: "r", approvals_required: 1, user_ids: [U.dev.id, U.maint.id] } })).body;
    const renamed = await U.maint.api.put(`${R(project)}/${rule.id}`, { json: { name: "renamed", approvals_required: 3 } });
    expect(renamed).toMatchObject({ status: 200, body: { name: "renamed", approvals_required: 3 } });
    expect(renamed.body.users.map((u: { id: number }) => u.id).sort()).toEqual([U.dev.id, U.maint.id].sort());
    const replaced = await U.maint.api.put(`${R(project)}/${rule.id}`, { json: { user_ids: [U.owner.id] } });
    expect(replaced.body.users.map((u: { id: number }) => u.id)).toEqual([U.owner.id]);
    // Outsiders cannot be approvers of a private project: dropped.
    expect((await U.maint.api.put(`${R(project)}/${rule.id}`, { json: { user_ids: [U.outsider.id, U.dev.id] } })).body.users.map((u: { id: number }) => u.id)).toEqual([U.dev.id]);
    expect((await U.maint.api.put(`${R(project)}/${rule.id}`, { json: { approvals_required: -2 } })).status).toBe(400);

    for (const api of [U.dev.api, U.reporter.api]) {
      expect((await api.post(R(project), { json: { name: "no", approvals_required: 1 } })).status).toBe(403);
      expect((await api.put(`${R(project)}/${rule.id}`, { json: { name: "no" } })).status).toBe(403);
      expect((await api.delete(`${R(project)}/${rule.id}`)).status).toBe(403);
    }
    expect((await U.guest.api.get(R(project))).status).toBe(403);
    expect((await U.outsider.api.get(R(project))).status).toBe(404);
    expect((await U.outsider.api.delete(`${R(project)}/${rule.id}`)).status).toBe(404);
    expect((await apiClient(app.url).get(R(project))).status).toBe(401);

    expect((await U.owner.api.delete(`${R(project)}/${rule.id}`)).status).toBe(204);
    expect(await U.owner.api.get(`${R(project)}/${rule.id}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  test("a rule of another project is 404 through mine, and stays as it was", async () => {
    const foreign = (await root.post(R(other), { json: { name: "foreign", approvals_required: 1 } })).body;
    for (const [method, body] of [["get"], ["put", { name: "hijacked" }], ["delete"]] as const) {
      const res = await (method === "get" ? root.get(`${R(project)}/${foreign.id}`) : method === "put" ? root.put(`${R(project)}/${foreign.id}`, { json: body }) : root.delete(`${R(project)}/${foreign.id}`));
      expect(res.status).toBe(404);
    }
    expect((await root.get(`${R(other)}/${foreign.id}`)).body.name).toBe("foreign");
  });
});

describe("merge request approval rules", () => {
  test("create from a source rule (approvers copied), list, get, PUT replaces users, DELETE; a rule of another merge request is 404", async () => {
    const source = (await U.maint.api.post(R(project), { json: { name: "src", approvals_required: 2, user_ids: [U.maint.id, U.owner.id] } })).body;
    const mr = await newMergeRequest(project);
    const base = `/projects/${project.id}/merge_requests/${mr.iid}/approval_rules`;
    const created = await U.author.api.post(base, { json: { name: "mine", approvals_required: 1, approval_project_rule_id: source.id } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "mine",
      rule_type: "regular",
      approvals_required: 1,
      source_rule: { approvals_required: 2 },
      overridden: true,
      contains_hidden_groups: false,
    });
    expect(created.body.users.map((u: { id: number }) => u.id).sort()).toEqual([U.maint.id, U.owner.id].sort());
    const list = await U.reporter.api.get(base);
    expect(list.status).toBe(200);
    expect(list.body.map((r: { id: number }) => r.id)).toEqual([created.body.id]);
    expect((await U.reporter.api.get(`${base}/${created.body.id}`)).body.name).toBe("mine");
    const put = await U.dev.api.put(`${base}/${created.body.id}`, { json: { user_ids: [U.dev.id], approvals_required: 2 } });
    expect(put).toMatchObject({ status: 200, body: { approvals_required: 2, users: [expect.objectContaining({ id: U.dev.id })] } });

    const otherMr = await newMergeRequest(project);
    const otherBase = `/projects/${project.id}/merge_requests/${otherMr.iid}/approval_rules`;
    expect((await U.author.api.get(`${otherBase}/${created.body.id}`)).status).toBe(404);
    expect((await U.author.api.put(`${otherBase}/${created.body.id}`, { json: { name: "x" } })).status).toBe(404);
    expect((await U.author.api.delete(`${otherBase}/${created.body.id}`)).status).toBe(404);
    const foreignMr = await newMergeRequest(other);
    expect((await root.get(`/projects/${project.id}/merge_requests/${foreignMr.iid + 100}/approval_rules`)).status).toBe(404);

    // A source rule of another project is refused.
    const foreignRule = (await root.post(R(other), { json: { name: "far", approvals_required: 1 } })).body;
    expect((await U.author.api.post(base, { json: { name: "far", approvals_required: 1, approval_project_rule_id: foreignRule.id } })).status).toBe(400);

    expect((await U.reporter.api.post(base, { json: { name: "no", approvals_required: 1 } })).status).toBe(403);
    expect((await U.outsider.api.get(base)).status).toBe(404);
    expect((await U.dev.api.delete(`${base}/${created.body.id}`)).status).toBe(204);
    expect((await U.dev.api.get(base)).body).toEqual([]);
  });

  test("disable_overriding_approvers_per_merge_request refuses merge-request rules (403); report_approver copies are not editable", async () => {
    const report = (await U.maint.api.post(R(project), { json: { name: "coverage", approvals_required: 1, rule_type: "report_approver", report_type: "code_coverage" } })).body;
    const mr = await newMergeRequest(project);
    const base = `/projects/${project.id}/merge_requests/${mr.iid}/approval_rules`;
    const copy = await U.author.api.post(base, { json: { name: "coverage", approvals_required: 1, approval_project_rule_id: report.id } });
    expect(copy).toMatchObject({ status: 201, body: { rule_type: "report_approver" } });
    expect((await U.author.api.put(`${base}/${copy.body.id}`, { json: { approvals_required: 0 } })).status).toBe(403);
    expect((await U.author.api.delete(`${base}/${copy.body.id}`)).status).toBe(403);

    await root.post(`/projects/${project.id}/approvals`, { json: { disable_overriding_approvers_per_merge_request: true } });
    expect((await U.author.api.post(base, { json: { name: "mine", approvals_required: 1 } })).status).toBe(403);
    expect((await root.post(base, { json: { name: "mine", approvals_required: 1 } })).status).toBe(403);
    expect((await U.author.api.get(base)).status).toBe(200);
  });
});

describe("project deletion", () => {
  test("a project removed for good takes its approval settings and rules", async () => {
    const doomed = await createProject(root, { name: "doomed", namespace_id: team.id, visibility: "private", initialize_with_readme: true });
    await root.post(`/projects/${doomed.id}/approvals`, { json: { approvals_before_merge: 2 } });
    expect((await root.post(R(doomed), { json: { name: "r", approvals_required: 1, user_ids: [U.dev.id] } })).status).toBe(201);
    const count = async () =>
      ((await app.database.db.execute(sql`SELECT (SELECT count(*) FROM merge_requests.approval_project_rules WHERE project_id = ${doomed.id})
        + (SELECT count(*) FROM merge_requests.approval_project_settings WHERE project_id = ${doomed.id}) AS n`)) as unknown as { rows: { n: number | string }[] }).rows[0].n;
    expect(Number(await count())).toBe(2);
    expect((await root.delete(`/projects/${doomed.id}`)).status).toBe(202);
    expect((await root.delete(`/projects/${doomed.id}`, { query: { permanently_remove: "true", full_path: doomed.path_with_namespace } })).status).toBe(202);
    await eventually(async () => expect(Number(await count())).toBe(0));
  });
});
