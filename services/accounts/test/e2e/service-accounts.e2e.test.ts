import { Gitlab } from "@gitbeaker/rest";
import { apiClient, createGroup, createUser, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Service account updates (PATCH, instance and group) and the group endpoints for a service
 * account's personal access tokens: list, revoke and rotate (GitLab 17.x).
 */

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("service-accounts");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** owner (Owner of top-level group "platform"), dev (Developer there) and a group service account. */
async function groupSetup() {
  const owner = await createUser(app, "owner");
  const dev = await createUser(app, "dev");
  const group = await createGroup(owner.api, "Platform", "platform");
  expect((await owner.api.post(`/groups/${group.id}/members`, { json: { user_id: dev.id, access_level: 30 } })).status).toBe(201);
  const sa = await owner.api.post(`/groups/${group.id}/service_accounts`, { json: { name: "Deployer", username: "deployer" } });
  expect(sa.status).toBe(201);
  return { owner, dev, group, sa: sa.body as { id: number; username: string; name: string; email: string } };
}

const mintToken = async (owner: TestUser, groupId: number, userId: number, json: Record<string, unknown> = { name: "ci", scopes: ["api", "read_user"] }) => {
  const res = await owner.api.post(`/groups/${groupId}/service_accounts/${userId}/personal_access_tokens`, { json });
  expect(res.status).toBe(201);
  return res.body as { id: number; token: string; name: string; scopes: string[]; expires_at: string | null };
};

describe("PATCH /service_accounts/:user_id (instance)", () => {
  test("administrators update name, username and email; blanks are ignored; conflicts and bad values are 400", async () => {
    const sa = (await root.post("/service_accounts", { json: { name: "Robot", username: "robot", email: "robot@example.com" } })).body;
    const res = await root.patch(`/service_accounts/${sa.id}`, { json: { name: "Robot II", username: "robot2", email: "robot2@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: sa.id, username: "robot2", name: "Robot II", email: "robot2@example.com" });
    expect((await root.get(`/users/${sa.id}`)).body).toMatchObject({ username: "robot2", name: "Robot II", email: "robot2@example.com", bot: true });

    // Only what is given (and not blank) changes.
    expect((await root.patch(`/service_accounts/${sa.id}`, { json: { name: "Robot III", username: "" } })).body).toEqual({
      id: sa.id,
      username: "robot2",
      name: "Robot III",
      email: "robot2@example.com",
    });

    await createUser(app, "alice");
    expect(await root.patch(`/service_accounts/${sa.id}`, { json: { username: "ALICE" } })).toMatchObject({ status: 400, body: { message: "Username has already been taken" } });
    expect(await root.patch(`/service_accounts/${sa.id}`, { json: { email: "alice@example.com" } })).toMatchObject({ status: 400, body: { message: "Email has already been taken" } });
    expect(await root.patch(`/service_accounts/${sa.id}`, { json: { email: "not-an-email" } })).toMatchObject({ status: 400, body: { message: "Email is invalid" } });
    expect(await root.patch(`/service_accounts/${sa.id}`, { json: { username: "-bad" } })).toMatchObject({
      status: 400,
      body: { message: "Username can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'." },
    });
  });

  test("unknown ids are ActiveRecord's 404, humans the update service's 400; administrators only", async () => {
    expect(await root.patch("/service_accounts/9999", { json: { name: "x" } })).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    const alice = await createUser(app, "alice");
    expect(await root.patch(`/service_accounts/${alice.id}`, { json: { name: "x" } })).toMatchObject({ status: 400, body: { message: "User is not a service account" } });
    expect(await root.patch("/service_accounts/abc", { json: { name: "x" } })).toMatchObject({ status: 400, body: { error: "user_id is invalid" } });

    const sa = (await root.post("/service_accounts", {})).body;
    expect(await alice.api.patch(`/service_accounts/${sa.id}`, { json: { name: "x" } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await root.as(null).patch(`/service_accounts/${sa.id}`, { json: { name: "x" } })).status).toBe(401);

    // The instance endpoint reaches group service accounts too (GitLab's User.find).
    const { sa: groupSa } = await groupSetup();
    expect((await root.patch(`/service_accounts/${groupSa.id}`, { json: { name: "Renamed by admin" } })).body.name).toBe("Renamed by admin");
  });
});

describe("PATCH /groups/:id/service_accounts/:user_id", () => {
  test("the group's Owners update its own service accounts; others' are 404, non-Owners 403", async () => {
    const { owner, dev, group, sa } = await groupSetup();
    const res = await owner.api.patch(`/groups/${group.id}/service_accounts/${sa.id}`, { json: { name: "Deployer 2", username: "deployer-2" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: sa.id, username: "deployer-2", name: "Deployer 2", email: sa.email });
    expect((await owner.api.patch(`/groups/platform/service_accounts/${sa.id}`, { json: { email: "deploy@example.com" } })).body.email).toBe("deploy@example.com");

    expect(await dev.api.patch(`/groups/${group.id}/service_accounts/${sa.id}`, { json: { name: "x" } })).toMatchObject({ status: 403 });
    const instanceSa = (await root.post("/service_accounts", {})).body;
    const notFound = { status: 404, body: { message: "404 User Not Found" } };
    expect(await owner.api.patch(`/groups/${group.id}/service_accounts/${instanceSa.id}`, { json: { name: "x" } })).toMatchObject(notFound);
    expect(await owner.api.patch(`/groups/${group.id}/service_accounts/${owner.id}`, { json: { name: "x" } })).toMatchObject(notFound);
    expect(await owner.api.patch(`/groups/${group.id}/service_accounts/9999`, { json: { name: "x" } })).toMatchObject(notFound);

    // Another group's Owner cannot reach it through their own group.
    const other = await createUser(app, "other");
    const otherGroup = await createGroup(other.api, "Other team", "other-team");
    expect(await other.api.patch(`/groups/${otherGroup.id}/service_accounts/${sa.id}`, { json: { name: "x" } })).toMatchObject(notFound);
    expect(await owner.api.patch(`/groups/${group.id}/service_accounts/${sa.id}`, { json: { username: "owner" } })).toMatchObject({ status: 400, body: { message: "Username has already been taken" } });
  });
});

describe("group service account tokens", () => {
  test("GET lists the account's tokens with the access-token filters", async () => {
    const { owner, dev, group, sa } = await groupSetup();
    const first = await mintToken(owner, group.id, sa.id, { name: "first", scopes: ["api"] });
    const second = await mintToken(owner, group.id, sa.id, { name: "second-deploy", scopes: ["read_api"], expires_at: inDays(3) });
    const revoked = await mintToken(owner, group.id, sa.id, { name: "third", scopes: ["api"] });
    expect((await owner.api.delete(`/groups/${group.id}/service_accounts/${sa.id}/personal_access_tokens/${revoked.id}`)).status).toBe(204);
    await owner.api.post(`/users/${owner.id}/personal_access_tokens`, { json: { name: "not-theirs", scopes: ["api"] } });

    const path = `/groups/${group.id}/service_accounts/${sa.id}/personal_access_tokens`;
    const all = await owner.api.get(path);
    expect(all.status).toBe(200);
    expect(all.headers.get("x-total")).toBe("3");
    expect(all.body.map((t: { id: number }) => t.id)).toEqual([first.id, second.id, revoked.id]);
    expect(all.body[0]).toEqual({
      id: first.id,
      name: "first",
      description: null,
      revoked: false,
      created_at: expect.any(String),
      scopes: ["api"],
      user_id: sa.id,
      last_used_at: null,
      active: true,
      expires_at: first.expires_at,
    });
    expect(all.body[0]).not.toHaveProperty("token");

    const ids = async (query: Record<string, string | number | boolean>) => (await owner.api.get(path, { query })).body.map((t: { id: number }) => t.id);
    expect(await ids({ revoked: true })).toEqual([revoked.id]);
    expect(await ids({ state: "active" })).toEqual([first.id, second.id]);
    expect(await ids({ search: "deploy" })).toEqual([second.id]);
    expect(await ids({ expires_before: inDays(10) })).toEqual([second.id]);
    expect(await ids({ sort: "created_at_desc" })).toEqual([revoked.id, second.id, first.id]);
    expect(await ids({ sort: "name_desc" })).toEqual([revoked.id, second.id, first.id]);
    expect(await ids({ per_page: 1, page: 2 })).toEqual([second.id]);
    expect(await owner.api.get(path, { query: { state: "nope" } })).toMatchObject({ status: 400, body: { error: "state does not have a valid value" } });

    expect((await dev.api.get(path)).status).toBe(403);
    const instanceSa = (await root.post("/service_accounts", {})).body;
    expect(await owner.api.get(`/groups/${group.id}/service_accounts/${instanceSa.id}/personal_access_tokens`)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
  });

  test("DELETE revokes one of the account's tokens; somebody else's token is 404", async () => {
    const { owner, group, sa } = await groupSetup();
    const token = await mintToken(owner, group.id, sa.id);
    expect((await apiClient(app.url, token.token).get("/user")).status).toBe(200);
    const base = `/groups/${group.id}/service_accounts/${sa.id}/personal_access_tokens`;
    expect((await owner.api.delete(`${base}/${token.id}`)).status).toBe(204);
    expect((await apiClient(app.url, token.token).get("/user")).status).toBe(401);
    expect(await owner.api.delete(`${base}/${token.id + 1000}`)).toMatchObject({ status: 404, body: { message: "404 Personal Access Token Not Found" } });
    const own = (await owner.api.post("/user/personal_access_tokens", { json: { name: "k8s", scopes: ["k8s_proxy"] } })).body;
    expect(await owner.api.delete(`${base}/${own.id}`)).toMatchObject({ status: 404, body: { message: "404 Personal Access Token Not Found" } });
  });

  test("rotate: the old token is revoked, a new one with the same name and scopes expires in a week (or at expires_at)", async () => {
    const { owner, dev, group, sa } = await groupSetup();
    const old = await mintToken(owner, group.id, sa.id, { name: "ci", scopes: ["api", "read_user"], description: "pipeline" });
    const asOld = apiClient(app.url, old.token);
    expect((await asOld.get("/user")).status).toBe(200); // cached by the gateway: rotation must drop it

    const base = `/groups/${group.id}/service_accounts/${sa.id}/personal_access_tokens`;
    const rotated = await owner.api.post(`${base}/${old.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      id: expect.any(Number),
      name: "ci",
      description: "pipeline",
      revoked: false,
      created_at: expect.any(String),
      scopes: ["api", "read_user"],
      user_id: sa.id,
      last_used_at: null,
      active: true,
      expires_at: inDays(7),
      token: expect.stringMatching(/^glpat-/),
    });
    expect(rotated.body.id).not.toBe(old.id);
    expect(rotated.body.token).not.toBe(old.token);
    expect(await asOld.get("/user")).toMatchObject({ status: 401, body: { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." } });
    expect(await apiClient(app.url, rotated.body.token).get("/user")).toMatchObject({ status: 200, body: { id: sa.id, bot: true } });

    // Rotating a revoked token: the service's 400. An explicit expires_at is kept.
    expect(await owner.api.post(`${base}/${old.id}/rotate`)).toMatchObject({ status: 400, body: { message: "400 Bad request - Token already revoked" } });
    const again = await owner.api.post(`${base}/${rotated.body.id}/rotate`, { json: { expires_at: inDays(30) } });
    expect(again).toMatchObject({ status: 200, body: { expires_at: inDays(30), name: "ci" } });
    expect(await owner.api.post(`${base}/${rotated.body.id}/rotate`, { json: { expires_at: "soon" } })).toMatchObject({ status: 400, body: { error: "expires_at is invalid" } });

    // Unknown tokens and tokens of other users: 404; non-Owners: 403.
    expect(await owner.api.post(`${base}/99999/rotate`)).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    const own = (await owner.api.post("/user/personal_access_tokens", { json: { name: "k8s", scopes: ["k8s_proxy"] } })).body;
    expect(await owner.api.post(`${base}/${own.id}/rotate`)).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    expect((await dev.api.post(`${base}/${again.body.id}/rotate`)).status).toBe(403);

    // The list shows the chain: two revoked, one active.
    const list = (await owner.api.get(base)).body as { revoked: boolean }[];
    expect(list.map((t) => t.revoked)).toEqual([true, true, false]);
  });

  test("rotation without required expiry gives a token that never expires", async () => {
    expect((await root.put("/application/settings", { json: { require_personal_access_token_expiry: false } })).status).toBe(200);
    const { owner, group, sa } = await groupSetup();
    const old = await mintToken(owner, group.id, sa.id);
    const rotated = await owner.api.post(`/groups/${group.id}/service_accounts/${sa.id}/personal_access_tokens/${old.id}/rotate`);
    expect(rotated).toMatchObject({ status: 200, body: { expires_at: null, active: true } });
  });

  test("with @gitbeaker/rest: GroupServiceAccounts.rotatePersonalAccessToken", async () => {
    const { owner, group, sa } = await groupSetup();
    const old = await mintToken(owner, group.id, sa.id);
    const api = new Gitlab({ host: app.url, token: owner.token });
    const rotated = await api.GroupServiceAccounts.rotatePersonalAccessToken(group.id, sa.id, old.id);
    expect(rotated).toMatchObject({ name: "ci", revoked: false, active: true, user_id: sa.id, expires_at: inDays(7) });
    expect(rotated.token).toMatch(/^glpat-/);
  });
});
