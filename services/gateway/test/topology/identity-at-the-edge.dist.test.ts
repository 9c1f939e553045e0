import { sql } from "drizzle-orm";
import { apiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Distributed pass only: two gateway replicas, each holding token → caller in memory. A change
 * that affects a caller is flushed on both before it answers, so the very next request through
 * either replica sees it: a revoked token (401), a blocked user (403). Permissions are not held at
 * the edge: a removed member loses the project on the next request through either replica.
 */
let app: TestApp;
let gateways: string[];
beforeAll(async () => {
  app = await startApp("identity-at-the-edge");
  gateways = (process.env.TEST_GATEWAY_URLS ?? "").split(",").filter(Boolean);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const root = () => apiClient(gateways[0], app.rootToken);

async function userWithToken(username: string) {
  const user = await root().post("/users", { json: { username, name: username, email: `${username}@example.com`, password: "a-long-enough-password-1" } });
  expect(user.status).toBe(201);
  const token = await root().post(`/users/${user.body.id}/personal_access_tokens`, { json: { name: "cli", scopes: ["api"] } });
  expect(token.status).toBe(201);
  return { id: user.body.id as number, token: token.body.token as string, tokenId: token.body.id as number };
}

/** GET /user through each replica with `token`: the statuses, in replica order. */
const statuses = (token: string, path = "/user") => Promise.all(gateways.map(async (url) => (await apiClient(url, token).get(path)).status));

test("the topology runs two gateway replicas", () => {
  expect(gateways).toHaveLength(2);
});

test("a caller is held at the edge: a token revoked behind accounts' back is still served", async () => {
  const alice = await userWithToken("alice");
  expect(await statuses(alice.token)).toEqual([200, 200]);
  // Not through the API: no flush. Both replicas hold alice, so both still answer (within 30 s).
  await app.database.db.execute(sql`UPDATE accounts.personal_access_tokens SET revoked = true WHERE id = ${alice.tokenId}`);
  expect(await statuses(alice.token)).toEqual([200, 200]);
});

test("a token revoked through one replica is refused on the next request through both", async () => {
  const alice = await userWithToken("alice");
  expect(await statuses(alice.token)).toEqual([200, 200]);
  const revoked = await apiClient(gateways[1], app.rootToken).delete(`/personal_access_tokens/${alice.tokenId}`);
  expect(revoked.status).toBe(204);
  expect(await statuses(alice.token)).toEqual([401, 401]);
});

test("a blocked user is refused on the next request through both replicas, and let in again once unblocked", async () => {
  const bob = await userWithToken("bob");
  expect(await statuses(bob.token)).toEqual([200, 200]);
  expect((await root().post(`/users/${bob.id}/block`)).status).toBe(201);
  expect(await statuses(bob.token)).toEqual([403, 403]);
  expect((await apiClient(gateways[1], app.rootToken).post(`/users/${bob.id}/unblock`)).status).toBe(201);
  expect(await statuses(bob.token)).toEqual([200, 200]);
});

test("a user made admin is an admin on the next request through both replicas", async () => {
  const carol = await userWithToken("carol");
  const adminOnly = async () => Promise.all(gateways.map(async (url) => (await apiClient(url, carol.token).get("/users", { query: { per_page: 1 } })).body[0]?.is_admin !== undefined));
  expect(await adminOnly()).toEqual([false, false]);
  expect((await root().put(`/users/${carol.id}`, { json: { admin: true } })).status).toBe(200);
  expect(await adminOnly()).toEqual([true, true]);
});

test("a removed member loses a private project on the next request through both replicas", async () => {
  const dave = await userWithToken("dave");
  const project = await root().post("/projects", { json: { name: "Secret", visibility: "private" } });
  expect(project.status).toBe(201);
  expect((await root().post(`/projects/${project.body.id}/members`, { json: { user_id: dave.id, access_level: 30 } })).status).toBe(201);
  expect(await statuses(dave.token, `/projects/${project.body.id}`)).toEqual([200, 200]);
  expect((await apiClient(gateways[1], app.rootToken).delete(`/projects/${project.body.id}/members/${dave.id}`)).status).toBe(204);
  expect(await statuses(dave.token, `/projects/${project.body.id}`)).toEqual([404, 404]);
});
