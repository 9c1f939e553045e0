import { addMember, apiClient, createGroup, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";
import { createMergeRequest } from "@collab/standalone/test/merge-requests";

/**
 * Approvals on the Free tier answer as GitLab's community edition: approve, unapprove, the
 * approvals object and reset_approvals exist (nothing is ever required, the author may approve);
 * approval settings, project and merge-request approval rules and approval_state are EE routes,
 * absent in CE: the catch-all 404. The tier is read when the services are created, so this file
 * boots its own app.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startAppOnTier("merge-request-approvals-free-tier", "free");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const NOT_MOUNTED = { status: 404, body: { error: "404 Not Found" } };

test("approve/unapprove work with nothing required; EE routes are the catch-all 404", async () => {
  const group = await createGroup(root, "team", "team", { visibility: "private" });
  const project = await createProject(root, { name: "app", namespace_id: group.id, visibility: "private", initialize_with_readme: true });
  const author = await createUser(app, "author");
  const dev = await createUser(app, "dev");
  await addMember(app, "groups", group.id, author.id, 30);
  await addMember(app, "groups", group.id, dev.id, 30);
  await root.post(`/projects/${project.id}/repository/branches`, { json: { branch: "topic", ref: "main" } });
  const mr = await createMergeRequest(author.api, project.id, { title: "t", source_branch: "topic", target_branch: "main" });
  const M = `/projects/${project.id}/merge_requests/${mr.iid}`;

  expect((await dev.api.get(`${M}/approvals`)).body).toMatchObject({ approvals_required: 0, approvals_left: 0, approved: true, merge_request_approvers_available: false });
  expect((await dev.api.post(`${M}/approve`)).body).toMatchObject({ approvals_left: 0, approved_by: [expect.objectContaining({ user: expect.objectContaining({ id: dev.id }) })] });
  expect((await dev.api.post(`${M}/approve`)).status).toBe(304);
  expect((await author.api.post(`${M}/approve`)).status).toBe(201);
  expect((await dev.api.post(`${M}/unapprove`)).status).toBe(201);
  expect((await author.api.put(`${M}/reset_approvals`)).status).toBe(401);

  const P = `/projects/${project.id}`;
  expect(await root.get(`${P}/approvals`)).toMatchObject(NOT_MOUNTED);
  expect(await root.post(`${P}/approvals`, { json: { approvals_before_merge: 2 } })).toMatchObject(NOT_MOUNTED);
  expect(await root.get(`${P}/approval_rules`)).toMatchObject(NOT_MOUNTED);
  expect(await root.post(`${P}/approval_rules`, { json: { name: "r", approvals_required: 1 } })).toMatchObject(NOT_MOUNTED);
  expect(await root.get(`${P}/approval_rules/1`)).toMatchObject(NOT_MOUNTED);
  expect(await root.put(`${P}/approval_rules/1`, { json: { name: "x" } })).toMatchObject(NOT_MOUNTED);
  expect(await root.delete(`${P}/approval_rules/1`)).toMatchObject(NOT_MOUNTED);
  expect(await root.get(`${M}/approval_state`)).toMatchObject(NOT_MOUNTED);
  expect(await root.get(`${M}/approval_rules`)).toMatchObject(NOT_MOUNTED);
  expect(await root.post(`${M}/approval_rules`, { json: { name: "r", approvals_required: 1 } })).toMatchObject(NOT_MOUNTED);
  // Protected branches are in every tier.
  expect((await root.get(`${P}/protected_branches`)).status).toBe(200);
});
