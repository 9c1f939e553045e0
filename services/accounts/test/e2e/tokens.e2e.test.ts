import { Gitlab } from "@gitbeaker/rest";
import { loadConfig } from "@collab/core";
import { openDatabase } from "@collab/db";
import { apiClient, createPersonalAccessToken, createUserAccount, type ApiClient, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

/** Personal access tokens, scopes, Sudo and the ways a token may be presented, through the gateway. */

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("tokens");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const PASSWORD = "s3cret-passw0rd";
const TOKEN_KEYS = ["id", "name", "description", "revoked", "created_at", "scopes", "user_id", "last_used_at", "active", "expires_at"].sort();
const REVOKED = { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." };
const EXPIRED = { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." };
const insufficientScope = (scope: string) => ({
  error: "insufficient_scope",
  error_description: "The request requires higher privileges than provided by the access token.",
  scope,
});
const isoDate = (daysFromToday: number) => new Date(Date.now() + daysFromToday * 86_400_000).toISOString().slice(0, 10);

const createUser = (username: string, extra: Record<string, unknown> = {}) => createUserAccount(app, username, extra);
const createToken = (userId: number, scopes: string[] = ["api"], name = "test") => createPersonalAccessToken(app, userId, { scopes, name });

/** alice (2) and bob (3), each with an api token. */
async function aliceAndBob() {
  const alice = await createUser("alice");
  const bob = await createUser("bob");
  const aliceToken = await createToken(alice.id, ["api"], "alice-cli");
  const bobToken = await createToken(bob.id, ["api"], "bob-cli");
  return { alice, bob, aliceToken, bobToken, asAlice: root.as(aliceToken.token), asBob: root.as(bobToken.token) };
}

/** Runs SQL against the app's database: the topology's, or this process's scratch database. */
async function withDb(run: (db: Awaited<ReturnType<typeof openDatabase>>["db"]) => Promise<unknown>) {
  const config = loadConfig();
  const url = process.env.TEST_TOPOLOGY_DATABASE_URL ?? config.DATABASE_URL;
  const database = await openDatabase(url);
  try {
    await run(database.db);
  } finally {
    await database.release();
  }
}

describe("POST /users/:user_id/personal_access_tokens", () => {
  test("an administrator mints a token for a user; the secret is shown once and works at once", async () => {
    const alice = await createUser("alice");
    const res = await root.post(`/users/${alice.id}/personal_access_tokens`, { json: { name: "cli", scopes: ["api", "read_user"] } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...TOKEN_KEYS, "token"].sort());
    expect(res.body).toMatchObject({
      name: "cli",
      description: null,
      revoked: false,
      active: true,
      scopes: ["api", "read_user"],
      user_id: alice.id,
      last_used_at: null,
      expires_at: isoDate(365), // GitLab's maximum lifetime when none is given
    });
    expect(res.body.token).toMatch(/^glpat-[A-Za-z0-9]{20}$/);
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const me = await root.as(res.body.token).get("/user");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: alice.id, username: "alice" });

    // Never again: neither the list nor the single view carries the secret.
    const shown = await root.get(`/personal_access_tokens/${res.body.id}`);
    expect(Object.keys(shown.body).sort()).toEqual(TOKEN_KEYS);
    const listed = await root.get("/personal_access_tokens", { query: { user_id: alice.id } });
    expect(listed.body.map((t: object) => Object.keys(t).sort())).toEqual([TOKEN_KEYS]);
    expect(listed.text).not.toContain(res.body.token);
  });

  test("description, expiry date and comma-separated scopes", async () => {
    const alice = await createUser("alice");
    const res = await root.post(`/users/${alice.id}/personal_access_tokens`, {
      json: { name: "ci", description: "for CI", scopes: "read_api,read_repository", expires_at: isoDate(30) },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: "for CI", scopes: ["read_api", "read_repository"], expires_at: isoDate(30) });
  });

  test("form-encoded scopes[]", async () => {
    const alice = await createUser("alice");
    const res = await root.post(`/users/${alice.id}/personal_access_tokens`, { form: { name: "form", "scopes[]": "read_user" } });
    expect(res.status).toBe(201);
    expect(res.body.scopes).toEqual(["read_user"]);
  });

  test("an unknown scope is rejected", async () => {
    const alice = await createUser("alice");
    for (const scopes of [["api", "root_access"], "api,root_access"]) {
      const res = await root.post(`/users/${alice.id}/personal_access_tokens`, { json: { name: "cli", scopes } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "scopes does not have a valid value" });
    }
    expect((await root.get("/personal_access_tokens", { query: { user_id: alice.id } })).body).toEqual([]);
  });

  test("missing and malformed parameters", async () => {
    const alice = await createUser("alice");
    expect(await root.post(`/users/${alice.id}/personal_access_tokens`, { json: {} })).toMatchObject({
      status: 400,
      body: { error: "name is missing, scopes is missing" },
    });
    for (const expires_at of ["next week", "2031-02-30", "2031-13-01"]) {
      expect(await root.post(`/users/${alice.id}/personal_access_tokens`, { json: { name: "x", scopes: ["api"], expires_at } })).toMatchObject({
        status: 400,
        body: { error: "expires_at is invalid" },
      });
    }
  });

  test("administrators only; unknown users are 404", async () => {
    const { alice, asAlice } = await aliceAndBob();
    expect(await asAlice.post(`/users/${alice.id}/personal_access_tokens`, { json: { name: "x", scopes: ["api"] } })).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden" },
    });
    expect(await root.as(null).post(`/users/${alice.id}/personal_access_tokens`, { json: { name: "x", scopes: ["api"] } })).toMatchObject({
      status: 401,
      body: { message: "401 Unauthorized" },
    });
    expect(await root.post("/users/999/personal_access_tokens", { json: { name: "x", scopes: ["api"] } })).toMatchObject({
      status: 404,
      body: { message: "404 User Not Found" },
    });
  });
});

