import { Accounts } from "@collab/accounts-contract";
import { errorBodyOf, FlushableCache, invalidToken, type Caller, type RouteDef } from "@collab/core";
import { Runners } from "@collab/runners-contract";
import type { Context } from "moleculer";
import type { IncomingMessage } from "node:http";
import { acceptableScopes, authenticateRequest, credentialOf, bearerFrom, checkScopes, deployTokenFrom, scimGroupOf, withoutSecrets, type Authentication, type CachedIdentity } from "./auth";

const caller = (id: number, admin = false): Caller => ({ id, username: `user${id}`, admin });
const auth = (userId: number, tokenId: number, scopes = ["api"], admin = false, expiresAt: string | null = null): Authentication & { tokenId: number; expiresAt: string | null } => ({
  caller: caller(userId, admin),
  scopes,
  tokenId,
  expiresAt,
});
const req = (headers: Record<string, string> = {}) => ({ headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])) }) as IncomingMessage;
const route = (method: RouteDef["method"], extra: Partial<RouteDef> = {}): RouteDef => ({ method, path: "/x", action: "svc.x", ...extra });

/** The GitLab answer of whatever `fn` throws. */
async function failure(fn: () => unknown) {
  try {
    await fn();
  } catch (err) {
    return errorBodyOf(err);
  }
  throw new Error("expected a failure");
}

