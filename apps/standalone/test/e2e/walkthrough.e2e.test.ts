import { Gitlab } from "@gitbeaker/rest";
import { apiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * The first steps a new GitLab user takes, with the real @gitbeaker/rest client:
 * user → token → group → subgroup → private project → membership → visibility rules.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startApp("walkthrough");
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

test("a new team sets itself up with @gitbeaker/rest", async () => {
  const admin = new Gitlab({ host: app.url, token: app.rootToken });

  const alice = await admin.Users.create({ email: "alice@example.com", name: "Alice", username: "alice", password: "s3cret-passw0rd", skipConfirmation: true });
  const bob = await admin.Users.create({ email: "bob@example.com", name: "Bob", username: "bob", password: "s3cret-passw0rd" });
  expect(alice).toMatchObject({ username: "alice", state: "active" });

  const aliceToken = await admin.PersonalAccessTokens.create(alice.id as number, "cli", ["api"]);
  expect(aliceToken.token).toMatch(/^glpat-/);
  const bobToken = await admin.PersonalAccessTokens.create(bob.id as number, "cli", ["api"]);

  const group = await admin.Groups.create("Platform", "platform");
  const subgroup = await admin.Groups.create("Backend", "backend", { parentId: group.id as number });
  expect(subgroup.full_path).toBe("platform/backend");

  const project = await admin.Projects.create({ name: "Billing API", namespaceId: subgroup.id as number, visibility: "private" });
  expect(project).toMatchObject({ path: "billing-api", path_with_namespace: "platform/backend/billing-api", visibility: "private" });

  await admin.ProjectMembers.add(project.id as number, 30, { userId: alice.id as number });

  const asAlice = new Gitlab({ host: app.url, token: aliceToken.token as string });
  const seen = await asAlice.Projects.show(project.id as number);
  expect(seen.permissions).toMatchObject({ project_access: { access_level: 30 } });
  const byPath = await asAlice.Projects.show("platform/backend/billing-api");
  expect(byPath.id).toBe(project.id);

  const asBob = apiClient(app.url, bobToken.token as string);
  const hidden = await asBob.get(`/projects/${project.id}`);
  expect(hidden.status).toBe(404);
  expect(hidden.body).toEqual({ message: "404 Project Not Found" });

  const anonymous = await apiClient(app.url).post("/projects", { json: { name: "x" } });
  expect(anonymous.status).toBe(401);
  expect(anonymous.body).toEqual({ message: "401 Unauthorized" });

  await admin.Projects.create({ name: "Second", namespaceId: subgroup.id as number });
  const paged = await apiClient(app.url, app.rootToken).get("/projects", { query: { per_page: 1 } });
  expect(paged.status).toBe(200);
  expect(paged.body).toHaveLength(1);
  expect(paged.headers.get("x-total")).toBe("2");
  expect(paged.headers.get("x-total-pages")).toBe("2");
  expect(paged.headers.get("x-per-page")).toBe("1");
  expect(paged.headers.get("x-page")).toBe("1");
  expect(paged.headers.get("x-next-page")).toBe("2");
  expect(paged.headers.get("x-prev-page")).toBe("");
  expect(paged.headers.get("link")).toContain('rel="next"');

  const all = await admin.Projects.all({ perPage: 1 });
  expect(all.map((p) => p.name).sort()).toEqual(["Billing API", "Second"]);
});
