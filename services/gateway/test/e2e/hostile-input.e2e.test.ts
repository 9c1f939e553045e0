import { apiClient, createGroup, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Malformed input is refused before any endpoint runs, in one place (the gateway and the shared
 * params helpers), with GitLab's 4xx and nothing written: NUL bytes and undecodable strings,
 * integers no column holds, impossible dates, deep JSON, bodies of a type no parser reads.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("hostile-input");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** A request as a hostile client sends it: any path, raw body, any content type. */
async function send(method: string, path: string, body?: string | Buffer, contentType?: string, token: string | null = app.rootToken) {
  const headers: Record<string, string> = {};
  if (token) headers["PRIVATE-TOKEN"] = token;
  if (contentType) headers["Content-Type"] = contentType;
  const res = await fetch(`${app.url}/api/v4${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function projectWithIssue() {
  const group = await createGroup(root, "hostile", "hostile", { visibility: "public" });
  const project = await createProject(root, { name: "target", namespace_id: group.id, visibility: "public" });
  const issue = await root.post(`/projects/${project.id}/issues`, { json: { title: "Original title" } });
  expect(issue.status).toBe(201);
  return { group, project, issue: issue.body as { iid: number; title: string } };
}

const labelTitles = async (projectId: number) => ((await root.get(`/projects/${projectId}/labels`)).body as { name: string }[]).map((l) => l.name);

describe("NUL bytes and strings that are not UTF-8", () => {
  test("a NUL byte in a JSON, form or multipart body names its param; nothing is written", async () => {
    const { project } = await projectWithIssue();
    const json = await send("POST", `/projects/${project.id}/labels`, JSON.stringify({ name: "bug\u0000", color: "#ff0000" }), "application/json");
    expect(json).toEqual({ status: 400, body: { error: "name is invalid" } });
    const form = await send("POST", `/projects/${project.id}/labels`, "name=bug%00&color=%23ff0000", "application/x-www-form-urlencoded");
    expect(form).toEqual({ status: 400, body: { error: "name is invalid" } });
    const multipart = new FormData();
    multipart.set("name", "bug\u0000");
    multipart.set("color", "#ff0000");
    const mp = await fetch(`${app.url}/api/v4/projects/${project.id}/labels`, { method: "POST", headers: { "PRIVATE-TOKEN": app.rootToken }, body: multipart });
    expect([mp.status, await mp.json()]).toEqual([400, { error: "name is invalid" }]);
    expect(await labelTitles(project.id)).toEqual([]);
  });

  test("a NUL byte in the query string, and an escaped unpaired surrogate in JSON", async () => {
    await projectWithIssue();
    expect(await send("GET", "/projects?search=tar%00get")).toEqual({ status: 400, body: { error: "search is invalid" } });
    const created = await send("POST", "/users", '{"email":"mallory@example.com","username":"mallory","name":"Mal\\ud800","password":"s3cret-passw0rd"}', "application/json");
    expect(created).toEqual({ status: 400, body: { error: "name is invalid" } });
    expect((await root.get("/users", { query: { username: "mallory" } })).body).toEqual([]);
  });

  test("a body that is not UTF-8, or a form escape that decodes to none, is 400: never stored as U+FFFD or as the escape's text", async () => {
    const { project } = await projectWithIssue();
    const latin1Json = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from('","color":"#ff0000"}')]);
    const invalid = { status: 400, body: { message: "400 Bad request - Invalid request body" } };
    expect(await send("POST", `/projects/${project.id}/labels`, latin1Json, "application/json")).toEqual(invalid);
    for (const form of ["name=caf%e9&color=%23ff0000", "name=%ed%a0%80&color=%23ff0000", "name=100%&color=%23ff0000"]) {
      expect(await send("POST", `/projects/${project.id}/labels`, form, "application/x-www-form-urlencoded")).toEqual(invalid);
    }
    expect(await labelTitles(project.id)).toEqual([]);
    // Latin-1 said as such is read as Latin-1.
    expect((await send("POST", `/projects/${project.id}/labels`, Buffer.from("name=caf\xe9&color=%23ff0000", "latin1"), "application/x-www-form-urlencoded; charset=iso-8859-1")).status).toBe(201);
    expect(await labelTitles(project.id)).toEqual(["café"]);
  });

  test("a path or query string that does not decode, or a NUL byte in the path: 400 before any route", async () => {
    expect(await send("GET", "/projects/%ff%fe")).toEqual({ status: 400, body: { message: "400 Bad request - Malformed path" } });
    expect(await send("GET", "/projects/1%00")).toEqual({ status: 400, body: { message: "400 Bad request - Malformed path" } });
    expect(await send("DELETE", "/projects/1%00", undefined, undefined, null)).toEqual({ status: 400, body: { message: "400 Bad request - Malformed path" } });
    expect(await send("GET", "/projects?search=%ff%fe")).toEqual({ status: 400, body: { message: "400 Bad request - Malformed query string" } });
  });
});

describe("integers no column holds", () => {
  test.each(["2147483648", "9223372036854775808", "99999999999999999999999999"])("a path id of %s is an unknown record: 404", async (id) => {
    const { project } = await projectWithIssue();
    expect((await send("GET", `/projects/${id}`)).status).toBe(404);
    expect((await send("GET", `/groups/${id}`)).status).toBe(404);
    expect(await send("GET", `/users/${id}`)).toEqual({ status: 404, body: { message: "404 User Not Found" } });
    const issue = await send("GET", `/projects/${project.id}/issues/${id}`);
    expect(issue).toEqual({ status: 404, body: { message: "404 Issue Not Found" } });
    const edit = await send("PUT", `/projects/${project.id}/issues/${id}`, JSON.stringify({ title: "x" }), "application/json");
    expect(edit.status).toBe(404);
  });

  test("in a body or query they are invalid params: 400, nothing written", async () => {
    const { project } = await projectWithIssue();
    const create = await send("POST", "/projects", JSON.stringify({ name: "elsewhere", namespace_id: 2147483648 }), "application/json");
    expect(create).toEqual({ status: 400, body: { error: "namespace_id is invalid" } });
    const list = await send("GET", `/projects/${project.id}/issues?milestone_id=9223372036854775808`);
    expect(list.status).toBe(400);
    const runner = await send("POST", "/user/runners", JSON.stringify({ runner_type: "instance_type", maximum_timeout: 2147483648 }), "application/json");
    expect(runner).toEqual({ status: 400, body: { error: "maximum_timeout is invalid" } });
    expect((await root.get("/projects", { query: { search: "elsewhere" } })).body).toEqual([]);
  });

  test("a negative projects_limit is the User model's validation error", async () => {
    const user = await createUser(app, "limited");
    const res = await root.put(`/users/${user.id}`, { json: { projects_limit: -1 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { projects_limit: ["must be greater than or equal to 0"] } });
    expect((await root.get(`/users/${user.id}`)).body.projects_limit).not.toBe(-1);
  });
});

describe("dates", () => {
  test.each(["+275760-09-13T00:00:00Z", "2024-02-30T10:00:00Z", "2024-01-01T25:00:00Z"])("created_after=%s is invalid", async (value) => {
    const { project } = await projectWithIssue();
    const res = await root.get(`/projects/${project.id}/issues`, { query: { created_after: value } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "created_after is invalid" });
  });

  test("an impossible note created_at is refused, nothing written", async () => {
    const { project, issue } = await projectWithIssue();
    const res = await root.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { json: { body: "back-dated", created_at: "2024-02-30T10:00:00Z" } });
    expect(res).toMatchObject({ status: 400, body: { error: "created_at is invalid" } });
    expect((await root.get(`/projects/${project.id}/issues/${issue.iid}/notes`)).body).toEqual([]);
  });
});

describe("body shapes and content types", () => {
  test("a JSON body nested 20,000 levels deep is refused before it reaches a service", async () => {
    const { project, issue } = await projectWithIssue();
    const deep = `{"title":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const res = await send("PUT", `/projects/${project.id}/issues/${issue.iid}`, deep, "application/json");
    expect(res).toEqual({ status: 400, body: { error: "title is invalid" } });
    expect((await root.get(`/projects/${project.id}/issues/${issue.iid}`)).body.title).toBe("Original title");
  });

  test.each(["application/xml", "text/plain", "application/octet-stream"])("a %s body is 415 and changes nothing", async (type) => {
    const { project, issue } = await projectWithIssue();
    const note = await root.post(`/projects/${project.id}/issues/${issue.iid}/notes`, { json: { body: "keep me" } });
    const res = await send("PUT", `/projects/${project.id}/issues/${issue.iid}/notes/${note.body.id}`, "body=changed", type);
    expect(res).toEqual({ status: 415, body: { error: `The provided content-type '${type}' is not supported.` } });
    expect((await root.get(`/projects/${project.id}/issues/${issue.iid}/notes/${note.body.id}`)).body.body).toBe("keep me");
  });

  test("a truncated gzip body or a form nested too deeply is an unreadable body: 400", async () => {
    const { project, issue } = await projectWithIssue();
    const headers = { "PRIVATE-TOKEN": app.rootToken, "Content-Type": "application/json", "Content-Encoding": "gzip" };
    const gz = await fetch(`${app.url}/api/v4/projects/${project.id}/issues/${issue.iid}`, { method: "PUT", headers, body: Buffer.from("1f8b0800", "hex") });
    expect([gz.status, await gz.json()]).toEqual([400, { message: "400 Bad request - Invalid request body" }]);
    const deepForm = await send("PUT", `/projects/${project.id}/issues/${issue.iid}`, `title${"[a]".repeat(2000)}=x`, "application/x-www-form-urlencoded");
    expect(deepForm).toEqual({ status: 400, body: { message: "400 Bad request - Invalid request body" } });
  });

  test.each(["null", "[]", "[1]", '[{"title":"Replaced"}]', '"title"', "{}", ""])("a JSON body %p carries no params, as in GitLab: an update needing some is 400, nothing changes", async (body) => {
    const { project, issue } = await projectWithIssue();
    const before = (await root.get(`/projects/${project.id}/issues/${issue.iid}`)).body;
    const res = await send("PUT", `/projects/${project.id}/issues/${issue.iid}`, body, "application/json");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^assignee_id, .*, title are missing, at least one parameter must be provided$/);
    expect((await root.get(`/projects/${project.id}/issues/${issue.iid}`)).body).toEqual(before);
    expect(await send("POST", `/projects/${project.id}/issues`, body, "application/json")).toEqual({ status: 400, body: { error: "title is missing" } });
    expect(((await root.get(`/projects/${project.id}/issues`)).body as unknown[]).length).toBe(1);
  });

  test("control characters that grow a form past the body limit once encoded for the services are 413, nothing written", async () => {
    // 1,000,000 raw \x01 bytes: a 1 MB form whose params take 6 MB as JSON (`\u0001` each), over
    // MAX_BODY_BYTES (5 MiB) and so over what one call between services may carry in the distributed mode.
    const { project, issue } = await projectWithIssue();
    const flood = (prefix: string) => Buffer.concat([Buffer.from(prefix), Buffer.alloc(1_000_000, 1)]);
    const created = await send("POST", `/projects/${project.id}/issues`, flood("title=flood&description="), "application/x-www-form-urlencoded");
    expect(created).toEqual({ status: 413, body: { message: "413 Request Entity Too Large" } });
    const edited = await send("PUT", `/projects/${project.id}/issues/${issue.iid}`, flood("description="), "application/x-www-form-urlencoded");
    expect(edited).toEqual({ status: 413, body: { message: "413 Request Entity Too Large" } });
    const issues = (await root.get(`/projects/${project.id}/issues`)).body as { title: string; description: string | null }[];
    expect(issues.map((i) => [i.title, i.description])).toEqual([["Original title", null]]);
    // The same characters in a form that stays within the limit are stored as sent.
    const fits = await send("PUT", `/projects/${project.id}/issues/${issue.iid}`, Buffer.concat([Buffer.from("description=a"), Buffer.alloc(10_000, 1), Buffer.from("b")]), "application/x-www-form-urlencoded");
    expect(fits.status).toBe(200);
    expect((await root.get(`/projects/${project.id}/issues/${issue.iid}`)).body.description).toBe(`a${"\u0001".repeat(10_000)}b`);
  });

  test("an over-long URL is 414 with a JSON body; a HEAD request gets the status alone", async () => {
    expect(await send("GET", `/projects?search=${"x".repeat(100_000)}`)).toEqual({ status: 414, body: { message: "414 Request-URI Too Large" } });
    expect(await send("HEAD", `/projects?search=${"x".repeat(100_000)}`)).toEqual({ status: 414, body: null });
  });

  test("request headers beyond what the gateway reads still get a JSON answer", async () => {
    const res = await fetch(`${app.url}/api/v4/projects`, { headers: { "X-Padding": "x".repeat(1_100_000) } });
    expect([res.status, await res.json()]).toEqual([431, { message: "431 Request Header Fields Too Large" }]);
  });

  test("JSON with a charset and vendor +json types are read as JSON", async () => {
    const { project, issue } = await projectWithIssue();
    const res = await send("PUT", `/projects/${project.id}/issues/${issue.iid}`, JSON.stringify({ title: "Retitled" }), "application/merge-patch+json; charset=utf-8");
    expect(res.status).toBe(200);
    expect(res.body.title).toBe("Retitled");
  });
});

describe("members need a caller", () => {
  test("anonymous reads of a public group's or project's members are 401", async () => {
    const { group, project } = await projectWithIssue();
    const anonymous = apiClient(app.url);
    for (const path of [`/groups/${group.id}/members`, `/groups/${group.id}/members/all`, `/projects/${project.id}/members`, `/projects/${project.id}/members/all/1`]) {
      const res = await anonymous.get(path);
      expect([path, res.status, res.body]).toEqual([path, 401, { message: "401 Unauthorized" }]);
    }
    expect((await root.get(`/groups/${group.id}/members`)).status).toBe(200);
  });
});