describe("credentialOf", () => {
  const plain = route("GET");
  const registry = route("GET", { jobToken: true, deployTokenScopes: ["read_package_registry"] });
  const basic = (user: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}` });

  test("PRIVATE-TOKEN wins, then Authorization: Bearer, then private_token, then access_token", () => {
    expect(credentialOf(req({ "PRIVATE-TOKEN": "a", Authorization: "Bearer b" }), { private_token: "c" }, plain)).toEqual({ kind: "personal", token: "a" });
    expect(credentialOf(req({ Authorization: "Bearer b" }), { private_token: "c" }, plain)).toEqual({ kind: "personal", token: "b" });
    expect(credentialOf(req(), { private_token: "c", access_token: "d" }, plain)).toEqual({ kind: "personal", token: "c" });
    expect(credentialOf(req(), { access_token: "d" }, plain)).toEqual({ kind: "personal", token: "d" });
  });

  test("Bearer is case-insensitive and trimmed; empty values and arrays do not count", () => {
    expect(credentialOf(req({ Authorization: "bearer   tok  " }), {}, plain)).toEqual({ kind: "personal", token: "tok" });
    expect(credentialOf(req({ "PRIVATE-TOKEN": "" }), { private_token: "" }, plain)).toEqual({ kind: "none" });
    expect(credentialOf(req(), { private_token: ["a", "b"] }, plain)).toEqual({ kind: "none" });
    expect(credentialOf(req(), {}, plain)).toEqual({ kind: "none" });
  });

  test("JOB-TOKEN and job_token are job tokens on every route (routes without jobToken then refuse them)", () => {
    expect(credentialOf(req({ "JOB-TOKEN": "glcbt-1" }), {}, plain)).toEqual({ kind: "job", token: "glcbt-1" });
    expect(credentialOf(req(), { job_token: "glcbt-2" }, registry)).toEqual({ kind: "job", token: "glcbt-2" });
    expect(credentialOf(req(basic("gitlab-ci-token", "abc")), {}, plain)).toEqual({ kind: "job", token: "abc" });
  });

  test("registry routes tell Bearer and Basic secrets apart by prefix, as the npm CLI sends any token as Bearer", () => {
    expect(credentialOf(req({ Authorization: "Bearer glcbt-x" }), {}, registry)).toEqual({ kind: "job", token: "glcbt-x" });
    expect(credentialOf(req({ Authorization: "Bearer gldt-x" }), {}, registry)).toEqual({ kind: "deploy", credentials: { token: "gldt-x" } });
    expect(credentialOf(req({ Authorization: "Bearer glpat-x" }), {}, registry)).toEqual({ kind: "personal", token: "glpat-x" });
    expect(credentialOf(req(basic("me", "glpat-x")), {}, registry)).toEqual({ kind: "personal", token: "glpat-x" });
    expect(credentialOf(req(basic("svc+deploy-token-1", "gldt-x")), {}, registry)).toEqual({ kind: "deploy", credentials: { username: "svc+deploy-token-1", token: "gldt-x" } });
  });

  test("elsewhere Bearer stays a personal token and Basic a deploy token", () => {
    expect(credentialOf(req({ Authorization: "Bearer gldt-x" }), {}, plain)).toEqual({ kind: "personal", token: "gldt-x" });
    expect(credentialOf(req(basic("me", "glpat-x")), {}, plain)).toEqual({ kind: "deploy", credentials: { username: "me", token: "glpat-x" } });
    expect(credentialOf(req({ Authorization: "Basic !!" }), {}, plain)).toEqual({ kind: "deploy", credentials: null });
  });
});

describe("SCIM credentials (routes with auth: scim)", () => {
  test("only Authorization: Bearer counts", () => {
    expect(bearerFrom(req({ Authorization: "Bearer glsoat-abc" }))).toBe("glsoat-abc");
    expect(bearerFrom(req({ Authorization: "bearer  glsoat-abc " }))).toBe("glsoat-abc");
    expect(bearerFrom(req({ "PRIVATE-TOKEN": "glsoat-abc" }))).toBeUndefined();
    expect(bearerFrom(req({ Authorization: "Bearer " }))).toBeUndefined();
    expect(bearerFrom(req({ Authorization: "Basic abc" }))).toBeUndefined();
  });

  test("the group whose SCIM token it is, asked of accounts; null without a credential, with no call", async () => {
    const calls: unknown[][] = [];
    const ctx = { call: async (...args: unknown[]) => (calls.push(args), { group_id: 7 }) } as unknown as Context;
    expect(await scimGroupOf(ctx, req({ Authorization: "Bearer glsoat-abc" }))).toBe(7);
    expect(calls).toEqual([[Accounts.scim.authenticate.name, { token: "glsoat-abc" }]]);
    expect(await scimGroupOf(ctx, req())).toBeNull();
    expect(calls).toHaveLength(1);
  });
});

describe("acceptableScopes and checkScopes", () => {
  test("api always; read_api for reads; the route's own scopes besides", () => {
    expect(acceptableScopes(route("GET"))).toEqual(["api", "read_api"]);
    expect(acceptableScopes(route("GET", { scopes: ["read_user"] }))).toEqual(["api", "read_api", "read_user"]);
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) expect(acceptableScopes(route(method))).toEqual(["api"]);
    expect(acceptableScopes(route("DELETE", { scopes: ["manage_runner"] }))).toEqual(["api", "manage_runner"]);
  });

  test("one acceptable scope is enough; otherwise 403 insufficient_scope naming them all", async () => {
    expect(() => checkScopes(route("GET", { scopes: ["read_user"] }), ["read_user"])).not.toThrow();
    expect(() => checkScopes(route("POST"), ["read_api", "api"])).not.toThrow();
    expect(await failure(() => checkScopes(route("POST"), ["read_api", "read_user"]))).toEqual({
      status: 403,
      body: {
        error: "insufficient_scope",
        error_description: "The request requires higher privileges than provided by the access token.",
        scope: "api",
      },
    });
    expect((await failure(() => checkScopes(route("GET", { scopes: ["read_user"] }), [])))?.body.scope).toBe("api read_api read_user");
  });
});

describe("authenticateRequest", () => {
  /** A context whose calls answer from `answers`; records every call. */
  function fakeCtx(answers: Record<string, (params: Record<string, unknown>) => unknown>) {
    const calls: [string, Record<string, unknown>][] = [];
    const ctx = {
      call: async (action: string, params: Record<string, unknown>) => {
        calls.push([action, params]);
        return answers[action](params);
      },
    } as unknown as Context;
    return { ctx, calls };
  }
  const alice = caller(2);
  const root = auth(1, 1, ["api", "sudo"], true);

  test("anonymous requests pass on optional routes and are 401 elsewhere", async () => {
    const { ctx, calls } = fakeCtx({});
    expect(await authenticateRequest(ctx, route("GET", { auth: "optional" }), req(), {})).toBeNull();
    expect(await failure(() => authenticateRequest(ctx, route("GET"), req(), {}))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    expect(calls).toEqual([]);
  });

  test("without a cache a token is resolved by accounts on every request", async () => {
    let revoked = false;
    const { ctx, calls } = fakeCtx({
      [Accounts.authenticate.name]: () => {
        if (revoked) throw Object.assign(new Error("revoked"), { code: 401 });
        return auth(2, 10);
      },
    });
    for (let i = 0; i < 2; i++) expect(await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {})).toEqual(auth(2, 10));
    revoked = true;
    await expect(authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {})).rejects.toThrow("revoked");
    expect(calls).toEqual(Array(3).fill([Accounts.authenticate.name, { token: "t" }]));
  });

  describe("with the gateway's identity cache", () => {
    const ok = (answer: () => CachedIdentity) => fakeCtx({ [Accounts.authenticate.name]: answer });

    test("a token is asked of accounts once, then held until a flush", async () => {
      const cache = new FlushableCache<CachedIdentity>();
      const { ctx, calls } = ok(() => auth(2, 10));
      for (let i = 0; i < 3; i++) expect(await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {}, cache)).toEqual(auth(2, 10));
      expect(calls).toHaveLength(1);
      cache.flush();
      await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {}, cache);
      expect(calls).toHaveLength(2);
    });

    test("a held caller's scopes are still checked per route", async () => {
      const cache = new FlushableCache<CachedIdentity>();
      const { ctx } = ok(() => auth(2, 10, ["read_api"]));
      expect(await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {}, cache)).toEqual(auth(2, 10, ["read_api"]));
      expect((await failure(() => authenticateRequest(ctx, route("POST"), req({ "PRIVATE-TOKEN": "t" }), {}, cache)))?.status).toBe(403);
    });

    test("a refused token is never held: accounts is asked every time", async () => {
      const cache = new FlushableCache<CachedIdentity>();
      const { ctx, calls } = fakeCtx({ [Accounts.authenticate.name]: () => Promise.reject(invalidToken("Token was revoked.")) });
      for (let i = 0; i < 2; i++) expect((await failure(() => authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {}, cache)))?.status).toBe(401);
      expect(calls).toHaveLength(2);
      expect(cache.size).toBe(0);
    });

    test("an answer that was in flight when a flush came is not held", async () => {
      const cache = new FlushableCache<CachedIdentity>();
      const { ctx, calls } = ok(() => {
        cache.flush(); // the flush lands while accounts answers
        return auth(2, 10);
      });
      await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {}, cache);
      expect(cache.size).toBe(0);
      await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {}, cache);
      expect(calls).toHaveLength(2);
    });

    test("a token expiring today is not held past midnight UTC; an expired date is not held at all", async () => {
      const cache = new FlushableCache<CachedIdentity>();
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const { ctx, calls } = ok(() => auth(2, 10, ["api"], false, yesterday));
      await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {}, cache);
      await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {}, cache);
      expect(calls).toHaveLength(2);
    });

    test("tokens are held by digest, never by their secret", async () => {
      const cache = new FlushableCache<CachedIdentity>();
      const keys: string[] = [];
      const spy = jest.spyOn(cache, "set").mockImplementation((key) => (keys.push(key), true));
      await authenticateRequest(ok(() => auth(2, 10)).ctx, route("GET"), req({ "PRIVATE-TOKEN": "glpat-secret" }), {}, cache);
      spy.mockRestore();
      expect(keys).toHaveLength(1);
      expect(keys[0]).not.toContain("glpat-secret");
    });
  });

  test("accounts' refusal reaches the caller unchanged", async () => {
    const { ctx } = fakeCtx({ [Accounts.authenticate.name]: () => Promise.reject(invalidToken("Token is expired.")) });
    expect(await failure(() => authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), {}))).toEqual({
      status: 401,
      body: { error: "invalid_token", error_description: "Token is expired." },
    });
  });

  test("scopes are checked before anything else is done", async () => {
    const { ctx } = fakeCtx({ [Accounts.authenticate.name]: () => auth(2, 10, ["read_api"]) });
    expect((await failure(() => authenticateRequest(ctx, route("POST"), req({ "PRIVATE-TOKEN": "t" }), {})))?.body.scope).toBe("api");
  });

  test("Sudo, by header or param, turns an administrator with the sudo scope into the target", async () => {
    const { ctx, calls } = fakeCtx({ [Accounts.authenticate.name]: () => root, [Accounts.resolveSudo.name]: () => alice });
    expect(await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t", Sudo: "alice" }), {})).toEqual({ ...root, caller: alice });
    expect(await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t" }), { sudo: 2 })).toEqual({ ...root, caller: alice });
    expect(calls.filter(([a]) => a === Accounts.resolveSudo.name)).toEqual([
      [Accounts.resolveSudo.name, { ref: "alice" }],
      [Accounts.resolveSudo.name, { ref: "2" }],
    ]);
  });

  test("an empty Sudo is no Sudo", async () => {
    const { ctx } = fakeCtx({ [Accounts.authenticate.name]: () => root });
    expect(await authenticateRequest(ctx, route("GET"), req({ "PRIVATE-TOKEN": "t", Sudo: "" }), {})).toEqual(root);
  });

  test("Sudo refusals: non-administrators, tokens without the sudo scope, and no credentials at all", async () => {
    const user = fakeCtx({ [Accounts.authenticate.name]: () => auth(2, 10, ["api", "sudo"]) });
    expect(await failure(() => authenticateRequest(user.ctx, route("GET"), req({ "PRIVATE-TOKEN": "t", Sudo: "root" }), {}))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - Must be admin to use sudo" },
    });

    const admin = fakeCtx({ [Accounts.authenticate.name]: () => auth(1, 1, ["api"], true) });
    expect((await failure(() => authenticateRequest(admin.ctx, route("GET"), req({ "PRIVATE-TOKEN": "t", Sudo: "alice" }), {})))?.body).toMatchObject({
      error: "insufficient_scope",
      scope: "sudo",
    });

    const anon = fakeCtx({});
    expect(await failure(() => authenticateRequest(anon.ctx, route("GET", { auth: "optional" }), req({ Sudo: "alice" }), {}))).toEqual({
      status: 401,
      body: { message: "401 Unauthorized" },
    });
  });
});

describe("deployTokenFrom", () => {
  const basic = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

  test("the Deploy-Token header, else HTTP Basic's username and secret", () => {
    expect(deployTokenFrom(req({ "Deploy-Token": "gldt-abc" }))).toEqual({ token: "gldt-abc" });
    expect(deployTokenFrom(req({ Authorization: basic("svc+deploy-token-1:gldt-abc") }))).toEqual({ username: "svc+deploy-token-1", token: "gldt-abc" });
    expect(deployTokenFrom(req({ Authorization: `basic   ${Buffer.from("u:p:q").toString("base64")}` }))).toEqual({ username: "u", token: "p:q" });
    expect(deployTokenFrom(req({ "Deploy-Token": "gldt-abc", Authorization: basic("u:p") }))).toEqual({ token: "gldt-abc" });
  });

  test("no credentials: undefined; Basic that is not user:secret: null (refused)", () => {
    expect(deployTokenFrom(req())).toBeUndefined();
    expect(deployTokenFrom(req({ Authorization: "Bearer tok" }))).toBeUndefined();
    expect(deployTokenFrom(req({ "Deploy-Token": "" }))).toBeUndefined();
    for (const bad of ["nocolon", ":secret", "user:"]) expect(deployTokenFrom(req({ Authorization: basic(bad) }))).toBeNull();
  });
});

describe("deploy tokens in authenticateRequest", () => {
  const deployCaller: Caller = { id: 0, username: "svc+deploy-token-7", admin: false, deployToken: { id: 7, projectId: 3, groupId: null, scopes: ["read_package_registry"] } };
  const deployAuth = (scopes = ["read_package_registry"]): Authentication => ({
    caller: { ...deployCaller, deployToken: { ...deployCaller.deployToken!, scopes } },
    scopes,
    deployTokenId: 7,
  });
  /** A synthetic route that accepts deploy tokens, as the package registry's will. */
  const registry = route("GET", { auth: "optional", deployTokenScopes: ["read_package_registry", "write_package_registry"] });

  function fakeCtx(answer: () => unknown) {
    const calls: [string, Record<string, unknown>][] = [];
    const ctx = {
      call: async (action: string, params: Record<string, unknown>) => {
        calls.push([action, params]);
        return answer();
      },
    } as unknown as Context;
    return { ctx, calls };
  }

  test("a route that declares deploy token scopes accepts one, with the token as the caller; looked up every time", async () => {
    const { ctx, calls } = fakeCtx(() => deployAuth());
    for (let i = 0; i < 2; i++) {
      const auth = await authenticateRequest(ctx, registry, req({ "Deploy-Token": "gldt-secret" }), {});
      expect(auth).toEqual(deployAuth());
      expect(auth?.caller.deployToken).toEqual({ id: 7, projectId: 3, groupId: null, scopes: ["read_package_registry"] });
      expect(auth?.tokenId).toBeUndefined();
    }
    expect(calls).toEqual(Array(2).fill([Accounts.deployTokens.authenticate.name, { token: "gldt-secret" }]));

    const basic = fakeCtx(() => deployAuth());
    await authenticateRequest(basic.ctx, registry, req({ Authorization: `Basic ${Buffer.from("svc+deploy-token-7:gldt-secret").toString("base64")}` }), {});
    expect(basic.calls).toEqual([[Accounts.deployTokens.authenticate.name, { username: "svc+deploy-token-7", token: "gldt-secret" }]]);
  });

  test("every other route answers a valid deploy token 401, even routes open to anonymous callers", async () => {
    const { ctx } = fakeCtx(() => deployAuth());
    for (const r of [route("GET"), route("GET", { auth: "optional" }), route("POST", { scopes: ["read_package_registry"] }), route("GET", { deployTokenScopes: [] })])
      expect(await failure(() => authenticateRequest(ctx, r, req({ "Deploy-Token": "gldt-secret" }), {}))).toEqual({
        status: 401,
        body: { message: "401 Unauthorized" },
      });
  });

  test("a token without any of the route's deploy scopes is 403 insufficient_scope naming them", async () => {
    const { ctx } = fakeCtx(() => deployAuth(["read_repository"]));
    expect(await failure(() => authenticateRequest(ctx, registry, req({ "Deploy-Token": "gldt-secret" }), {}))).toMatchObject({
      status: 403,
      body: { error: "insufficient_scope", scope: "read_package_registry write_package_registry" },
    });
  });

  test("accounts' refusals (unknown, revoked, expired) reach the caller on any route; malformed Basic is 401 without a lookup", async () => {
    const revoked = invalidToken("Token was revoked. You have to re-authorize from the user.");
    const { ctx } = fakeCtx(() => Promise.reject(revoked));
    for (const r of [registry, route("GET")])
      expect(await failure(() => authenticateRequest(ctx, r, req({ "Deploy-Token": "gldt-old" }), {}))).toEqual({
        status: 401,
        body: { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." },
      });
    const none = fakeCtx(() => deployAuth());
    expect(await failure(() => authenticateRequest(none.ctx, registry, req({ Authorization: `Basic ${Buffer.from("nocolon").toString("base64")}` }), {}))).toEqual({
      status: 401,
      body: { message: "401 Unauthorized" },
    });
    expect(none.calls).toEqual([]);
  });

  test("no Sudo with a deploy token; a personal token sent beside one wins", async () => {
    const { ctx } = fakeCtx(() => deployAuth());
    expect(await failure(() => authenticateRequest(ctx, registry, req({ "Deploy-Token": "gldt-secret", Sudo: "root" }), {}))).toEqual({
      status: 403,
      body: { message: "403 Forbidden - Must be authenticated using an OAuth or personal access token to use sudo" },
    });
    const both = fakeCtx(() => auth(2, 10));
    expect(await authenticateRequest(both.ctx, registry, req({ "PRIVATE-TOKEN": "glpat-x", "Deploy-Token": "gldt-secret" }), {})).toEqual(auth(2, 10));
    expect(both.calls).toEqual([[Accounts.authenticate.name, { token: "glpat-x" }]]);
  });
});

describe("job tokens in authenticateRequest", () => {
  const jobRoute = route("PUT", { jobToken: true });
  const job = { job_id: 11, project_id: 3, pipeline_id: 5, user_id: 2 };
  function fakeCtx(jobAnswer: () => unknown = () => job) {
    const calls: string[] = [];
    const ctx = {
      call: async (action: string) => {
        calls.push(action);
        if (action === Runners.jobs.authenticate.name) return jobAnswer();
        if (action === Accounts.jobCaller.name) return caller(2);
        throw new Error(action);
      },
    } as unknown as Context;
    return { ctx, calls };
  }

  test("a route that takes job tokens authenticates the job's user, marked with the job; never cached", async () => {
    const { ctx, calls } = fakeCtx();
    for (const r of [req({ "JOB-TOKEN": "glcbt-x" }), req({ Authorization: "Bearer glcbt-x" })]) {
      const auth = await authenticateRequest(ctx, jobRoute, r, {});
      expect(auth).toEqual({ caller: { ...caller(2), job: { id: 11, projectId: 3, pipelineId: 5 } }, scopes: ["api"] });
    }
    await authenticateRequest(ctx, jobRoute, req(), { job_token: "glcbt-x" });
    expect(calls.filter((c) => c === Runners.jobs.authenticate.name)).toHaveLength(3);
  });

  test("routes without jobToken answer 401 without asking runners; Sudo is refused", async () => {
    const { ctx, calls } = fakeCtx();
    for (const r of [route("GET"), route("GET", { auth: "optional" }), route("GET", { deployTokenScopes: ["read_package_registry"] })])
      expect(await failure(() => authenticateRequest(ctx, r, req({ "JOB-TOKEN": "glcbt-x" }), {}))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
    expect(calls).toEqual([]);
    expect(await failure(() => authenticateRequest(ctx, jobRoute, req({ "JOB-TOKEN": "glcbt-x", Sudo: "1" }), {}))).toMatchObject({ status: 403 });
  });

  test("a job without a user cannot authenticate", async () => {
    const { ctx } = fakeCtx(() => ({ ...job, user_id: null }));
    expect(await failure(() => authenticateRequest(ctx, jobRoute, req({ "JOB-TOKEN": "glcbt-x" }), {}))).toEqual({ status: 401, body: { message: "401 Unauthorized" } });
  });
});

describe("withoutSecrets", () => {
  test("masks credential params in logged URLs, keeps the rest", () => {
    expect(withoutSecrets("/api/v4/user?private_token=glpat-abc&page=2")).toBe("/api/v4/user?private_token=[FILTERED]&page=2");
    expect(withoutSecrets("/api/v4/x?access_token=a&Private_Token=b&token=c&deploy_token=d&job_token=e")).toBe(
      "/api/v4/x?access_token=[FILTERED]&Private_Token=[FILTERED]&token=[FILTERED]&deploy_token=[FILTERED]&job_token=[FILTERED]",
    );
    expect(withoutSecrets("/api/v4/projects?search=token")).toBe("/api/v4/projects?search=token");
    expect(withoutSecrets("/api/v4/projects")).toBe("/api/v4/projects");
    expect(withoutSecrets("/api/v4/x?private%5Ftoken=s")).toBe("/api/v4/x?private%5Ftoken=[FILTERED]");
  });
});
