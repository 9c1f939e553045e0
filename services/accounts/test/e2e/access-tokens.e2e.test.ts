import { Gitlab } from "@gitbeaker/rest";
import { addMember, apiClient, createGroup, createProject, createUser, eventually, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Project and group access tokens (GitLab's API::ResourceAccessTokens) through the gateway: each
 * token's bot user and its membership, who may manage them and GitLab's answers to everybody else,
 * the token working as a personal token within its scopes and its bot's reach, revocation, expiry,
 * rotation (also by the bot itself), and the bots going with their project or group.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("access-tokens");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const TOKEN_KEYS = [
  "id",
  "name",
  "description",
  "revoked",
  "created_at",
  "scopes",
  "user_id",
  "last_used_at",
  "active",
  "expires_at",
  "access_level",
  "resource_type",
  "resource_id",
].sort();
const REVOKED = { error: "invalid_token", error_description: "Token was revoked. You have to re-authorize from the user." };
const EXPIRED = { error: "invalid_token", error_description: "Token is expired. You can either do re-authorization or token refresh." };
const UNAUTHORIZED = { message: "401 Unauthorized" };
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

interface Team {
  owner: TestUser;
  maint: TestUser;
  dev: TestUser;
  reporter: TestUser;
  guest: TestUser;
  outsider: TestUser;
  group: { id: number; full_path: string };
  project: { id: number; path_with_namespace: string };
}

/** Group "acme" (private) owned by owner, its private project "app", members at every role, and an outsider. */
async function team(): Promise<Team> {
  const owner = await createUser(app, "owner", { name: "Olivia Owner" });
  const [maint, dev, reporter, guest, outsider] = [
    await createUser(app, "maint"),
    await createUser(app, "dev", { name: "Dev Eloper" }),
    await createUser(app, "reporter"),
    await createUser(app, "guest"),
    await createUser(app, "outsider"),
  ];
  const group = await createGroup(owner.api, "Acme", "acme", { visibility: "private" });
  const project = await createProject(owner.api, { name: "app", namespace_id: group.id, visibility: "private" });
  for (const [user, level] of [
    [maint, 40],
    [dev, 30],
    [reporter, 20],
    [guest, 10],
  ] as const) {
    await addMember(app, "groups", group.id, user.id, level);
  }
  return { owner, maint, dev, reporter, guest, outsider, group, project };
}

/** Creates a token as `as` and checks it was created. */
async function mint(as: ApiClient, kind: "projects" | "groups", id: number, json: Record<string, unknown> = {}) {
  const res = await as.post(`/${kind}/${id}/access_tokens`, { json: { name: "ci", scopes: ["api"], ...json } });
  if (res.status !== 201) throw new Error(`token create: ${res.status} ${res.text}`);
  return res.body as { id: number; token: string; user_id: number; name: string; scopes: string[]; expires_at: string | null; access_level: number };
}

const members = async (kind: "projects" | "groups", id: number) =>
  ((await root.get(`/${kind}/${id}/members`, { query: { per_page: 100 } })).body as { id: number; username: string; access_level: number }[]).map((m) => [m.username, m.access_level]);

describe("project access tokens", () => {
  test("a Maintainer creates one: GitLab's answer with the secret once, a project_bot member at the token's level", async () => {
    const { maint, project } = await team();
    const res = await maint.api.post(`/projects/${project.id}/access_tokens`, {
      json: { name: "deployer", description: "for CI", scopes: ["read_api", "read_repository"], access_level: 30, expires_at: day(30) },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...TOKEN_KEYS, "token"].sort());
    expect(res.body).toMatchObject({
      name: "deployer",
      description: "for CI",
      revoked: false,
      active: true,
      scopes: ["read_api", "read_repository"],
      expires_at: day(30),
      last_used_at: null,
      access_level: 30,
      resource_type: "project",
      resource_id: project.id,
    });
    expect(res.body.token).toMatch(/^glpat-[A-Za-z0-9]{20}$/);

    const bot = (await root.get(`/users/${res.body.user_id}`)).body;
    expect(bot).toMatchObject({ name: "deployer", bot: true, state: "active" });
    expect(bot.username).toMatch(new RegExp(`^project_${project.id}_bot_[0-9a-f]{32}$`));
    expect(bot.email).toMatch(new RegExp(`^${bot.username}@noreply\\.[a-z.]+$`));
    expect(await members("projects", project.id)).toContainEqual([bot.username, 30]);

    // Only the create answer carries the secret; reads show the same token without it.
    const shown = await maint.api.get(`/projects/${project.id}/access_tokens/${res.body.id}`);
    expect(shown.status).toBe(200);
    const { token: _secret, ...withoutSecret } = res.body;
    expect(shown.body).toEqual(withoutSecret);
    const list = await maint.api.get(`/projects/${encodeURIComponent(project.path_with_namespace)}/access_tokens`);
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total")).toBe("1");
    expect(list.body).toEqual([withoutSecret]);
  });

  test("defaults: Maintainer level, a year's lifetime; the lifetime is capped at a year", async () => {
    const { owner, project } = await team();
    const token = await mint(owner.api, "projects", project.id);
    expect(token).toMatchObject({ access_level: 40, expires_at: day(365) });
    expect(await owner.api.post(`/projects/${project.id}/access_tokens`, { json: { name: "x", scopes: ["api"], expires_at: day(400) } })).toMatchObject({
      status: 400,
      body: { message: `400 Bad request - Expires at must be before ${day(365)}` },
    });
    // Without required expiry tokens may live for ever.
    expect((await root.put("/application/settings", { json: { require_personal_access_token_expiry: false } })).status).toBe(200);
    // The settings change reaches accounts as a broadcast: in the distributed pass shortly after the PUT answers.
    await eventually(async () => expect(await mint(owner.api, "projects", project.id)).toMatchObject({ expires_at: null }));
    expect(await mint(owner.api, "projects", project.id, { expires_at: day(800) })).toMatchObject({ expires_at: day(800) });
  });

  test("parameter errors are Grape's 400s", async () => {
    const { owner, project } = await team();
    const post = (json: Record<string, unknown>) => owner.api.post(`/projects/${project.id}/access_tokens`, { json });
    expect(await post({ scopes: ["api"] })).toMatchObject({ status: 400, body: { error: "name is missing" } });
    expect(await post({ name: "x" })).toMatchObject({ status: 400, body: { error: "scopes is missing" } });
    expect(await post({ name: "x", scopes: ["api", "read_user"] })).toMatchObject({ status: 400, body: { error: "scopes does not have a valid value" } });
    expect(await post({ name: "x", scopes: ["sudo"] })).toMatchObject({ status: 400, body: { error: "scopes does not have a valid value" } });
    expect(await post({ name: "x", scopes: [] })).toMatchObject({ status: 400, body: { error: "scopes is empty" } });
    for (const level of [0, 15, 60])
      expect(await post({ name: "x", scopes: ["api"], access_level: level })).toMatchObject({ status: 400, body: { error: "access_level does not have a valid value" } });
    expect(await post({ name: "x", scopes: ["api"], access_level: "owner" })).toMatchObject({ status: 400, body: { error: "access_level is invalid" } });
    expect(await post({ name: "x", scopes: ["api"], expires_at: "2030-02-30" })).toMatchObject({ status: 400, body: { error: "expires_at is invalid" } });
    // Comma-separated scopes, as a form.
    const form = await owner.api.post(`/projects/${project.id}/access_tokens`, { form: { name: "f", scopes: "api,read_repository" } });
    expect(form).toMatchObject({ status: 201, body: { scopes: ["api", "read_repository"] } });
    // Nothing was created by the refused requests.
    expect((await owner.api.get(`/projects/${project.id}/access_tokens`)).body).toHaveLength(1);
  });

  test("who may: Maintainers and above, administrators; GitLab's 401/400 for members below, 404 for outsiders, 401 anonymous", async () => {
    const t = await team();
    const { project } = t;
    const existing = await mint(t.owner.api, "projects", project.id);
    const base = `/projects/${project.id}/access_tokens`;

    for (const user of [t.dev, t.reporter, t.guest]) {
      expect(await user.api.get(base)).toMatchObject({ status: 401, body: UNAUTHORIZED });
      expect(await user.api.get(`${base}/${existing.id}`)).toMatchObject({ status: 401, body: UNAUTHORIZED });
      expect(await user.api.post(base, { json: { name: "x", scopes: ["api"] } })).toMatchObject({
        status: 400,
        body: { message: "400 Bad request - User does not have permission to create project access token" },
      });
      expect(await user.api.post(`${base}/${existing.id}/rotate`)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    }
    expect(await t.dev.api.delete(`${base}/${existing.id}`)).toMatchObject({ status: 400, body: { message: "400 Bad request - Dev Eloper cannot delete ci" } });

    for (const call of [
      () => t.outsider.api.get(base),
      () => t.outsider.api.get(`${base}/${existing.id}`),
      () => t.outsider.api.post(base, { json: { name: "x", scopes: ["api"] } }),
      () => t.outsider.api.delete(`${base}/${existing.id}`),
      () => t.outsider.api.post(`${base}/${existing.id}/rotate`),
    ])
      expect(await call()).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });

    const anonymous = root.as(null);
    expect(await anonymous.get(base)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await anonymous.post(base, { json: { name: "x", scopes: ["api"] } })).toMatchObject({ status: 401, body: UNAUTHORIZED });

    // Maintainers hand out up to their own level; Owners and administrators anything.
    expect((await t.maint.api.get(base)).status).toBe(200);
    expect(await mint(t.maint.api, "projects", project.id, { access_level: 40 })).toMatchObject({ access_level: 40 });
    expect(await t.maint.api.post(base, { json: { name: "x", scopes: ["api"], access_level: 50 } })).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - Access level of the token contains permissions not held by the creating user" },
    });
    expect(await mint(t.owner.api, "projects", project.id, { access_level: 50 })).toMatchObject({ access_level: 50 });
    expect(await mint(root, "projects", project.id, { access_level: 50 })).toMatchObject({ access_level: 50 });
    expect((await root.get(base)).body).toHaveLength(4);

    // Unknown tokens: 404 naming the source type, as GitLab does; rotation's 401 (404 for administrators).
    expect(await t.maint.api.get(`${base}/99999`)).toMatchObject({ status: 404, body: { message: "404 project Access Token Not Found" } });
    expect(await t.maint.api.delete(`${base}/99999`)).toMatchObject({ status: 404, body: { message: "404 project Access Token Not Found" } });
    expect(await t.maint.api.post(`${base}/99999/rotate`)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await root.post(`${base}/99999/rotate`)).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    // A human's personal token is no project token.
    expect(await t.maint.api.get(`${base}/1`)).toMatchObject({ status: 404 });
  });

  test("the bot's token works as a personal token within its scopes and its membership", async () => {
    const t = await team();
    const other = await createProject(t.owner.api, { name: "other", namespace_id: t.group.id, visibility: "private" });
    const reader = await mint(t.maint.api, "projects", t.project.id, { name: "reader", scopes: ["read_api"], access_level: 30 });
    const asReader = root.as(reader.token);

    expect(await asReader.get(`/projects/${t.project.id}`)).toMatchObject({ status: 200, body: { id: t.project.id } });
    expect((await asReader.get(`/projects/${t.project.id}/issues`)).status).toBe(200);
    expect(await asReader.post(`/projects/${t.project.id}/issues`, { json: { title: "no" } })).toMatchObject({
      status: 403,
      body: { error: "insufficient_scope", scope: "api" },
    });
    // Its reach is its membership: the group's other private project is hidden, the self endpoint is its own.
    expect(await asReader.get(`/projects/${other.id}`)).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await asReader.get("/personal_access_tokens/self")).toMatchObject({ status: 200, body: { id: reader.id, user_id: reader.user_id } });

    // An api-scoped bot writes, as far as its level lets it.
    const writer = await mint(t.maint.api, "projects", t.project.id, { name: "writer", scopes: ["api"], access_level: 30 });
    const asWriter = root.as(writer.token);
    expect(await asWriter.post(`/projects/${t.project.id}/issues`, { json: { title: "from a bot" } })).toMatchObject({ status: 201, body: { author: { id: writer.user_id } } });
    expect((await asWriter.post(`/projects/${t.project.id}/members`, { json: { user_id: t.outsider.id, access_level: 10 } })).status).toBe(403);
    // Bots may not mint tokens, even at Maintainer level.
    const maintBot = await mint(t.maint.api, "projects", t.project.id, { name: "maint-bot", access_level: 40 });
    expect((await root.as(maintBot.token).get(`/projects/${t.project.id}/access_tokens`)).status).toBe(200);
    expect(await root.as(maintBot.token).post(`/projects/${t.project.id}/access_tokens`, { json: { name: "x", scopes: ["api"] } })).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - User does not have permission to create project access token" },
    });
  });

  test("revoking answers 204: the token is refused on its next use, the bot and its membership are gone", async () => {
    const { maint, project } = await team();
    const token = await mint(maint.api, "projects", project.id, { name: "doomed" });
    const asBot = root.as(token.token);
    expect((await asBot.get(`/projects/${project.id}`)).status).toBe(200); // cached by the gateway now
    const bot = (await root.get(`/users/${token.user_id}`)).body;

    const res = await maint.api.delete(`/projects/${project.id}/access_tokens/${token.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await asBot.get(`/projects/${project.id}`)).toMatchObject({ status: 401 });
    expect(await maint.api.get(`/projects/${project.id}/access_tokens/${token.id}`)).toMatchObject({ status: 404 });
    expect((await root.get(`/users/${token.user_id}`)).status).toBe(404);
    await eventually(async () => expect((await members("projects", project.id)).map(([u]) => u)).not.toContain(bot.username));
  });

  test("an expired token is refused with GitLab's answer and listed as inactive", async () => {
    const { owner, project } = await team();
    const live = await mint(owner.api, "projects", project.id, { name: "live" });
    const dead = await mint(owner.api, "projects", project.id, { name: "dead", expires_at: day(-1) });
    expect(dead).toMatchObject({ expires_at: day(-1) });
    expect(await root.as(dead.token).get(`/projects/${project.id}`)).toMatchObject({ status: 401, body: EXPIRED });
    expect((await root.as(live.token).get(`/projects/${project.id}`)).status).toBe(200);

    const names = async (query: Record<string, string>) =>
      ((await owner.api.get(`/projects/${project.id}/access_tokens`, { query })).body as { name: string }[]).map((t) => t.name);
    expect(await names({ state: "active" })).toEqual(["live"]);
    expect(await names({ state: "inactive" })).toEqual(["dead"]);
    expect(await names({ search: "liv" })).toEqual(["live"]);
    expect(await owner.api.get(`/projects/${project.id}/access_tokens`, { query: { state: "gone" } })).toMatchObject({
      status: 400,
      body: { error: "state does not have a valid value" },
    });
  });

  test("rotation: a successor answered with 200, the old token revoked at once; GitLab's 400s", async () => {
    const t = await team();
    const base = `/projects/${t.project.id}/access_tokens`;
    const token = await mint(t.maint.api, "projects", t.project.id, { name: "rotating", scopes: ["api", "read_repository"], access_level: 30, description: "d" });
    const asOld = root.as(token.token);
    expect((await asOld.get(`/projects/${t.project.id}`)).status).toBe(200);

    const res = await t.maint.api.post(`${base}/${token.id}/rotate`, { json: { expires_at: day(10) } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "rotating", description: "d", scopes: ["api", "read_repository"], user_id: token.user_id, access_level: 30, expires_at: day(10), active: true });
    expect(res.body.id).not.toBe(token.id);
    expect(res.body.token).not.toBe(token.token);
    expect(await asOld.get(`/projects/${t.project.id}`)).toMatchObject({ status: 401, body: REVOKED });
    expect((await root.as(res.body.token).get(`/projects/${t.project.id}`)).status).toBe(200);

    const listed = (await t.maint.api.get(base)).body as { id: number; active: boolean; revoked: boolean }[];
    expect(listed.map((x) => [x.id, x.revoked])).toEqual([
      [token.id, true],
      [res.body.id, false],
    ]);
    expect(((await t.maint.api.get(base, { query: { state: "active" } })).body as { id: number }[]).map((x) => x.id)).toEqual([res.body.id]);

    expect(await t.maint.api.post(`${base}/${token.id}/rotate`)).toMatchObject({ status: 400, body: { message: "400 Bad request - Token already revoked" } });
    // Without expires_at a rotated token lives a week (expiry is required by default).
    expect(await t.maint.api.post(`${base}/${res.body.id}/rotate`)).toMatchObject({ status: 200, body: { expires_at: day(7) } });

    // A Maintainer cannot rotate an Owner-level token.
    const ownerLevel = await mint(t.owner.api, "projects", t.project.id, { name: "owner-level", access_level: 50 });
    expect(await t.maint.api.post(`${base}/${ownerLevel.id}/rotate`)).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - Not eligible to rotate tokens with permissions not held by the user" },
    });
    expect((await t.owner.api.post(`${base}/${ownerLevel.id}/rotate`)).status).toBe(200);
  });

  test("a bot rotates its own token: /personal_access_tokens/self/rotate and …/access_tokens/self/rotate", async () => {
    const t = await team();
    const token = await mint(t.maint.api, "projects", t.project.id, { name: "self", scopes: ["self_rotate", "read_api"] });
    const first = await root.as(token.token).post("/personal_access_tokens/self/rotate", { json: { expires_at: day(20) } });
    expect(first).toMatchObject({ status: 200, body: { name: "self", user_id: token.user_id, scopes: ["self_rotate", "read_api"], expires_at: day(20) } });
    expect(first.body.token).toMatch(/^glpat-/);
    expect(await root.as(token.token).get(`/projects/${t.project.id}`)).toMatchObject({ status: 401, body: REVOKED });

    const second = await root.as(first.body.token).post(`/projects/${t.project.id}/access_tokens/self/rotate`);
    expect(second).toMatchObject({ status: 200, body: { name: "self", user_id: token.user_id, access_level: 40, resource_type: "project", expires_at: day(7) } });
    expect(await root.as(first.body.token).get(`/projects/${t.project.id}`)).toMatchObject({ status: 401, body: REVOKED });
    expect((await root.as(second.body.token).get(`/projects/${t.project.id}`)).status).toBe(200);

    // Only a bot's own project rotates it; humans are refused with 405.
    const other = await createProject(t.owner.api, { name: "other", namespace_id: t.group.id, visibility: "private" });
    const otherBot = await mint(t.owner.api, "projects", other.id, { scopes: ["api"] });
    expect(await root.as(otherBot.token).post(`/projects/${t.project.id}/access_tokens/self/rotate`)).toMatchObject({ status: 404 });
    expect(await t.maint.api.post(`/projects/${t.project.id}/access_tokens/self/rotate`)).toMatchObject({ status: 405, body: { message: "405 Method Not Allowed" } });
    // A read-only token without self_rotate may not rotate itself.
    const reader = await mint(t.maint.api, "projects", t.project.id, { scopes: ["read_api"] });
    expect(await root.as(reader.token).post("/personal_access_tokens/self/rotate")).toMatchObject({ status: 403, body: { error: "insufficient_scope", scope: "api self_rotate" } });
    // Humans rotate their own personal tokens too.
    const human = await t.dev.api.post("/personal_access_tokens/self/rotate");
    expect(human).toMatchObject({ status: 200, body: { user_id: t.dev.id, name: "e2e" } });
    expect(await t.dev.api.get("/user")).toMatchObject({ status: 401, body: REVOKED });
  });

  test("removing the project removes its bots and their tokens", async () => {
    const { owner, project } = await team();
    const kept = await createProject(owner.api, { name: "kept" });
    const doomed = await mint(owner.api, "projects", project.id);
    const survivor = await mint(owner.api, "projects", kept.id);
    expect((await root.as(doomed.token).get(`/projects/${project.id}`)).status).toBe(200);

    expect((await root.delete(`/projects/${project.id}`)).status).toBe(202);
    expect((await root.delete(`/projects/${project.id}`, { query: { permanently_remove: true, full_path: project.path_with_namespace } })).status).toBe(202);

    await eventually(async () => {
      expect((await root.get(`/users/${doomed.user_id}`)).status).toBe(404);
      expect(await root.as(doomed.token).get("/user")).toMatchObject({ status: 401, body: UNAUTHORIZED });
    });
    expect((await root.get(`/users/${survivor.user_id}`)).status).toBe(200);
    expect((await root.as(survivor.token).get(`/projects/${kept.id}`)).status).toBe(200);
  });
});

describe("group access tokens", () => {
  test("Owners only: a group_bot member of the group, reaching the group's projects through it", async () => {
    const t = await team();
    const base = `/groups/${t.group.id}/access_tokens`;
    const token = await mint(t.owner.api, "groups", t.group.id, { name: "group-ci", scopes: ["read_api"], access_level: 20 });
    expect(token).toMatchObject({ access_level: 20, resource_type: "group", resource_id: t.group.id });
    const bot = (await root.get(`/users/${token.user_id}`)).body;
    expect(bot.username).toMatch(new RegExp(`^group_${t.group.id}_bot_[0-9a-f]{32}$`));
    expect(await members("groups", t.group.id)).toContainEqual([bot.username, 20]);
    expect((await root.as(token.token).get(`/projects/${t.project.id}`)).status).toBe(200);

    expect(await t.maint.api.get(base)).toMatchObject({ status: 401, body: UNAUTHORIZED });
    expect(await t.maint.api.post(base, { json: { name: "x", scopes: ["api"] } })).toMatchObject({
      status: 400,
      body: { message: "400 Bad request - User does not have permission to create group access token" },
    });
    expect(await t.outsider.api.get(base)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await t.owner.api.get(`${base}/${token.id}`)).toMatchObject({ status: 200, body: { id: token.id, access_level: 20 } });
    expect(await t.owner.api.get(`${base}/99999`)).toMatchObject({ status: 404, body: { message: "404 group Access Token Not Found" } });
    // A project's token is not the group's.
    const projectToken = await mint(t.owner.api, "projects", t.project.id);
    expect(await t.owner.api.get(`${base}/${projectToken.id}`)).toMatchObject({ status: 404 });

    expect((await t.owner.api.delete(`${base}/${token.id}`)).status).toBe(204);
    expect(await root.as(token.token).get(`/projects/${t.project.id}`)).toMatchObject({ status: 401 });
  });

  test("removing the group removes its bots and those of its projects", async () => {
    const t = await team();
    const groupToken = await mint(t.owner.api, "groups", t.group.id);
    const projectToken = await mint(t.owner.api, "projects", t.project.id);
    expect((await root.delete(`/groups/${t.group.id}`)).status).toBe(202);
    expect((await root.delete(`/groups/${t.group.id}`, { query: { permanently_remove: true, full_path: t.group.full_path } })).status).toBe(202);
    await eventually(async () => {
      expect((await root.get(`/users/${groupToken.user_id}`)).status).toBe(404);
      expect((await root.get(`/users/${projectToken.user_id}`)).status).toBe(404);
    });
    expect(await root.as(groupToken.token).get("/user")).toMatchObject({ status: 401 });
  });
});

describe("@gitbeaker/rest", () => {
  test("ProjectAccessTokens and GroupAccessTokens: create, show, all, rotate, revoke", async () => {
    const t = await team();
    const gl = new Gitlab({ host: app.url, token: t.owner.token });
    const created = await gl.ProjectAccessTokens.create(t.project.id, "beaker", ["api", "read_repository"], day(60), { accessLevel: 30 });
    expect(created).toMatchObject({ name: "beaker", scopes: ["api", "read_repository"], expires_at: day(60), access_level: 30, active: true });
    expect(typeof created.token).toBe("string");
    expect(await gl.ProjectAccessTokens.show(t.project.id, created.id)).toMatchObject({ id: created.id, access_level: 30 });
    expect((await gl.ProjectAccessTokens.all(t.project.id)).map((x) => x.id)).toEqual([created.id]);

    const asBot = new Gitlab({ host: app.url, token: created.token });
    expect((await asBot.Projects.show(t.project.id)).id).toBe(t.project.id);

    const rotated = await gl.ProjectAccessTokens.rotate(t.project.id, created.id, { expiresAt: day(5) });
    expect(rotated).toMatchObject({ name: "beaker", expires_at: day(5) });
    await gl.ProjectAccessTokens.revoke(t.project.id, rotated.id);
    expect((await root.get(`/users/${created.user_id}`)).status).toBe(404);

    const groupToken = await gl.GroupAccessTokens.create(t.group.id, "group-beaker", ["read_api"], day(3), { accessLevel: 50 });
    expect(groupToken).toMatchObject({ access_level: 50, resource_type: "group" });
    expect((await gl.GroupAccessTokens.all(t.group.id)).map((x) => x.id)).toEqual([groupToken.id]);
  });
});
