import { addMember, apiClient, createGroup, createUser, createUserAccount, eventually, type ApiClient, type TestApp, type TestUser } from "@collab/testing";
import { sql } from "drizzle-orm";
import { startApp } from "@collab/standalone/test/app";

process.env.DELETION_PURGE_INTERVAL_MS ??= "0";

/**
 * Group SAML SSO and SCIM: the settings and SCIM token of a top-level group (Owners), the SCIM 2.0
 * API at /api/scim/v2/groups/:group_path/Users authenticated by that token (provisioning creates or
 * links users and makes them members; deprovisioning takes the membership away), the SCIM
 * identities API under /api/v4, and members' group_saml_identity, shown to the group's Owners.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("scim");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const SCIM_TYPE = "application/scim+json";
const FINGERPRINT = "a1:b2:c3:d4:e5:f6:07:18:29:3a:4b:5c:6d:7e:8f:90:a1:b2:c3:d4";
const SAML = { enabled: true, sso_url: "https://idp.example.com/sso/saml", certificate_fingerprint: FINGERPRINT };
const scimError = (status: number, detail: string | RegExp) => ({
  status,
  body: { schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], detail: typeof detail === "string" ? detail : expect.stringMatching(detail), status },
});

interface ScimGroup {
  owner: TestUser;
  group: { id: number; full_path: string; name: string };
  token: string;
}

/** A top-level group of its own Owner, with SAML SSO enabled and a SCIM token. */
async function ssoGroup(path = "acme", saml: Record<string, unknown> = {}): Promise<ScimGroup> {
  const owner = await createUser(app, `${path}-owner`);
  const group = await createGroup(owner.api, path === "acme" ? "Acme" : path, path);
  expect((await owner.api.put(`/groups/${group.id}/saml`, { json: { ...SAML, ...saml } })).status).toBe(200);
  const res = await owner.api.post(`/groups/${group.id}/scim/token`);
  expect(res.status).toBe(201);
  return { owner, group: { id: group.id, full_path: group.full_path, name: group.name }, token: res.body.scim_token };
}

