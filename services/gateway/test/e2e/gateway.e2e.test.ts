import { loadConfig } from "@collab/core";
import { openDatabase } from "@collab/db";
import { apiClient, createUserAccount, type ApiClient, type TestApp } from "@collab/testing";
import { sql } from "drizzle-orm";
import { REQUIRED_SERVICES } from "../../src/health";
import { startApp } from "@collab/standalone/test/app";

/** The HTTP edge itself: routing, probes, headers, bodies, errors and pagination. */

/** Services in their own processes (the distributed pass): this process cannot reach inside them. */
const distributed = Boolean(process.env.TEST_GATEWAY_URL);

// Embedded, a small body limit keeps the 413 tests cheap (restored after the file); the
// distributed gateway runs with its configured limit.
const LIMIT = distributed ? loadConfig().MAX_BODY_BYTES : 64 * 1024;
const savedLimit = process.env.MAX_BODY_BYTES;
process.env.MAX_BODY_BYTES = String(LIMIT);

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("gateway");
  root = apiClient(app.url, app.rootToken);
});
afterAll(async () => {
  await app.stop();
  if (savedLimit === undefined) delete process.env.MAX_BODY_BYTES;
  else process.env.MAX_BODY_BYTES = savedLimit;
});
beforeEach(() => app.reset());

const PASSWORD = "s3cret-passw0rd";
const BASE = "http://collab.test"; // EXTERNAL_URL in the e2e environment
const NOT_FOUND = { error: "404 Not Found" };

/** Any request, anywhere on the server, without the apiClient's /api/v4 prefix. */
async function raw(path: string, init: RequestInit = {}) {
  const res = await fetch(app.url + path, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* plain text */
  }
  return { status: res.status, headers: res.headers, text, body };
}
const withRoot = (init: RequestInit = {}): RequestInit => ({ ...init, headers: { "PRIVATE-TOKEN": app.rootToken, ...(init.headers as Record<string, string>) } });

/** The database the app's services use: the topology's, or this process's scratch database. */
function openAppDatabase() {
  const config = loadConfig();
  const url = process.env.TEST_TOPOLOGY_DATABASE_URL ?? config.DATABASE_URL;
  return openDatabase(url);
}

async function createUsers(...names: string[]) {
  for (const username of names) await createUserAccount(app, username);
}

const PAGE_HEADERS = ["x-total", "x-total-pages", "x-per-page", "x-page", "x-next-page", "x-prev-page"];
const pageHeaders = (headers: Headers) => Object.fromEntries(PAGE_HEADERS.map((h) => [h, headers.get(h)]));

