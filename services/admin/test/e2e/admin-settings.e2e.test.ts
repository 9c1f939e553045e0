import { apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/** Application settings through the gateway: permissions, every field's validation, and the settings that act. */

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("admin-settings");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

async function userToken(username: string): Promise<{ id: number; api: ApiClient; token: string }> {
  const u = await root.post("/users", { json: { username, name: username, email: `${username}@example.com`, password: "s3cret-passw0rd" } });
  expect(u.status).toBe(201);
  const t = await root.post(`/users/${u.body.id}/personal_access_tokens`, { json: { name: "t", scopes: ["api"] } });
  return { id: u.body.id, api: apiClient(app.url, t.body.token), token: t.body.token };
}

describe("GET/PUT /application/settings", () => {
  it("answers administrators with GitLab's defaults, 403 to users and 401 to anonymous callers", async () => {
    const res = await root.get("/application/settings");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: 1,
      default_projects_limit: 100000,
      signup_enabled: true,
      default_project_visibility: "private",
      restricted_visibility_levels: [],
      default_branch_protection: 2,
      default_branch_protection_defaults: { allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }] },
      issues_create_limit: 0,
      notes_create_limit: 300,
      projects_api_rate_limit_unauthenticated: 400,
      max_import_size: 0,
      deletion_adjourned_period: 30,
      repository_storages_weighted: { default: 100 },
      asset_proxy_whitelist: [],
      asset_proxy_allowlist: [],
      signin_enabled: true,
      dsa_key_restriction: -1,
      secret_push_protection_available: false,
    });
    for (const removed of ["delayed_project_deletion", "delayed_group_deletion", "in_product_marketing_emails_enabled", "repository_storages", "user_email_lookup_limit"])
      expect(res.body).not.toHaveProperty(removed);
    const alice = await userToken("alice");
    expect(await alice.api.get("/application/settings")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await alice.api.put("/application/settings", { json: { signup_enabled: false } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await root.as(null).get("/application/settings")).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
  });

  it("needs at least one known parameter; removed fields are ignored", async () => {
    const none = await root.put("/application/settings", { json: { delayed_project_deletion: true } });
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/^default_projects_limit, signup_enabled, .* are missing, at least one parameter must be provided$/);
    const res = await root.put("/application/settings", { json: { delayed_group_deletion: true, user_email_lookup_limit: 5, signup_enabled: false } });
    expect(res.status).toBe(200);
    expect(res.body.signup_enabled).toBe(false);
    expect(res.body).not.toHaveProperty("delayed_group_deletion");
    expect(res.body).not.toHaveProperty("user_email_lookup_limit");
  });

  // [params, status, body] — Grape type/value errors are {"error"}, model validations {"message": {field: [...]}}.
  const cases: [Record<string, unknown>, number, unknown][] = [
    [{ default_projects_limit: "abc" }, 400, { error: "default_projects_limit is invalid" }],
    [{ default_projects_limit: -1 }, 400, { message: { default_projects_limit: ["must be greater than or equal to 0"] } }],
    [{ signup_enabled: "maybe" }, 400, { error: "signup_enabled is invalid" }],
    [{ default_project_visibility: "secret" }, 400, { error: "default_project_visibility does not have a valid value" }],
    [{ default_group_visibility: 10 }, 400, { error: "default_group_visibility does not have a valid value" }],
    [{ default_branch_protection: 7 }, 400, { error: "default_branch_protection does not have a valid value" }],
    [{ default_branch_protection_defaults: { allowed_to_push: [{ access_level: 99 }] } }, 400, { message: { default_branch_protection_defaults: ["must be a valid json schema"] } }],
    [{ rsa_key_restriction: 1000 }, 400, { error: "rsa_key_restriction does not have a valid value" }],
    [{ ed25519_key_restriction: 256 }, 200, { ed25519_key_restriction: 256 }],
    [{ restricted_visibility_levels: ["nope"] }, 400, { message: { restricted_visibility_levels: ["'nope' is not a valid visibility level"] } }],
    [{ restricted_visibility_levels: ["public", "10"] }, 200, { restricted_visibility_levels: ["public", "internal"] }],
    [{ home_page_url: "not a url" }, 400, { message: { home_page_url: ["must be a valid URL"] } }],
    [{ home_page_url: "https://example.com/home" }, 200, { home_page_url: "https://example.com/home" }],
    [{ first_day_of_week: 3 }, 400, { message: { first_day_of_week: ["is not included in the list"] } }],
    [{ default_preferred_language: "xx" }, 400, { message: { default_preferred_language: ["is not included in the list"] } }],
    [{ max_attachment_size: 0 }, 400, { message: { max_attachment_size: ["must be greater than 0"] } }],
    [{ wiki_page_max_content_bytes: 100 }, 400, { message: { wiki_page_max_content_bytes: ["must be greater than or equal to 1024"] } }],
    [{ max_import_size: 50 }, 200, { max_import_size: 50 }],
    [{ deletion_adjourned_period: 91 }, 400, { message: { deletion_adjourned_period: ["must be less than or equal to 90"] } }],
    [{ deletion_adjourned_period: 7 }, 200, { deletion_adjourned_period: 7 }],
    [{ globally_allowed_ips: "10.0.0.0/8, 300.1.1.1" }, 400, { message: { globally_allowed_ips: ["300.1.1.1 is an invalid IP address range"] } }],
    [{ globally_allowed_ips: "10.0.0.0/8,::1/128" }, 200, { globally_allowed_ips: "10.0.0.0/8,::1/128" }],
    [{ outbound_local_requests_whitelist: "example.com,10.0.0.0/33" }, 400, { message: { outbound_local_requests_whitelist: ["entries must be valid IP addresses, IP ranges or domain names"] } }],
    [{ outbound_local_requests_whitelist: ["example.com", "127.0.0.1"] }, 200, { outbound_local_requests_whitelist: ["example.com", "127.0.0.1"] }],
    [{ domain_denylist_enabled: true }, 400, { error: "domain_denylist is missing" }],
    [{ domain_denylist_enabled: true, domain_denylist: "spam.com" }, 200, { domain_denylist_enabled: true, domain_denylist: ["spam.com"] }],
    [{ asset_proxy_enabled: true }, 400, { message: { asset_proxy_url: ["can't be blank"] } }],
    [{ asset_proxy_whitelist: "cdn.example.com" }, 200, { asset_proxy_allowlist: ["collab.test", "cdn.example.com"], asset_proxy_whitelist: ["collab.test", "cdn.example.com"] }],
    [{ enforce_terms: true }, 400, { message: { terms: ["can't be blank"] } }],
    [{ external_authorization_service_timeout: 11 }, 400, { message: { external_authorization_service_timeout: ["must be greater than 0 and less than or equal to 10"] } }],
    [{ polling_interval_multiplier: "1.5" }, 200, { polling_interval_multiplier: 1.5 }],
    [{ personal_access_token_prefix: "bad prefix!" }, 400, { message: { personal_access_token_prefix: ["can contain only letters of the Base64 alphabet (RFC4648) with the addition of '@', ':' and '.'"] } }],
    [{ repository_storages_weighted: { default: 100, ssd: 101 } }, 400, { message: { repository_storages_weighted: ["ssd weight must be between 0 and 100"] } }],
    [{ repository_storages_weighted: { default: 50, ssd: 50 } }, 200, { repository_storages_weighted: { default: 50, ssd: 50 } }],
    [{ issues_create_limit: -5 }, 400, { message: { issues_create_limit: ["must be greater than or equal to 0"] } }],
    [{ rate_limiting_response_text: "Slow down" }, 200, { rate_limiting_response_text: "Slow down" }],
    [{ signin_enabled: false, password_authentication_enabled_for_web: false }, 400, { error: "password_authentication_enabled_for_web, signin_enabled are mutually exclusive" }],
    [{ signin_enabled: false }, 200, { password_authentication_enabled_for_web: false, signin_enabled: false }],
    [{ allow_local_requests_from_hooks_and_services: true }, 200, { allow_local_requests_from_web_hooks_and_services: true, allow_local_requests_from_hooks_and_services: true }],
    [{ default_branch_protection: 0 }, 200, { default_branch_protection: 0, default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allow_force_push: true, allowed_to_merge: [{ access_level: 30 }] } }],
    [{ default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allowed_to_merge: [{ access_level: 40 }], allow_force_push: false } }, 200, { default_branch_protection: 1 }],
    [{ security_approval_policies_limit: 2 }, 400, { message: { security_approval_policies_limit: ["must be greater than or equal to 5"] } }],
  ];
  it.each(cases)("PUT %j → %i", async (params, status, body) => {
    const res = await root.put("/application/settings", { json: params });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(body as object);
  });

  it("accepts form-encoded params and comma lists, and GET shows what PUT stored", async () => {
    const res = await root.put("/application/settings", { form: { default_projects_limit: "7", domain_allowlist: "a.com,b.com", signup_enabled: "no" } });
    expect(res.status).toBe(200);
    const got = await root.get("/application/settings");
    expect(got.body).toMatchObject({ default_projects_limit: 7, domain_allowlist: ["a.com", "b.com"], signup_enabled: false });
    expect(Date.parse(got.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(got.body.created_at));
  });
});