describe("GET /personal_access_tokens", () => {
  test("a user lists only their own tokens, oldest first", async () => {
    const { alice, asAlice, aliceToken } = await aliceAndBob();
    const second = await createToken(alice.id, ["read_api"], "second");
    const res = await asAlice.get("/personal_access_tokens");
    expect(res.status).toBe(200);
    expect(res.body.map((t: { id: number }) => t.id)).toEqual([aliceToken.id, second.id]);
    expect(res.body.every((t: { user_id: number }) => t.user_id === alice.id)).toBe(true);
    expect(res.headers.get("x-total")).toBe("2");
  });

  test("an administrator lists everybody's tokens, or one user's", async () => {
    const { alice, aliceToken, bobToken } = await aliceAndBob();
    const all = await root.get("/personal_access_tokens");
    expect(all.body.map((t: { id: number }) => t.id)).toEqual([1, aliceToken.id, bobToken.id]);

    const hers = await root.get("/personal_access_tokens", { query: { user_id: alice.id } });
    expect(hers.body.map((t: { id: number }) => t.id)).toEqual([aliceToken.id]);

    expect(await root.get("/personal_access_tokens", { query: { user_id: 999 } })).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
  });

  test("a user naming their own id is fine; naming somebody else's is GitLab's 401", async () => {
    const { alice, bob, asAlice, aliceToken } = await aliceAndBob();
    const own = await asAlice.get("/personal_access_tokens", { query: { user_id: alice.id } });
    expect(own.body.map((t: { id: number }) => t.id)).toEqual([aliceToken.id]);
    expect(await asAlice.get("/personal_access_tokens", { query: { user_id: bob.id } })).toMatchObject({
      status: 401,
      body: { message: "401 Unauthorized" },
    });
  });

  test("state, revoked and search filters", async () => {
    const alice = await createUser("alice");
    const live = await createToken(alice.id, ["api"], "deploy-live");
    const dead = await createToken(alice.id, ["api"], "deploy-dead");
    const other = await createToken(alice.id, ["api"], "laptop");
    await root.delete(`/personal_access_tokens/${dead.id}`);
    const ids = async (query: Record<string, string | number | boolean>) =>
      (await root.get("/personal_access_tokens", { query: { user_id: alice.id, ...query } })).body.map((t: { id: number }) => t.id);

    expect(await ids({ state: "active" })).toEqual([live.id, other.id]);
    expect(await ids({ state: "inactive" })).toEqual([dead.id]);
    expect(await ids({ revoked: true })).toEqual([dead.id]);
    expect(await ids({ revoked: false })).toEqual([live.id, other.id]);
    expect(await ids({ search: "deploy" })).toEqual([live.id, dead.id]);
    expect(await root.get("/personal_access_tokens", { query: { state: "zombie" } })).toMatchObject({
      status: 400,
      body: { error: "state does not have a valid value" },
    });
  });

  test("anonymous callers get 401", async () => {
    expect(await root.as(null).get("/personal_access_tokens")).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
  });
});