/** A request to the SCIM API of `groupPath`, as a SCIM client sends it. */
async function scim(method: string, groupPath: string, path: string, opts: { token?: string | null; json?: unknown; query?: Record<string, string> } = {}) {
  const url = new URL(`/api/scim/v2/groups/${groupPath}/Users${path}`, app.url);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { Accept: SCIM_TYPE };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers["Content-Type"] = SCIM_TYPE;
    body = JSON.stringify(opts.json);
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

/** An Okta-style SCIM user. */
const scimUser = (externalId: string, userName: string, email: string, extra: Record<string, unknown> = {}) => ({
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
  externalId,
  userName,
  active: true,
  name: { givenName: "Jane", familyName: "Doe" },
  emails: [{ primary: true, type: "work", value: email }],
  ...extra,
});

const replace = (path: string, value: unknown) => ({ schemas: ["urn:ietf:params:scim:api:messages:2.0:PatchOp"], Operations: [{ op: "Replace", path, value }] });

const memberStatus = async (groupId: number, userId: number) => (await root.get(`/groups/${groupId}/members/${userId}`)).status;

describe("SAML SSO settings and the SCIM token", () => {
  test("Owners read and change the settings; SamlProvider's validations; others 403/404/401", async () => {
    const owner = await createUser(app, "owner");
    const group = await createGroup(owner.api, "Acme", "acme");
    expect((await owner.api.get(`/groups/${group.id}/saml`)).body).toEqual({
      id: null,
      group_id: group.id,
      enabled: false,
      sso_url: null,
      certificate_fingerprint: null,
      enforced_sso: false,
      default_membership_role: 10,
      scim_enabled: false,
      scim_api_url: expect.stringMatching(/\/api\/scim\/v2\/groups\/acme$/),
    });

    expect(await owner.api.put(`/groups/${group.id}/saml`, { json: { enabled: true } })).toMatchObject({
      status: 400,
      body: { message: { sso_url: ["can't be blank"], certificate_fingerprint: ["can't be blank"] } },
    });
    expect(await owner.api.put(`/groups/${group.id}/saml`, { json: { ...SAML, sso_url: "http://idp.example.com", certificate_fingerprint: "abc", default_membership_role: 60 } })).toMatchObject({
      status: 400,
      body: {
        message: {
          sso_url: ["is blocked: Only allowed schemes are https"],
          certificate_fingerprint: ["must be 40 or 64 hex characters (with optional colons between pairs)"],
          default_membership_role: ["is not included in the list"],
        },
      },
    });
    expect(await owner.api.put(`/groups/${group.id}/saml`, { json: {} })).toMatchObject({
      status: 400,
      body: { error: "enabled, sso_url, certificate_fingerprint, enforced_sso, default_membership_role are missing, at least one parameter must be provided" },
    });
    expect((await owner.api.get(`/groups/${group.id}/saml`)).body.id).toBeNull();

    const saved = await owner.api.put(`/groups/${group.id}/saml`, { json: { ...SAML, default_membership_role: 30 } });
    expect(saved).toMatchObject({ status: 200, body: { id: expect.any(Number), enabled: true, sso_url: SAML.sso_url, certificate_fingerprint: FINGERPRINT, default_membership_role: 30 } });
    // A partial change keeps the rest.
    expect((await owner.api.put(`/groups/${group.id}/saml`, { form: { enforced_sso: "true" } })).body).toMatchObject({ id: saved.body.id, enabled: true, enforced_sso: true, default_membership_role: 30 });

    const dev = await createUser(app, "dev");
    await addMember(app, "groups", group.id, dev.id, 30);
    expect(await dev.api.get(`/groups/${group.id}/saml`)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await dev.api.put(`/groups/${group.id}/saml`, { json: { enabled: false } })).status).toBe(403);
    expect((await dev.api.post(`/groups/${group.id}/scim/token`)).status).toBe(403);
    const outsider = await createUser(app, "outsider");
    expect(await outsider.api.get(`/groups/${group.id}/saml`)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await apiClient(app.url).get(`/groups/${group.id}/saml`)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await root.get(`/groups/${group.id}/saml`)).status).toBe(200);

    // Top-level groups only.
    const sub = await createGroup(owner.api, "Sub", "sub", { parent_id: group.id });
    expect(await owner.api.put(`/groups/${sub.id}/saml`, { json: SAML })).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    expect((await owner.api.post(`/groups/${sub.id}/scim/token`)).status).toBe(404);
  });

  test("the token is answered once; a new one replaces it", async () => {
    const { owner, group, token } = await ssoGroup();
    expect(token).toMatch(/^glsoat-[A-Za-z0-9]{20}$/);
    expect((await owner.api.get(`/groups/${group.id}/saml`)).body).toMatchObject({ scim_enabled: true });
    expect((await scim("GET", "acme", "", { token })).status).toBe(200);

    const second = await owner.api.post(`/groups/${group.id}/scim/token`);
    expect(second).toMatchObject({ status: 201, body: { scim_api_url: expect.stringMatching(/\/api\/scim\/v2\/groups\/acme$/), scim_token: expect.stringMatching(/^glsoat-/) } });
    expect(second.body.scim_token).not.toBe(token);
    expect(await scim("GET", "acme", "", { token })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await scim("GET", "acme", "", { token: second.body.scim_token })).status).toBe(200);
  });
});

