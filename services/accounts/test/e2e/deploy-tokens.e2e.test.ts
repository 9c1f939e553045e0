import { Gitlab } from "@gitbeaker/rest";
import { addMember, apiClient, createGroup, createProject, createUser, eventually, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import { createHash } from "node:crypto";
import { startApp } from "@collab/standalone/test/app";

/**
 * Deploy tokens (GitLab's API::DeployTokens; the spec's username and scopes) through the gateway:
 * the instance, project and group routes with the spec's roles, GitLab's create answer and errors,
 * secrets kept only as digests, removal with the project or group, and authentication: a deploy
 * token is refused on every route that does not declare deploy token scopes (none does yet; the
 * accepting side is unit-tested in services/gateway/src/auth.test.ts).
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("deploy-tokens");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const KEYS = ["id", "name", "username", "expires_at", "scopes", "revoked", "expired"].sort();
const REVOKED = { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." };
const EXPIRED = { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." };
const UNAUTHORIZED = { message: "401 Unauthorized" };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
const basic = (username: string, secret: string) => ({ Authorization: `Basic ${Buffer.from(`${username}:${secret}`).toString("base64")}` });

interface Setup {
  owner: TestUser;
  maint: TestUser;
  dev: TestUser;
  outsider: TestUser;
  group: { id: number; full_path: string };
  project: { id: number; path_with_namespace: string };
}

/** Private group "acme" (owner), its private project "app"; maint and dev members of the group. */
async function setup(): Promise<Setup> {
  const owner = await createUser(app, "owner");
  const [maint, dev, outsider] = [await createUser(app, "maint"), await createUser(app, "dev"), await createUser(app, "outsider")];
  const group = await createGroup(owner.api, "Acme", "acme", { visibility: "private" });
  const project = await createProject(owner.api, { name: "app", namespace_id: group.id, visibility: "private" });
  await addMember(app, "groups", group.id, maint.id, 40);
  await addMember(app, "groups", group.id, dev.id, 30);
  return { owner, maint, dev, outsider, group, project };
}

async function mint(as: ApiClient, kind: "projects" | "groups", id: number, json: Record<string, unknown> = {}) {
  const res = await as.post(`/${kind}/${id}/deploy_tokens`, { json: { name: "pull", scopes: ["read_repository"], ...json } });
  if (res.status !== 201) throw new Error(`deploy token create: ${res.status} ${res.text}`);
  return res.body as { id: number; name: string; username: string; token: string; scopes: string[]; expires_at: string | null; expired: boolean; revoked: boolean };
}

describe("project deploy tokens", () => {
  test("a Maintainer creates one with @gitbeaker/rest: GitLab's create answer, the secret once, the spec's default username", async () => {
    const { maint, project } = await setup();
    const gl = new Gitlab({ host: app.url, token: maint.token });
    const expiresAt = inDays(30).toISOString();
    const created = await gl.DeployTokens.create("ci-pull", ["read_package_registry", "read_repository"], { projectId: project.id, expires_at: expiresAt });
    expect(Object.keys(created).sort()).toEqual([...KEYS, "token"].sort());
    expect(created).toMatchObject({
      name: "ci-pull",
      username: `svc+deploy-token-${created.id}`,
      expires_at: expiresAt,
      scopes: ["read_repository", "read_package_registry"],
      revoked: false,
      expired: false,
    });
    expect(created.token).toMatch(/^gldt-[A-Za-z0-9]{20}$/);

    const { token: _secret, ...shown } = created;
    expect(await gl.DeployTokens.show(created.id, { projectId: project.id })).toEqual(shown);
    expect(await gl.DeployTokens.all({ projectId: project.id })).toEqual([shown]);

    const named = await mint(maint.api, "projects", project.id, { username: "registry-reader", scopes: "read_registry,write_registry" });
    expect(named).toMatchObject({ username: "registry-reader", scopes: ["read_registry", "write_registry"], expires_at: null, expired: false });

    await gl.DeployTokens.remove(created.id, { projectId: project.id });
    expect(await maint.api.get(`/projects/${project.id}/deploy_tokens/${created.id}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await maint.api.delete(`/projects/${project.id}/deploy_tokens/${created.id}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(((await maint.api.get(`/projects/${project.id}/deploy_tokens`)).body as { id: number }[]).map((t) => t.id)).toEqual([named.id]);
  });

  test("the secret is stored only as its digest", async () => {
    const { owner, project } = await setup();
    const token = await mint(owner.api, "projects", project.id);
    const rows = await app.database.db.execute(sql`SELECT * FROM accounts.deploy_tokens WHERE id = ${token.id}`);
    const [row] = (rows as unknown as { rows: Record<string, unknown>[] }).rows;
    expect(row.token_digest).toBe(createHash("sha256").update(token.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token.token);
  });

  test("errors: Grape's for params, the model's sentence for the rest (400 {message})", async () => {
    const { owner, project } = await setup();
    const post = (json: Record<string, unknown>) => owner.api.post(`/projects/${project.id}/deploy_tokens`, { json });
    expect(await post({ name: "x" })).toMatchObject({ status: 400, body: { error: "scopes is missing" } });
    expect(await post({ scopes: ["read_repository"] })).toMatchObject({ status: 400, body: { error: "name is missing" } });
    expect(await post({ name: "x", scopes: ["read_repository", "api"] })).toMatchObject({ status: 400, body: { error: "scopes does not have a valid value" } });
    expect(await post({ name: "x", scopes: [] })).toMatchObject({ status: 400, body: { message: "Scopes can't be blank" } });
    expect(await post({ name: "x", scopes: ["read_repository"], username: "no spaces" })).toMatchObject({
      status: 400,
      body: { message: "Username can contain only letters, digits, '_', '-', '+', and '.'" },
    });
    expect(await post({ name: "x".repeat(256), scopes: [], username: "a b" })).toMatchObject({
      status: 400,
      body: { message: "Scopes can't be blank, Username can contain only letters, digits, '_', '-', '+', and '.', and Name is too long (maximum is 255 characters)" },
    });
    expect(await post({ name: "x", scopes: ["read_repository"], expires_at: "tomorrow" })).toMatchObject({ status: 400, body: { error: "expires_at is invalid" } });
    expect(await owner.api.get(`/projects/${project.id}/deploy_tokens/abc`)).toMatchObject({ status: 400, body: { error: "token_id is invalid" } });
    expect((await owner.api.get(`/projects/${project.id}/deploy_tokens`)).body).toEqual([]);
  });

  test("roles: Maintainer for everything; Developers 403, outsiders 404, anonymous 401", async () => {
    const { maint, dev, outsider, project } = await setup();
    const token = await mint(maint.api, "projects", project.id);
    const base = `/projects/${project.id}/deploy_tokens`;
    for (const [user, status, body] of [
      [dev, 403, { message: "403 Forbidden" }],
      [outsider, 404, { message: "404 Project Not Found" }],
    ] as const) {
      expect(await user.api.get(base)).toMatchObject({ status, body });
      expect(await user.api.get(`${base}/${token.id}`)).toMatchObject({ status, body });
      expect(await user.api.post(base, { json: { name: "x", scopes: ["read_repository"] } })).toMatchObject({ status, body });
      expect(await user.api.delete(`${base}/${token.id}`)).toMatchObject({ status, body });
    }
    expect(await root.as(null).get(base)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect((await maint.api.get(`${base}/${token.id}`)).status).toBe(200);
    expect((await root.get(base)).status).toBe(200);
  });

  test("expired and active: the active filter keeps tokens neither revoked nor expired", async () => {
    const { owner, project } = await setup();
    const live = await mint(owner.api, "projects", project.id, { name: "live" });
    const old = await mint(owner.api, "projects", project.id, { name: "old", expires_at: inDays(-1).toISOString() });
    expect(old.expired).toBe(true);
    const revoked = await mint(owner.api, "projects", project.id, { name: "revoked" });
    await app.database.db.execute(sql`UPDATE accounts.deploy_tokens SET revoked = true WHERE id = ${revoked.id}`);

    const names = async (query: Record<string, string> = {}) => ((await owner.api.get(`/projects/${project.id}/deploy_tokens`, { query })).body as { name: string }[]).map((t) => t.name);
    expect(await names()).toEqual(["live", "old", "revoked"]);
    expect(await names({ active: "true" })).toEqual(["live"]);
    expect(await names({ active: "false" })).toEqual(["live", "old", "revoked"]);
    expect((await owner.api.get(`/projects/${project.id}/deploy_tokens/${revoked.id}`)).body).toMatchObject({ revoked: true, expired: false });
    expect(live.expired).toBe(false);
  });
});

describe("group deploy tokens", () => {
  test("Maintainers list and read; only Owners create and delete", async () => {
    const { owner, maint, dev, outsider, group } = await setup();
    const base = `/groups/${group.id}/deploy_tokens`;
    expect(await maint.api.post(base, { json: { name: "x", scopes: ["read_registry"] } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    const gl = new Gitlab({ host: app.url, token: owner.token });
    const token = await gl.DeployTokens.create("group-pull", ["read_registry"], { groupId: group.id });
    expect(token).toMatchObject({ name: "group-pull", username: `svc+deploy-token-${token.id}`, scopes: ["read_registry"] });

    expect(await maint.api.get(base)).toMatchObject({ status: 200, body: [{ id: token.id }] });
    expect(await maint.api.get(`${base}/${token.id}`)).toMatchObject({ status: 200, body: { id: token.id, name: "group-pull" } });
    expect(await maint.api.delete(`${base}/${token.id}`)).toMatchObject({ status: 403 });
    expect(await dev.api.get(base)).toMatchObject({ status: 403 });
    expect(await outsider.api.get(base)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });

    // A project's token is not the group's.
    const { project } = { project: (await createProject(owner.api, { name: "inner", namespace_id: group.id })) as { id: number } };
    const projectToken = await mint(owner.api, "projects", project.id);
    expect(await owner.api.get(`${base}/${projectToken.id}`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });

    expect((await owner.api.delete(`${base}/${token.id}`)).status).toBe(204);
    expect((await owner.api.get(base)).body).toEqual([]);
  });
});

describe("GET /deploy_tokens", () => {
  test("administrators see every project's and group's tokens, active ones with active=true", async () => {
    const { owner, project, group } = await setup();
    const p = await mint(owner.api, "projects", project.id, { name: "p" });
    const g = await mint(owner.api, "groups", group.id, { name: "g" });
    const gone = await mint(owner.api, "groups", group.id, { name: "gone", expires_at: inDays(-2).toISOString() });
    const all = await root.get("/deploy_tokens");
    expect(all.status).toBe(200);
    expect(all.headers.get("x-total")).toBe("3");
    expect((all.body as { id: number }[]).map((t) => t.id)).toEqual([p.id, g.id, gone.id]);
    expect(Object.keys(all.body[0]).sort()).toEqual(KEYS);
    expect(((await root.get("/deploy_tokens", { query: { active: true } })).body as { id: number }[]).map((t) => t.id)).toEqual([p.id, g.id]);
    expect(await owner.api.get("/deploy_tokens")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await root.as(null).get("/deploy_tokens")).toMatchObject({ status: 401 });
  });
});

describe("deploy tokens as credentials", () => {
  test("a valid deploy token is 401 on every route that does not accept deploy tokens, by header or HTTP Basic", async () => {
    const { owner, project } = await setup();
    const token = await mint(owner.api, "projects", project.id, { scopes: ["read_repository", "read_package_registry"] });
    const anonymous = root.as(null);
    for (const headers of [{ "Deploy-Token": token.token }, basic(token.username, token.token)]) {
      expect(await anonymous.get(`/projects/${project.id}`, { headers })).toMatchObject({ status: 401, body: UNAUTHORIZED });
      expect(await anonymous.get("/projects", { headers })).toMatchObject({ status: 401, body: UNAUTHORIZED }); // open to anonymous callers
      expect(await anonymous.get("/broadcast_messages", { headers })).toMatchObject({ status: 401, body: UNAUTHORIZED });
      expect(await anonymous.get("/user", { headers })).toMatchObject({ status: 401, body: UNAUTHORIZED });
      expect(await anonymous.post(`/projects/${project.id}/issues`, { headers, json: { title: "x" } })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    }
    // Nor is it a personal token, nor good with another username.
    expect(await root.as(token.token).get("/projects")).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await anonymous.get("/projects", { headers: basic("somebody-else", token.token) })).toMatchObject({ status: 401, body: UNAUTHORIZED });
    // Without credentials the same open route answers.
    expect((await anonymous.get("/projects")).status).toBe(200);
  });

  test("an expired or revoked deploy token is refused with GitLab's invalid_token answers", async () => {
    const { owner, project } = await setup();
    const expired = await mint(owner.api, "projects", project.id, { expires_at: inDays(-1).toISOString() });
    expect(await root.as(null).get("/projects", { headers: { "Deploy-Token": expired.token } })).toMatchObject({ status: 401, body: EXPIRED });
    expect(await root.as(null).get("/projects", { headers: basic(expired.username, expired.token) })).toMatchObject({ status: 401, body: EXPIRED });

    const revoked = await mint(owner.api, "projects", project.id, { name: "revoked" });
    await app.database.db.execute(sql`UPDATE accounts.deploy_tokens SET revoked = true WHERE id = ${revoked.id}`);
    expect(await root.as(null).get("/projects", { headers: { "Deploy-Token": revoked.token } })).toMatchObject({ status: 401, body: REVOKED });
  });

  test("removing the project or group removes its deploy tokens", async () => {
    const { owner, project, group } = await setup();
    const other = await createGroup(owner.api, "Other", "other");
    const projectToken = await mint(owner.api, "projects", project.id);
    const groupToken = await mint(owner.api, "groups", group.id);
    const kept = await mint(owner.api, "groups", other.id);
    expect((await root.delete(`/groups/${group.id}`)).status).toBe(202);
    expect((await root.delete(`/groups/${group.id}`, { query: { permanently_remove: true, full_path: group.full_path } })).status).toBe(202);
    await eventually(async () => expect(((await root.get("/deploy_tokens")).body as { id: number }[]).map((t) => t.id)).toEqual([kept.id]));
    for (const gone of [projectToken, groupToken])
      expect(await root.as(null).get("/projects", { headers: { "Deploy-Token": gone.token } })).toMatchObject({ status: 401, body: UNAUTHORIZED });
  });
});
