import { sql } from "drizzle-orm";
import { apiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Distributed pass only. Two gateway replicas each hold token → caller in memory, and the two
 * issues replicas (and merge-requests) hold what namespaces answered about a caller's access to a
 * project. A change that affects either is flushed on every holder before it answers, so the very
 * next request through any replica sees it: a revoked token (401), a blocked user (403), a removed
 * member (404).
 */
let app: TestApp;
let gateways: string[];
beforeAll(async () => {
  app = await startApp("held-caches");
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

/** A private project with `user` as a Developer; `issues` its issue list's path. */
async function privateProjectWith(user: { id: number }) {
  const project = await root().post("/projects", { json: { name: "Secret", visibility: "private" } });
  expect(project.status).toBe(201);
  expect((await root().post(`/projects/${project.body.id}/members`, { json: { user_id: user.id, access_level: 30 } })).status).toBe(201);
  return { id: project.body.id as number, issues: `/projects/${project.body.id}/issues` };
}

/** Every issues replica answers: enough requests through both gateways that both replicas served some. */
const issueListStatuses = async (token: string, path: string) => [...new Set((await Promise.all(Array.from({ length: 4 }, () => statuses(token, path)))).flat())];

test("a member's access is held by the issues replicas: a membership removed behind namespaces' back is still served", async () => {
  const erin = await userWithToken("erin");
  const project = await privateProjectWith(erin);
  expect(await issueListStatuses(erin.token, project.issues)).toEqual([200]);
  await app.database.db.execute(sql`DELETE FROM namespaces.members WHERE user_id = ${erin.id} AND source_type = 'Project' AND source_id = ${project.id}`);
  expect(await issueListStatuses(erin.token, project.issues)).toEqual([200]);
  // Namespaces itself (not a holder) already answers from the database.
  expect(await statuses(erin.token, `/projects/${project.id}`)).toEqual([404, 404]);
});

test("a removed member loses a private project's issues on the next request, through every replica", async () => {
  const dave = await userWithToken("dave");
  const project = await privateProjectWith(dave);
  expect(await issueListStatuses(dave.token, project.issues)).toEqual([200]);
  expect((await apiClient(gateways[1], app.rootToken).delete(`/projects/${project.id}/members/${dave.id}`)).status).toBe(204);
  expect(await issueListStatuses(dave.token, project.issues)).toEqual([404]);
  expect(await statuses(dave.token, `/projects/${project.id}`)).toEqual([404, 404]);
});

test("a member added back is let in on the next request (a refusal is never held)", async () => {
  const fay = await userWithToken("fay");
  const project = await privateProjectWith(fay);
  expect((await root().delete(`/projects/${project.id}/members/${fay.id}`)).status).toBe(204);
  expect(await issueListStatuses(fay.token, project.issues)).toEqual([404]);
  expect((await root().post(`/projects/${project.id}/members`, { json: { user_id: fay.id, access_level: 30 } })).status).toBe(201);
  expect(await issueListStatuses(fay.token, project.issues)).toEqual([200]);
});
