import { apiClient, assertStatus as ok, createProject, type ApiClient } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startAppOnTier } from "@collab/standalone/test/app";

/**
 * On the Free tier the approval filters of merge request lists do not exist: GitLab CE does not
 * declare them, so Grape drops them and the list answers as if they were not given. CE also takes
 * one assignee_username, and shows no approvals_before_merge.
 */
let app: Awaited<ReturnType<typeof startAppOnTier>>;
let root: ApiClient;
beforeAll(async () => {
  app = await startAppOnTier("merge-request-lists-free", "free");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

test("approval filters are ignored, one assignee_username only", async () => {
  const project = await createProject(root, { name: "api", initialize_with_readme: true });
  const P = `/projects/${project.id}`;
  ok(await root.post(`${P}/repository/branches`, { json: { branch: "f", ref: "main" } }), 201, "branch");
  const mr = ok(await root.post(`${P}/merge_requests`, { json: { title: "x", source_branch: "f", target_branch: "main" } }), 201, "mr").body;
  expect(mr).not.toHaveProperty("approvals_before_merge");
  await app.database.db.execute(sql`INSERT INTO merge_requests.approvals (merge_request_id, user_id) VALUES (${mr.id}, 1)`);
  for (const query of [{ approved_by_ids: "None" }, { approver_ids: "Any" }, { approved: "no" }, { approved_by_usernames: "nobody" }])
    expect(ok(await root.get(`${P}/merge_requests`, { query }), 200, JSON.stringify(query)).body).toHaveLength(1);
  expect(await root.get(`${P}/merge_requests`, { query: { assignee_username: ["a", "b"] } })).toMatchObject({
    status: 400,
    body: { error: "assignee_username allows one value, but found 2: a, b" },
  });
});