describe("SCIM API: provisioning", () => {
  test("create → list with filters → get → patch externalId and userName → patch active false and back → delete", async () => {
    const { group, token } = await ssoGroup();
    const created = await scim("POST", "acme", "", { token, json: scimUser("okta-1", "jane.doe@corp.example", "jane.doe@corp.example") });
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toBe(SCIM_TYPE);
    expect(created.body).toEqual({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
      id: "okta-1",
      active: true,
      emails: [{ type: "work", value: "jane.doe@corp.example", primary: true }],
      name: { formatted: "Jane Doe", givenName: "Jane", familyName: "Doe" },
      meta: { resourceType: "User" },
      userName: "jane.doe",
    });
    // A new, confirmed user provisioned by the group, a Guest of it (the default membership role).
    const [jane] = (await root.get("/users", { query: { username: "jane.doe" } })).body;
    expect(jane).toMatchObject({ name: "Jane Doe", email: "jane.doe@corp.example", provisioned_by_group_id: group.id, state: "active" });
    expect((await root.get(`/groups/${group.id}/members/${jane.id}`)).body).toMatchObject({ access_level: 10 });

    // Provisioning the same identity again changes nothing.
    expect(await scim("POST", "acme", "", { token, json: scimUser("okta-1", "jane.doe@corp.example", "jane.doe@corp.example") })).toMatchObject({ status: 201, body: { id: "okta-1" } });
    expect((await root.get("/users", { query: { search: "jane" } })).body).toHaveLength(1);

    await scim("POST", "acme", "", { token, json: scimUser("okta-2", "rich", "rich@corp.example", { name: { formatted: "Rich Roe" } }) });
    await scim("POST", "acme", "", { token, json: scimUser("okta-3", "sam", "sam@corp.example") });

    const all = await scim("GET", "acme", "", { token });
    expect(all.headers.get("content-type")).toBe(SCIM_TYPE);
    expect(all.body).toMatchObject({ schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"], totalResults: 3, itemsPerPage: 20, startIndex: 1 });
    expect(all.body.Resources.map((r: { id: string }) => r.id)).toEqual(["okta-1", "okta-2", "okta-3"]);
    const paged = await scim("GET", "acme", "", { token, query: { startIndex: "2", count: "1" } });
    expect(paged.body).toMatchObject({ totalResults: 3, itemsPerPage: 1, startIndex: 2, Resources: [{ id: "okta-2" }] });

    const byName = await scim("GET", "acme", "", { token, query: { filter: 'userName eq "rich"' } });
    expect(byName.body).toMatchObject({ totalResults: 1, Resources: [{ id: "okta-2", userName: "rich", name: { formatted: "Rich Roe" } }] });
    // userName also finds a user by e-mail address, and an identity by its extern_uid.
    expect((await scim("GET", "acme", "", { token, query: { filter: 'userName eq "sam@corp.example"' } })).body).toMatchObject({ totalResults: 1, Resources: [{ id: "okta-3" }] });
    expect((await scim("GET", "acme", "", { token, query: { filter: 'userName eq "okta-1"' } })).body).toMatchObject({ totalResults: 1, Resources: [{ id: "okta-1" }] });
    expect((await scim("GET", "acme", "", { token, query: { filter: 'externalId eq "OKTA-3"' } })).body).toMatchObject({ totalResults: 1, Resources: [{ id: "okta-3" }] });
    expect((await scim("GET", "acme", "", { token, query: { filter: 'id eq "okta-2"' } })).body.totalResults).toBe(1);
    expect((await scim("GET", "acme", "", { token, query: { filter: 'userName eq "nobody"' } })).body).toMatchObject({ totalResults: 0, Resources: [] });

    expect(await scim("GET", "acme", "/okta-1", { token })).toMatchObject({ status: 200, body: { id: "okta-1", userName: "jane.doe", active: true } });
    expect(await scim("GET", "acme", "/nope", { token })).toMatchObject(scimError(404, "Resource nope not found"));

    // externalId changes the identity's id; userName is accepted and ignored (GitLab ≥ 15.0).
    const moved = await scim("PATCH", "acme", "/okta-1", { token, json: replace("externalId", "okta-1b") });
    expect(moved).toMatchObject({ status: 204, text: "" });
    expect((await scim("GET", "acme", "/okta-1", { token })).status).toBe(404);
    expect((await scim("PATCH", "acme", "/okta-1b", { token, json: { Operations: [{ op: "replace", value: { userName: "janey" } }] } })).status).toBe(204);
    expect((await scim("GET", "acme", "/okta-1b", { token })).body).toMatchObject({ id: "okta-1b", userName: "jane.doe" });
    // Another identity's extern_uid is refused.
    expect(await scim("PATCH", "acme", "/okta-1b", { token, json: replace("externalId", "okta-2") })).toMatchObject(scimError(412, /^Error updating Jane Doe with /));

    // active false deprovisions: the membership goes, the identity stays, inactive.
    expect((await scim("PATCH", "acme", "/okta-1b", { token, json: replace("active", "False") })).status).toBe(204);
    expect(await memberStatus(group.id, jane.id)).toBe(404);
    expect((await scim("GET", "acme", "/okta-1b", { token })).body).toMatchObject({ active: false });
    expect((await root.get(`/users/${jane.id}`)).body.state).toBe("active");
    // Any other change reprovisions.
    expect((await scim("PATCH", "acme", "/okta-1b", { token, json: replace("active", true) })).status).toBe(204);
    expect((await root.get(`/groups/${group.id}/members/${jane.id}`)).body).toMatchObject({ access_level: 10 });
    expect((await scim("GET", "acme", "/okta-1b", { token })).body.active).toBe(true);

    // DELETE deprovisions too.
    expect(await scim("DELETE", "acme", "/okta-1b", { token })).toMatchObject({ status: 204, text: "" });
    expect(await memberStatus(group.id, jane.id)).toBe(404);
    expect((await scim("GET", "acme", "/okta-1b", { token })).body.active).toBe(false);
    expect((await scim("DELETE", "acme", "/nope", { token })).status).toBe(404);
  });

  test("PUT replaces the resource: active and externalId act, the rest is ignored", async () => {
    const { group, token } = await ssoGroup();
    await scim("POST", "acme", "", { token, json: scimUser("u-1", "pat", "pat@corp.example") });
    const [pat] = (await root.get("/users", { query: { username: "pat" } })).body;
    const put = await scim("PUT", "acme", "/u-1", { token, json: scimUser("u-1x", "patricia", "pat@corp.example", { active: false }) });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: "u-1", active: false, userName: "pat" });
    expect(await memberStatus(group.id, pat.id)).toBe(404);
    const back = await scim("PUT", "acme", "/u-1", { token, json: scimUser("u-1x", "pat", "pat@corp.example") });
    expect(back).toMatchObject({ status: 200, body: { id: "u-1", active: true } });
    expect(await memberStatus(group.id, pat.id)).toBe(200);
    expect(await scim("PUT", "acme", "/u-1", { token, json: scimUser("u-1x", "pat", "pat@corp.example") })).toMatchObject({ status: 200, body: { id: "u-1x", active: true } });
  });

  test("an existing user is linked by e-mail address, keeps a membership they have, and gets the configured role otherwise", async () => {
    const { owner, group, token } = await ssoGroup("acme", { default_membership_role: 30 });
    const bob = await createUserAccount(app, "bob", { email: "Bob@Example.com" });
    const created = await scim("POST", "acme", "", { token, json: scimUser("b-1", "robert", "bob@example.com") });
    expect(created).toMatchObject({ status: 201, body: { id: "b-1", userName: "bob", emails: [{ value: "Bob@Example.com" }] } });
    expect((await root.get(`/groups/${group.id}/members/${bob.id}`)).body).toMatchObject({ access_level: 30 });

    // The Owner keeps Owner; their identity is linked.
    expect((await scim("POST", "acme", "", { token, json: scimUser("o-1", "boss", owner.username + "@example.com") })).status).toBe(201);
    expect((await root.get(`/groups/${group.id}/members/${owner.id}`)).body).toMatchObject({ access_level: 50 });
    // A group keeps its last Owner.
    expect(await scim("DELETE", "acme", "/o-1", { token })).toMatchObject(scimError(412, "Could not remove acme-owner from Acme. Cannot remove last group owner."));
    expect(await scim("PATCH", "acme", "/o-1", { token, json: replace("active", false) })).toMatchObject(scimError(412, /^Error updating acme-owner with /));
    expect((await root.get(`/groups/${group.id}/members/${owner.id}`)).body).toMatchObject({ access_level: 50 });

    // A username taken by another user (or a group path) gets a counter.
    await createGroup(owner.api, "Carol Group", "carol");
    expect((await scim("POST", "acme", "", { token, json: scimUser("c-1", "carol@corp.example", "carol@corp.example") })).body.userName).toBe("carol1");
    await createUserAccount(app, "dave");
    expect((await scim("POST", "acme", "", { token, json: scimUser("d-1", "dave", "dave@corp.example") })).body.userName).toBe("dave1");
  });

  test("deprovisioning takes the memberships of the group's subgroups and projects too", async () => {
    const { owner, group, token } = await ssoGroup();
    await scim("POST", "acme", "", { token, json: scimUser("e-1", "erin", "erin@corp.example") });
    const [erin] = (await root.get("/users", { query: { username: "erin" } })).body;
    const sub = await createGroup(owner.api, "Team", "team", { parent_id: group.id });
    const project = (await owner.api.post("/projects", { json: { name: "app", namespace_id: sub.id } })).body;
    await addMember(app, "groups", sub.id, erin.id, 30);
    await addMember(app, "projects", project.id, erin.id, 40);
    expect((await scim("DELETE", "acme", "/e-1", { token })).status).toBe(204);
    expect(await memberStatus(group.id, erin.id)).toBe(404);
    expect(await memberStatus(sub.id, erin.id)).toBe(404);
    expect((await root.get(`/projects/${project.id}/members/${erin.id}`)).status).toBe(404);
  });
});

