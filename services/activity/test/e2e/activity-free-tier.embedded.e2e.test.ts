import { apiClient, createGroup, type TestApp } from "@collab/testing";
import { startAppOnTier } from "@collab/standalone/test/app";

/** Group activity analytics is Premium: on Free the group is still looked up (404), then refused (403). */
let app: Awaited<ReturnType<typeof startAppOnTier>> & TestApp;

beforeAll(async () => {
  app = await startAppOnTier("activity-free-tier", "free");
  await app.reset();
});
afterAll(() => app.stop());

it("answers 403 for a readable group and 404 for an unknown one", async () => {
  const root = apiClient(app.url, app.rootToken);
  await createGroup(root, "g", "g");
  const res = await root.get("/analytics/group_activity/issues_count?group_path=g");
  expect(res.status).toBe(403);
  expect(res.body).toEqual({ message: "403 Forbidden" });
  expect((await root.get("/analytics/group_activity/new_members_count?group_path=missing")).status).toBe(404);
});