describe("routing", () => {
  test("an unknown route under /api/v4 is GitLab's catch-all 404, with or without a token", async () => {
    for (const res of [
      await root.get("/nope"),
      await root.post("/nope/deeper", { json: {} }),
      await root.get("/users/1/nothing-here"),
      await root.as(null).delete("/nope"),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });

  test("paths outside /api/v4, including the retired /api/v3, are 404 JSON", async () => {
    for (const path of ["/api/v3/user", "/api/v3/projects", "/api", "/", "/users", "/foo/bar?x=1"]) {
      const res = await raw(path, withRoot());
      expect([path, res.status, res.body]).toEqual([path, 404, NOT_FOUND]);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });
});

describe("probes", () => {
  test("/-/health answers plain text without checking anything", async () => {
    const res = await raw("/-/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.text).toBe("GitLab OK");
  });

  test("/-/liveness", async () => {
    const res = await raw("/-/liveness");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  test("/-/readiness reports the instance check, and every service with ?all=1", async () => {
    const res = await raw("/-/readiness");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", master_check: [{ status: "ok" }] });

    // ?all=1 adds one check per service the gateway routes to (accounts, namespaces, …) and the database's.
    expect(REQUIRED_SERVICES).toEqual(expect.arrayContaining(["accounts", "namespaces"]));
    const all = await raw("/-/readiness?all=1");
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      status: "ok",
      master_check: [{ status: "ok" }],
      ...(app.distributed ? { transporter_check: [{ status: "ok" }] } : {}),
      settings_check: [{ status: "ok" }],
      ...Object.fromEntries(REQUIRED_SERVICES.map((name) => [`${name}_check`, [{ status: "ok" }]])),
      db_check: [{ status: "ok" }],
    });
  });

  test("probes carry the security headers and need no credentials", async () => {
    for (const path of ["/-/health", "/-/liveness", "/-/readiness"]) {
      const res = await raw(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });
});

describe("GET /version and /metadata", () => {
  const METADATA = {
    version: "18.6.0",
    revision: "collab",
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: true,
  };

  test("anonymous callers get 401", async () => {
    for (const path of ["/version", "/metadata"]) {
      expect(await root.as(null).get(path)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    }
  });

  test("any authenticated caller gets the instance metadata", async () => {
    expect(await root.get("/metadata")).toMatchObject({ status: 200, body: METADATA });
    const version = await root.get("/version");
    expect(version.status).toBe(200);
    expect(version.body).toEqual(METADATA);
  });
});

describe("headers", () => {
  test("X-Request-Id is echoed when sent", async () => {
    const res = await root.get("/version", { headers: { "X-Request-Id": "req-abc-123" } });
    expect(res.headers.get("x-request-id")).toBe("req-abc-123");
  });

  test("X-Request-Id is generated, one per request, on answers of every kind", async () => {
    const ids = [];
    for (const res of [await root.get("/version"), await root.get("/version"), await root.as(null).get("/user"), await root.get("/nope")]) {
      const id = res.headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      ids.push(id);
    }
    expect(new Set(ids).size).toBe(4);
  });

  test("X-Frame-Options and X-Content-Type-Options on successes and failures alike", async () => {
    for (const res of [await root.get("/user"), await root.as(null).get("/user"), await root.get("/nope"), await root.get("/users/999")]) {
      expect(res.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("HEAD on a GET route answers 200 with the GET's headers and no body", async () => {
    await createUsers("alice");
    const res = await raw("/api/v4/users?per_page=1", withRoot({ method: "HEAD" }));
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(pageHeaders(res.headers)).toMatchObject({ "x-total": "2", "x-per-page": "1", "x-next-page": "2" });

    const user = await raw("/api/v4/user", withRoot({ method: "HEAD" }));
    expect(user.status).toBe(200);
    expect(user.text).toBe("");
    expect((await raw("/api/v4/user", { method: "HEAD" })).status).toBe(401);
  });
});

describe("request bodies", () => {
  test("JSON, form-urlencoded and multipart bodies are all accepted", async () => {
    const json = await root.post("/users", { json: { email: "j@example.com", name: "J", username: "json", password: PASSWORD } });
    expect(json).toMatchObject({ status: 201, body: { username: "json" } });

    const form = await root.post("/users", { form: { email: "f@example.com", name: "F", username: "form", password: PASSWORD, admin: "true" } });
    expect(form).toMatchObject({ status: 201, body: { username: "form", is_admin: true } });

    const data = new FormData();
    for (const [k, v] of Object.entries({ email: "m@example.com", name: "M", username: "multi", password: PASSWORD, external: "true" })) data.append(k, v);
    const multipart = await raw("/api/v4/users", withRoot({ method: "POST", body: data }));
    expect(multipart).toMatchObject({ status: 201, body: { username: "multi", external: true } });
  });

  test("multipart updates reach the service, nested names and files included", async () => {
    await createUsers("alice");
    const data = new FormData();
    data.append("bio", "from a form");
    data.append("avatar", new Blob([Buffer.from("not really a png")], { type: "image/png" }), "avatar.png");
    const res = await raw("/api/v4/users/2", withRoot({ method: "PUT", body: data }));
    expect(res).toMatchObject({ status: 200, body: { bio: "from a form" } });

    const token = new FormData();
    token.append("name", "multipart");
    token.append("scopes[]", "read_api");
    token.append("scopes[]", "read_user");
    const created = await raw("/api/v4/users/2/personal_access_tokens", withRoot({ method: "POST", body: token }));
    expect(created).toMatchObject({ status: 201, body: { name: "multipart", scopes: ["read_api", "read_user"] } });
  });

  test("query-string parameters work on writes too", async () => {
    const res = await root.post("/users", { query: { email: "q@example.com", name: "Q", username: "query", password: PASSWORD } });
    expect(res).toMatchObject({ status: 201, body: { username: "query" } });
  });

  test("a body over the limit is 413, whatever its encoding", async () => {
    const big = "x".repeat(LIMIT + 1);
    const json = await root.post("/users", { json: { email: "b@example.com", name: big, username: "big", password: PASSWORD } });
    expect(json).toMatchObject({ status: 413, body: { message: "413 Request Entity Too Large" } });

    const form = await root.post("/users", { form: { email: "b@example.com", name: big, username: "big", password: PASSWORD } });
    expect(form).toMatchObject({ status: 413, body: { message: "413 Request Entity Too Large" } });

    const data = new FormData();
    data.append("name", big);
    const multipart = await raw("/api/v4/users", withRoot({ method: "POST", body: data }));
    expect(multipart).toMatchObject({ status: 413, body: { message: "413 Request Entity Too Large" } });

    expect((await root.get("/users", { query: { username: "big" } })).body).toEqual([]);
  });

  test("a body just under the limit is fine", async () => {
    const bio = "x".repeat(LIMIT - 1024);
    const res = await root.post("/users", { json: { email: "b@example.com", name: "B", username: "big", password: PASSWORD, bio } });
    expect(res.status).toBe(201);
    expect(res.body.bio).toHaveLength(bio.length);
  });

  test("malformed JSON is a 400, never a 500", async () => {
    const res = await raw("/api/v4/users", withRoot({ method: "POST", headers: { "Content-Type": "application/json" }, body: '{"email": "a@example.com",' }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "400 Bad request - Invalid request body" });
  });

  test("odd but well-formed bodies are client errors, never server errors", async () => {
    for (const body of ["[]", "[1,2]", '"text"', "null", "42", '{"email":{"$gt":""},"name":[],"username":{},"password":true}', '{"__proto__":{"admin":true}}']) {
      const res = await raw("/api/v4/users", withRoot({ method: "POST", headers: { "Content-Type": "application/json" }, body }));
      expect([body, res.status]).toEqual([body, 400]);
      expect(res.body).toEqual(expect.objectContaining({}));
    }
    const multipart = await raw("/api/v4/users", withRoot({ method: "POST", headers: { "Content-Type": "multipart/form-data; boundary=xyz" }, body: "garbage" }));
    expect(multipart).toMatchObject({ status: 400, body: { message: "400 Bad request - Invalid request body" } });
  });
});

describe("server errors", () => {
  test("a failure inside a service is a bare 500: no stack, no SQL, no internals", async () => {
    const database = await openAppDatabase();
    await database.db.execute(sql`ALTER TABLE accounts.users RENAME COLUMN bio TO bio_gone`);
    try {
      for (const res of [await root.get("/users/1"), await root.get("/users"), await root.as(null).get("/users", { query: { username: "root" } })]) {
        expect(res.status).toBe(500);
        expect(res.body).toEqual({ message: "500 Internal Server Error" });
        expect(res.text).not.toMatch(/\bat |bio|column|select|\.ts|node_modules/i);
        expect(res.headers.get("x-request-id")).toBeTruthy();
      }
    } finally {
      await database.db.execute(sql`ALTER TABLE accounts.users RENAME COLUMN bio_gone TO bio`);
      await database.release();
    }
    expect((await root.get("/users/1")).status).toBe(200);
  });
});

describe("pagination", () => {
  /** root (1) and four more users: five in all, listed newest first. */
  beforeEach(() => createUsers("alice", "bob", "carol", "dave"));

  test("a middle page carries every GitLab header and an absolute, sorted Link", async () => {
    const res = await root.get("/users", { query: { per_page: 1, page: 2, sort: "desc", order_by: "id" } });
    expect(res.status).toBe(200);
    expect(res.body.map((u: { username: string }) => u.username)).toEqual(["carol"]);
    expect(pageHeaders(res.headers)).toEqual({
      "x-total": "5",
      "x-total-pages": "5",
      "x-per-page": "1",
      "x-page": "2",
      "x-next-page": "3",
      "x-prev-page": "1",
    });
    const url = (page: number) => `${BASE}/api/v4/users?order_by=id&page=${page}&per_page=1&sort=desc`;
    expect(res.headers.get("link")).toBe(
      `<${url(1)}>; rel="prev", <${url(3)}>; rel="next", <${url(1)}>; rel="first", <${url(5)}>; rel="last"`,
    );
  });

  test("the first page has no prev, the last no next; the headers stay, empty", async () => {
    const first = await root.get("/users", { query: { per_page: 2 } });
    expect(pageHeaders(first.headers)).toMatchObject({ "x-page": "1", "x-prev-page": "", "x-next-page": "2", "x-total-pages": "3" });
    expect(first.headers.get("link")).toBe(
      `<${BASE}/api/v4/users?page=2&per_page=2>; rel="next", <${BASE}/api/v4/users?page=1&per_page=2>; rel="first", <${BASE}/api/v4/users?page=3&per_page=2>; rel="last"`,
    );

    const last = await root.get("/users", { query: { per_page: 2, page: 3 } });
    expect(last.body).toHaveLength(1);
    expect(pageHeaders(last.headers)).toMatchObject({ "x-page": "3", "x-prev-page": "2", "x-next-page": "" });
    expect(last.headers.get("link")).not.toContain('rel="next"');
  });

  test("a page past the end is an empty list with neither prev nor next", async () => {
    const res = await root.get("/users", { query: { per_page: 2, page: 9 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(pageHeaders(res.headers)).toEqual({ "x-total": "5", "x-total-pages": "3", "x-per-page": "2", "x-page": "9", "x-next-page": "", "x-prev-page": "" });
    expect(res.headers.get("link")).toBe(`<${BASE}/api/v4/users?page=1&per_page=2>; rel="first", <${BASE}/api/v4/users?page=3&per_page=2>; rel="last"`);
  });

  test("an empty list still has one page", async () => {
    const res = await root.get("/users", { query: { username: "nobody" } });
    expect(res.body).toEqual([]);
    expect(pageHeaders(res.headers)).toEqual({ "x-total": "0", "x-total-pages": "1", "x-per-page": "20", "x-page": "1", "x-next-page": "", "x-prev-page": "" });
    expect(res.headers.get("link")).toBe(
      `<${BASE}/api/v4/users?page=1&per_page=20&username=nobody>; rel="first", <${BASE}/api/v4/users?page=1&per_page=20&username=nobody>; rel="last"`,
    );
  });

  test("per_page above 100 is clamped to 100, in the headers and the links", async () => {
    const res = await root.get("/users", { query: { per_page: 500 } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    expect(res.headers.get("x-per-page")).toBe("100");
    expect(res.headers.get("link")).toContain("per_page=100");
    expect(res.headers.get("link")).not.toContain("per_page=500");
  });

  test("invalid page and per_page values are Grape errors", async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ per_page: 0 }, "per_page has a value not allowed"],
      [{ per_page: -1 }, "per_page does not have a valid value"],
      [{ per_page: "ten" }, "per_page is invalid"],
      [{ page: 0 }, "page does not have a valid value"],
      [{ page: "first" }, "page is invalid"],
    ];
    for (const [query, error] of cases) expect(await root.get("/users", { query })).toMatchObject({ status: 400, body: { error } });
  });
});