describe("SCIM API: authentication and errors", () => {
  test("401 without the group's token, after the group and SAML checks; SCIM error bodies", async () => {
    const { token } = await ssoGroup();
    const other = await ssoGroup("other");
    expect(await scim("GET", "acme", "", {})).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    const wrong = await scim("GET", "acme", "", { token: "glsoat-not-a-real-token-000" });
    expect(wrong).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(wrong.headers.get("content-type")).toBe(SCIM_TYPE);
    expect((await scim("GET", "acme", "", { token: other.token })).status).toBe(401);
    expect((await scim("POST", "acme", "", { token: other.token, json: scimUser("x", "x", "x@corp.example") })).status).toBe(401);
    expect((await scim("GET", "acme", "/anything", { token: app.rootToken })).status).toBe(401);
    expect((await root.get("/users", { query: { username: "x" } })).body).toEqual([]);

    expect(await scim("GET", "nowhere", "", { token })).toMatchObject(scimError(404, "Group nowhere not found"));
    const plain = await createUser(app, "plain-owner");
    await createGroup(plain.api, "Plain", "plain");
    expect(await scim("GET", "plain", "", { token })).toMatchObject(scimError(404, "Group plain does not have SAML SSO configured"));
    // SAML SSO turned off: the SCIM API is gone for the group, whatever the token.
    expect((await other.owner.api.put(`/groups/${other.group.id}/saml`, { json: { enabled: false } })).status).toBe(200);
    expect(await scim("GET", "other", "", { token: other.token })).toMatchObject(scimError(404, "Group other does not have SAML SSO configured"));
  });

  test("missing attributes, unsupported filters, conflicts", async () => {
    const { token } = await ssoGroup();
    const missing = await scim("POST", "acme", "", { token, json: { schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"], userName: "nomail" } });
    expect(missing).toMatchObject(scimError(412, /^Error saving user with .*: Missing params: \[:extern_uid, :email\]$/));
    expect(missing.headers.get("content-type")).toBe(SCIM_TYPE);
    expect(await scim("GET", "acme", "", { token, query: { filter: 'displayName eq "Jane"' } })).toMatchObject(scimError(412, "Unsupported Filter"));
    expect(await scim("GET", "acme", "", { token, query: { filter: 'userName co "ja"' } })).toMatchObject(scimError(412, "Unsupported Filter"));

    expect((await scim("POST", "acme", "", { token, json: scimUser("k-1", "kim", "kim@corp.example") })).status).toBe(201);
    // The same user under another extern_uid of the group.
    expect(await scim("POST", "acme", "", { token, json: scimUser("k-2", "kim", "kim@corp.example") })).toMatchObject(
      scimError(409, /^Error saving user with .*: User has already been taken$/),
    );
    // A name the user model refuses.
    expect(await scim("POST", "acme", "", { token, json: scimUser("n-1", "nameless", "nameless@corp.example", { name: { formatted: "" } }) })).toMatchObject(
      scimError(412, /: Name can't be blank$/),
    );
    // A body the route's schema refuses: Grape's 400.
    expect(await scim("POST", "acme", "", { token, json: { externalId: "z", emails: "z@corp.example" } })).toMatchObject({ status: 400, body: { error: "emails is invalid" } });
  });
});

describe("SCIM identities API (/groups/:id/scim)", () => {
  test("list, get, patch extern_uid, delete; Owners only", async () => {
    const { owner, group, token } = await ssoGroup();
    await scim("POST", "acme", "", { token, json: scimUser("okta-1", "jane", "jane@corp.example") });
    await scim("POST", "acme", "", { token, json: scimUser("okta-2", "rich", "rich@corp.example") });
    const [jane] = (await root.get("/users", { query: { username: "jane" } })).body;
    const [rich] = (await root.get("/users", { query: { username: "rich" } })).body;
    await scim("PATCH", "acme", "/okta-2", { token, json: replace("active", false) });

    expect(await owner.api.get(`/groups/${group.id}/scim/identities`)).toMatchObject({
      status: 200,
      body: [
        { extern_uid: "okta-1", user_id: jane.id, active: true },
        { extern_uid: "okta-2", user_id: rich.id, active: false },
      ],
    });
    expect((await owner.api.get(`/groups/acme/scim/identities`)).body).toHaveLength(2);
    expect(await owner.api.get(`/groups/${group.id}/scim/OKTA-1`)).toMatchObject({ status: 200, body: { extern_uid: "okta-1", user_id: jane.id, active: true } });
    expect(await owner.api.get(`/groups/${group.id}/scim/nope`)).toMatchObject({ status: 404, body: { message: "404 Identity Not Found" } });

    expect(await owner.api.patch(`/groups/${group.id}/scim/okta-1`, { json: { extern_uid: "okta-1-new" } })).toMatchObject({
      status: 200,
      body: { extern_uid: "okta-1-new", user_id: jane.id, active: true },
    });
    expect((await scim("GET", "acme", "/okta-1-new", { token })).status).toBe(200);
    expect(await owner.api.patch(`/groups/${group.id}/scim/okta-1-new`, { json: { extern_uid: "okta-2" } })).toMatchObject({
      status: 400,
      body: { message: "Extern uid has already been taken" },
    });
    expect(await owner.api.patch(`/groups/${group.id}/scim/okta-1-new`, { json: {} })).toMatchObject({ status: 400, body: { error: "extern_uid is missing" } });
    expect(await owner.api.patch(`/groups/${group.id}/scim/okta-1-new`, { json: { extern_uid: "x".repeat(256) } })).toMatchObject({
      status: 400,
      body: { message: "Extern uid is too long (maximum is 255 characters)" },
    });
    expect((await owner.api.patch(`/groups/${group.id}/scim/nope`, { json: { extern_uid: "x" } })).status).toBe(404);

    // Non-owners: members 403, outsiders of the private group 404, anonymous 401.
    const dev = await createUser(app, "dev");
    await addMember(app, "groups", group.id, dev.id, 40);
    expect(await dev.api.get(`/groups/${group.id}/scim/identities`)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await dev.api.get(`/groups/${group.id}/scim/okta-1-new`)).status).toBe(403);
    expect((await dev.api.patch(`/groups/${group.id}/scim/okta-1-new`, { json: { extern_uid: "x" } })).status).toBe(403);
    expect((await dev.api.delete(`/groups/${group.id}/scim/okta-1-new`)).status).toBe(403);
    const outsider = await createUser(app, "outsider");
    expect(await outsider.api.get(`/groups/${group.id}/scim/identities`)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    const anonymous = apiClient(app.url);
    expect(await anonymous.get(`/groups/${group.id}/scim/identities`)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await anonymous.delete(`/groups/${group.id}/scim/okta-1-new`)).status).toBe(401);
    expect((await root.get(`/groups/${group.id}/scim/identities`)).status).toBe(200);

    // DELETE removes the identity only: the membership stays.
    expect(await owner.api.delete(`/groups/${group.id}/scim/okta-1-new`)).toMatchObject({ status: 204, text: "" });
    expect((await owner.api.get(`/groups/${group.id}/scim/okta-1-new`)).status).toBe(404);
    expect((await owner.api.delete(`/groups/${group.id}/scim/okta-1-new`)).status).toBe(404);
    expect(await memberStatus(group.id, jane.id)).toBe(200);
    expect((await scim("GET", "acme", "/okta-1-new", { token })).status).toBe(404);
  });

  test("Group SSO and SCIM must be enabled: 400 otherwise", async () => {
    const owner = await createUser(app, "owner");
    const group = await createGroup(owner.api, "Acme", "acme");
    const bad = { status: 400, body: { message: "400 Bad request" } };
    expect(await owner.api.get(`/groups/${group.id}/scim/identities`)).toMatchObject(bad);
    expect(await owner.api.get(`/groups/${group.id}/scim/uid`)).toMatchObject(bad);
    // SSO without a SCIM token, then a token with SSO turned off.
    await owner.api.put(`/groups/${group.id}/saml`, { json: SAML });
    expect(await owner.api.get(`/groups/${group.id}/scim/identities`)).toMatchObject(bad);
    await owner.api.post(`/groups/${group.id}/scim/token`);
    expect(await owner.api.get(`/groups/${group.id}/scim/identities`)).toMatchObject({ status: 200, body: [] });
    await owner.api.put(`/groups/${group.id}/saml`, { json: { enabled: false } });
    expect(await owner.api.patch(`/groups/${group.id}/scim/uid`, { json: { extern_uid: "x" } })).toMatchObject(bad);
    expect(await owner.api.delete(`/groups/${group.id}/scim/uid`)).toMatchObject(bad);
  });
});

describe("group_saml_identity on members", () => {
  test("shown to the group's Owners while SAML SSO is enabled, null for everybody else", async () => {
    const { owner, group, token } = await ssoGroup();
    await scim("POST", "acme", "", { token, json: scimUser("okta-9", "gina", "gina@corp.example") });
    const [gina] = (await root.get("/users", { query: { username: "gina" } })).body;
    const providerId = (await owner.api.get(`/groups/${group.id}/saml`)).body.id;
    const identity = { extern_uid: "okta-9", provider: "group_saml", saml_provider_id: providerId };

    const byOwner = (await owner.api.get(`/groups/${group.id}/members`)).body as { id: number; group_saml_identity: unknown }[];
    expect(byOwner.find((m) => m.id === gina.id)?.group_saml_identity).toEqual(identity);
    expect(byOwner.find((m) => m.id === owner.id)?.group_saml_identity).toBeNull();
    expect((await owner.api.get(`/groups/${group.id}/members/${gina.id}`)).body.group_saml_identity).toEqual(identity);
    expect((await owner.api.get(`/groups/${group.id}/members/all/${gina.id}`)).body.group_saml_identity).toEqual(identity);
    expect((await root.get(`/groups/${group.id}/members/${gina.id}`)).body.group_saml_identity).toEqual(identity);

    // A Maintainer is not an Owner.
    const maintainer = await createUser(app, "maint");
    await addMember(app, "groups", group.id, maintainer.id, 40);
    expect((await maintainer.api.get(`/groups/${group.id}/members/${gina.id}`)).body.group_saml_identity).toBeNull();
    // Inherited into a project: the membership's source is the group, so its Owner sees it there too.
    const project = (await owner.api.post("/projects", { json: { name: "app", namespace_id: group.id } })).body;
    expect((await owner.api.get(`/projects/${project.id}/members/all/${gina.id}`)).body.group_saml_identity).toEqual(identity);
    expect((await maintainer.api.get(`/projects/${project.id}/members/all/${gina.id}`)).body.group_saml_identity).toBeNull();

    // SSO off: nobody sees it.
    await owner.api.put(`/groups/${group.id}/saml`, { json: { enabled: false } });
    expect((await owner.api.get(`/groups/${group.id}/members/${gina.id}`)).body.group_saml_identity).toBeNull();
  });
});

test("a group removed for good takes its SAML settings, SCIM token and identities", async () => {
  const { owner, group, token } = await ssoGroup();
  await scim("POST", "acme", "", { token, json: scimUser("okta-1", "hal", "hal@corp.example") });
  const count = async (table: string) => {
    const res = await app.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM accounts.${table} WHERE group_id = ${group.id}`));
    return (res as unknown as { rows: { n: number }[] }).rows[0].n;
  };
  expect([await count("group_scim_identities"), await count("group_scim_tokens"), await count("group_saml_providers")]).toEqual([1, 1, 1]);

  expect((await owner.api.delete(`/groups/${group.id}`)).status).toBe(202);
  expect((await owner.api.delete(`/groups/${group.id}`, { query: { permanently_remove: true, full_path: group.full_path } })).status).toBe(202);
  await eventually(async () => {
    expect([await count("group_scim_identities"), await count("group_scim_tokens"), await count("group_saml_providers")]).toEqual([0, 0, 0]);
  });
  expect(await scim("GET", "acme", "", { token })).toMatchObject(scimError(404, "Group acme not found"));
  // The provisioned user stays, as in GitLab.
  expect((await root.get("/users", { query: { username: "hal" } })).body).toHaveLength(1);
});