describe("settings that act in other services at once", () => {
  it("default_project_visibility and restricted_visibility_levels apply to the next POST /projects", async () => {
    const alice = await userToken("alice");
    expect((await root.put("/application/settings", { json: { default_project_visibility: "internal" } })).status).toBe(200);
    const p = await alice.api.post("/projects", { json: { name: "one" } });
    expect(p.status).toBe(201);
    expect(p.body.visibility).toBe("internal");

    expect((await root.put("/application/settings", { json: { restricted_visibility_levels: ["public"] } })).status).toBe(200);
    const refused = await alice.api.post("/projects", { json: { name: "two", visibility: "public" } });
    expect(refused).toMatchObject({ status: 400, body: { message: { visibility_level: ["public has been restricted by your GitLab administrator"] } } });
    // Administrators are not bound by the restriction.
    expect((await root.post("/projects", { json: { name: "three", visibility: "public" } })).status).toBe(201);
    const g = await alice.api.post("/groups", { json: { name: "g1", path: "g1", visibility: "public" } });
    expect(g.status).toBe(400);
  });

  it("restricted_visibility_levels also applies when a non-admin changes visibility with PUT /projects/:id and PUT /groups/:id", async () => {
    const alice = await userToken("alice");
    const project = (await alice.api.post("/projects", { json: { name: "one", visibility: "private" } })).body;
    const group = (await alice.api.post("/groups", { json: { name: "g1", path: "g1", visibility: "internal" } })).body;
    expect((await root.put("/application/settings", { json: { restricted_visibility_levels: ["public", "internal"] } })).status).toBe(200);

    const restricted = { status: 400, body: { message: { visibility_level: ["public has been restricted by your GitLab administrator"] } } };
    expect(await alice.api.put(`/projects/${project.id}`, { json: { visibility: "public" } })).toEqual(expect.objectContaining(restricted));
    expect(await alice.api.put(`/groups/${group.id}`, { json: { visibility: "public" } })).toEqual(expect.objectContaining(restricted));
    expect((await alice.api.put(`/projects/${project.id}`, { json: { visibility: "internal" } })).body).toEqual({
      message: { visibility_level: ["internal has been restricted by your GitLab administrator"] },
    });
    expect((await alice.api.get(`/projects/${project.id}`)).body.visibility).toBe("private");
    expect((await alice.api.get(`/groups/${group.id}`)).body.visibility).toBe("internal");

    // Keeping a level that is now restricted is no change; other levels stay allowed.
    const kept = await alice.api.put(`/groups/${group.id}`, { json: { visibility: "internal", description: "same level" } });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ visibility: "internal", description: "same level" });
    expect((await alice.api.put(`/groups/${group.id}`, { json: { visibility: "private" } })).body.visibility).toBe("private");
    expect((await alice.api.put(`/projects/${project.id}`, { json: { description: "still private" } })).status).toBe(200);

    // Administrators are not bound by the restriction.
    expect((await root.put(`/groups/${group.id}`, { json: { visibility: "public" } })).body.visibility).toBe("public");
    expect((await root.put(`/projects/${project.id}`, { json: { visibility: "public" } })).body.visibility).toBe("public");
  });

  it("default_projects_limit sets new users' projects_limit", async () => {
    await root.put("/application/settings", { json: { default_projects_limit: 3 } });
    const u = await root.post("/users", { json: { username: "bob", name: "Bob", email: "bob@example.com", password: "s3cret-passw0rd" } });
    expect(u.body.projects_limit).toBe(3);
  });
});