describe("GET /personal_access_tokens/self and /:id", () => {
  test("self describes the token in use, whatever its scopes, and records its use", async () => {
    const alice = await createUser("alice");
    for (const scopes of [["api"], ["read_user"], ["k8s_proxy"]]) {
      const token = await createToken(alice.id, scopes, scopes[0]);
      const res = await root.as(token.token).get("/personal_access_tokens/self");
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: token.id, name: scopes[0], scopes, user_id: alice.id, active: true });
      expect(res.body.last_used_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(res.body).not.toHaveProperty("token");
    }
  });

  test("a user reads their own tokens; other people's are hidden", async () => {
    const { asAlice, aliceToken, bobToken } = await aliceAndBob();
    expect(await asAlice.get(`/personal_access_tokens/${aliceToken.id}`)).toMatchObject({ status: 200, body: { id: aliceToken.id, name: "alice-cli" } });
    expect(await asAlice.get(`/personal_access_tokens/${bobToken.id}`)).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    expect(await asAlice.get("/personal_access_tokens/1")).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
  });

  test("an administrator reads anyone's token; unknown and malformed ids", async () => {
    const { bobToken } = await aliceAndBob();
    expect(await root.get(`/personal_access_tokens/${bobToken.id}`)).toMatchObject({ status: 200, body: { id: bobToken.id, name: "bob-cli" } });
    expect(await root.get("/personal_access_tokens/999")).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    // Beyond the integer column: refused at validation, answered by the gateway as an unknown record named after the path.
    expect(await root.get("/personal_access_tokens/99999999999")).toMatchObject({ status: 404, body: { message: "404 Personal Access Token Not Found" } });
    expect(await root.get("/personal_access_tokens/abc")).toMatchObject({ status: 400, body: { error: "id is invalid" } });
  });
});