describe("rate limits", () => {
  it("issues_create_limit: the next issue in the minute answers 429", async () => {
    const alice = await userToken("alice");
    const project = await alice.api.post("/projects", { json: { name: "rl" } });
    await root.put("/application/settings", { json: { issues_create_limit: 2 } });
    expect((await alice.api.post(`/projects/${project.body.id}/issues`, { json: { title: "a" } })).status).toBe(201);
    expect((await alice.api.post(`/projects/${project.body.id}/issues`, { json: { title: "b" } })).status).toBe(201);
    const third = await alice.api.post(`/projects/${project.body.id}/issues`, { json: { title: "c" } });
    expect(third).toMatchObject({ status: 429, body: { message: { error: "This endpoint has been requested too many times. Try again later." } } });
    // Per project and user: root still creates issues there.
    expect((await root.post(`/projects/${project.body.id}/issues`, { json: { title: "d" } })).status).toBe(201);
  });

  it("notes_create_limit: per user per minute", async () => {
    const alice = await userToken("alice");
    const project = await alice.api.post("/projects", { json: { name: "rl" } });
    const issue = await alice.api.post(`/projects/${project.body.id}/issues`, { json: { title: "a" } });
    await root.put("/application/settings", { json: { notes_create_limit: 1 } });
    const notes = `/projects/${project.body.id}/issues/${issue.body.iid}/notes`;
    expect((await alice.api.post(notes, { json: { body: "one" } })).status).toBe(201);
    const second = await alice.api.post(`/projects/${project.body.id}/issues/${issue.body.iid}/discussions`, { json: { body: "two" } });
    expect(second).toMatchObject({ status: 429, body: { message: { error: "This endpoint has been requested too many times. Try again later." } } });
  });

  it("projects_api_rate_limit_unauthenticated: plain text, Retry-After and RateLimit headers", async () => {
    await root.put("/application/settings", { json: { projects_api_rate_limit_unauthenticated: 2, rate_limiting_response_text: "Too fast" } });
    const anon = root.as(null);
    const first = await anon.get("/projects");
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-limit")).toBe("2");
    expect(first.headers.get("ratelimit-remaining")).toBe("1");
    await anon.get("/projects");
    const third = await anon.get("/projects");
    expect(third.status).toBe(429);
    expect(third.text).toBe("Too fast\n");
    expect(third.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(0);
    expect(third.headers.get("ratelimit-name")).toBe("throttle_unauthenticated_projects_api");
    expect(third.headers.get("ratelimit-observed")).toBe("3");
    expect(third.headers.get("ratelimit-resettime")).toMatch(/GMT$/);
    // Authenticated callers are not throttled by it.
    expect((await root.get("/projects")).status).toBe(200);
  });

  it("a forged X-Forwarded-For from a peer that is no trusted proxy does not escape the anonymous limit", async () => {
    await root.put("/application/settings", { json: { projects_api_rate_limit_unauthenticated: 2 } });
    const anon = root.as(null);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await anon.get("/projects", { headers: { "X-Forwarded-For": `203.0.113.${i + 1}` } })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});