describe("DELETE /personal_access_tokens/:id and /self", () => {
  test("revoking answers 204 and the token is refused on its very next use", async () => {
    const { asAlice, aliceToken } = await aliceAndBob();
    expect((await asAlice.get("/user")).status).toBe(200); // the gateway has cached the token now

    const res = await asAlice.delete(`/personal_access_tokens/${aliceToken.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");

    const after = await asAlice.get("/user");
    expect(after.status).toBe(401);
    expect(after.body).toEqual(REVOKED);
    expect(await root.get(`/personal_access_tokens/${aliceToken.id}`)).toMatchObject({ body: { revoked: true, active: false } });
  });

  test("an administrator revokes anybody's token", async () => {
    const { asBob, bobToken } = await aliceAndBob();
    expect((await asBob.get("/user")).status).toBe(200);
    expect((await root.delete(`/personal_access_tokens/${bobToken.id}`)).status).toBe(204);
    expect(await asBob.get("/user")).toMatchObject({ status: 401, body: REVOKED });
  });

  test("a user cannot revoke somebody else's token", async () => {
    const { asAlice, asBob, bobToken } = await aliceAndBob();
    expect(await asAlice.delete(`/personal_access_tokens/${bobToken.id}`)).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - Not permitted to revoke" },
    });
    expect((await asBob.get("/user")).status).toBe(200);
  });

  test("an unknown token is ActiveRecord's 404", async () => {
    expect(await root.delete("/personal_access_tokens/999")).toMatchObject({ status: 404, body: { message: "404 Not found" } });
  });

  test("a token revokes itself, even a read-only one", async () => {
    const alice = await createUser("alice");
    const token = await createToken(alice.id, ["read_api"]);
    const asAlice = root.as(token.token);
    expect((await asAlice.get("/user")).status).toBe(200);
    expect((await asAlice.delete("/personal_access_tokens/self")).status).toBe(204);
    expect(await asAlice.get("/user")).toMatchObject({ status: 401, body: REVOKED });
    expect(await asAlice.get("/personal_access_tokens/self")).toMatchObject({ status: 401, body: REVOKED });
  });
});

describe("credentials", () => {
  test("an expired token gets GitLab's invalid_token answer", async () => {
    const alice = await createUser("alice");
    const token = await createToken(alice.id);
    await withDb((db) => db.execute(sql`UPDATE accounts.personal_access_tokens SET expires_at = current_date - 1 WHERE id = ${token.id}`));
    const res = await root.as(token.token).get("/user");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(EXPIRED);
    expect(await root.get(`/personal_access_tokens/${token.id}`)).toMatchObject({ body: { active: false, revoked: false } });
  });

  test("an unknown token is a plain 401, in every transport", async () => {
    const bad = "glpat-this-is-not-a-token";
    expect(await root.as(bad).get("/user")).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await root.as(null).get("/user", { headers: { Authorization: `Bearer ${bad}` } })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await root.as(null).get("/user", { query: { private_token: bad } })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
  });

  test("the token may come as PRIVATE-TOKEN, Authorization: Bearer, private_token or access_token", async () => {
    const { alice, aliceToken } = await aliceAndBob();
    const anon = root.as(null);
    const ways = [
      anon.get("/user", { headers: { "PRIVATE-TOKEN": aliceToken.token } }),
      anon.get("/user", { headers: { Authorization: `Bearer ${aliceToken.token}` } }),
      anon.get("/user", { headers: { Authorization: `bearer ${aliceToken.token}` } }),
      anon.get("/user", { query: { private_token: aliceToken.token } }),
      anon.get("/user", { query: { access_token: aliceToken.token } }),
      anon.post("/users", { form: { private_token: aliceToken.token, email: "x@example.com", name: "X", username: "x", password: PASSWORD } }),
    ];
    const [header, bearer, lower, query, access, form] = await Promise.all(ways);
    for (const res of [header, bearer, lower, query, access]) expect(res).toMatchObject({ status: 200, body: { id: alice.id, username: "alice" } });
    // A form field authenticates too: alice is not an administrator, so this is 403, not 401.
    expect(form).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
  });
});

describe("scopes", () => {
  test("read_api reads but may not write", async () => {
    const alice = await createUser("alice", { admin: true });
    const { token } = await createToken(alice.id, ["read_api"]);
    const api = root.as(token);
    expect((await api.get("/user")).status).toBe(200);
    expect((await api.get("/users")).status).toBe(200);
    expect((await api.get("/personal_access_tokens")).status).toBe(200);

    const post = await api.post("/users", { json: { email: "x@example.com", name: "X", username: "x", password: PASSWORD } });
    expect(post.status).toBe(403);
    expect(post.body).toEqual(insufficientScope("api"));
    expect(await api.put("/users/2", { json: { bio: "x" } })).toMatchObject({ status: 403, body: insufficientScope("api") });
    expect(await api.delete("/personal_access_tokens/1")).toMatchObject({ status: 403, body: insufficientScope("api") });
    expect((await root.get("/personal_access_tokens/1")).body.revoked).toBe(false);
  });

  test("read_user reads users and the instance metadata, nothing else", async () => {
    const alice = await createUser("alice", { admin: true });
    const { token } = await createToken(alice.id, ["read_user"]);
    const api = root.as(token);
    for (const path of ["/user", "/users", "/users/1", "/version", "/metadata", "/personal_access_tokens/self"]) expect([path, (await api.get(path)).status]).toEqual([path, 200]);

    expect(await api.get("/projects")).toMatchObject({ status: 403, body: insufficientScope("api read_api") });
    expect(await api.get("/personal_access_tokens")).toMatchObject({ status: 403, body: insufficientScope("api read_api") });
    expect(await api.post("/users", { json: { email: "x@example.com", name: "X", username: "x", password: PASSWORD } })).toMatchObject({
      status: 403,
      body: insufficientScope("api"),
    });
  });

  test("a token without any API scope is told which scopes would do", async () => {
    const alice = await createUser("alice");
    const { token } = await createToken(alice.id, ["k8s_proxy"]);
    expect(await root.as(token).get("/user")).toMatchObject({ status: 403, body: insufficientScope("api read_api read_user") });
    expect(await root.as(token).get("/users/1")).toMatchObject({ status: 403, body: insufficientScope("api read_api read_user") });
  });
});

describe("Sudo", () => {
  test("an administrator's sudo token acts as another user, named by username or id", async () => {
    const { alice } = await aliceAndBob();
    for (const sudo of ["alice", "ALICE", String(alice.id)]) {
      const res = await root.get("/user", { headers: { Sudo: sudo } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: alice.id, username: "alice" });
      expect(res.body).not.toHaveProperty("is_admin");
    }
    expect(await root.get("/user", { query: { sudo: "alice" } })).toMatchObject({ status: 200, body: { username: "alice" } });
  });

  test("impersonation carries the target's rights, not the administrator's", async () => {
    await aliceAndBob();
    const res = await root.post("/users", { headers: { Sudo: "alice" }, json: { email: "x@example.com", name: "X", username: "x", password: PASSWORD } });
    expect(res).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    // The token in use is still the administrator's.
    expect(await root.get("/personal_access_tokens/self", { headers: { Sudo: "alice" } })).toMatchObject({ status: 200, body: { id: 1, user_id: 1 } });
  });

  test("an unknown target is 404, with the name as given", async () => {
    expect(await root.get("/user", { headers: { Sudo: "ghost" } })).toMatchObject({
      status: 404,
      body: { message: "404 User with ID or username 'ghost' Not Found" },
    });
    expect(await root.get("/user", { headers: { Sudo: "999" } })).toMatchObject({
      status: 404,
      body: { message: "404 User with ID or username '999' Not Found" },
    });
  });

  test("non-administrators may not use sudo", async () => {
    const { asAlice } = await aliceAndBob();
    expect(await asAlice.get("/user", { headers: { Sudo: "bob" } })).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - Must be admin to use sudo" },
    });
  });

  test("an administrator's token needs the sudo scope", async () => {
    const admin = await createUser("admin2", { admin: true });
    await createUser("alice");
    const { token } = await createToken(admin.id, ["api"]);
    expect(await root.as(token).get("/user", { headers: { Sudo: "alice" } })).toMatchObject({ status: 403, body: insufficientScope("sudo") });
    expect(await root.as(token).get("/user")).toMatchObject({ status: 200, body: { username: "admin2" } });
  });

  test("Sudo without credentials is 401", async () => {
    await aliceAndBob();
    expect(await root.as(null).get("/users", { headers: { Sudo: "alice" }, query: { username: "alice" } })).toMatchObject({
      status: 401,
      body: { message: "401 Unauthorized" },
    });
  });
});

describe("with @gitbeaker/rest", () => {
  test("a real client creates, lists, shows and revokes tokens unchanged", async () => {
    const admin = new Gitlab({ host: app.url, token: app.rootToken });
    const alice = await admin.Users.create({ email: "alice@example.com", name: "Alice", username: "alice", password: PASSWORD });

    const created = await admin.PersonalAccessTokens.create(alice.id as number, "gitbeaker", ["api", "read_user"], { expiresAt: isoDate(7) });
    expect(created).toMatchObject({ name: "gitbeaker", scopes: ["api", "read_user"], expires_at: isoDate(7), active: true });
    expect(created.token).toMatch(/^glpat-/);

    const asAlice = new Gitlab({ host: app.url, token: created.token as string });
    expect((await asAlice.PersonalAccessTokens.all()).map((t) => t.id)).toEqual([created.id]);
    expect(await asAlice.PersonalAccessTokens.show()).toMatchObject({ id: created.id, user_id: alice.id });
    expect(await asAlice.PersonalAccessTokens.show({ tokenId: created.id as number })).toMatchObject({ id: created.id });

    const asAliceViaSudo = new Gitlab({ host: app.url, token: app.rootToken, sudo: "alice" });
    expect(await asAliceViaSudo.Users.showCurrentUser()).toMatchObject({ username: "alice" });

    await admin.PersonalAccessTokens.remove({ tokenId: created.id as number });
    await expect(asAlice.Users.showCurrentUser()).rejects.toThrow("invalid_token");
    expect(await admin.PersonalAccessTokens.show({ tokenId: created.id as number })).toMatchObject({ revoked: true, active: false });
  });

  test("a token revokes itself through the client", async () => {
    const admin = new Gitlab({ host: app.url, token: app.rootToken });
    const alice = await admin.Users.create({ email: "alice@example.com", name: "Alice", username: "alice", password: PASSWORD });
    const created = await admin.Users.createPersonalAccessToken(alice.id as number, "self", ["read_user"]);
    const asAlice = new Gitlab({ host: app.url, token: created.token as string });
    await asAlice.PersonalAccessTokens.remove();
    await expect(asAlice.PersonalAccessTokens.show()).rejects.toThrow("invalid_token");
  });
});
