import { Gitlab } from "@gitbeaker/rest";
import { apiClient, createPersonalAccessToken, createUserAccount, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Self sign-up: GitLab's registration form posts to POST /users outside /api/v4, and the sign-up
 * settings (signup_enabled, admin approval, password length, domain rules, profile default) act on
 * it at once. Pending users are refused at authentication until an administrator approves them.
 */

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("signup");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const PASSWORD = "s3cret-passw0rd";
const NOT_ALLOWED = "is not allowed for sign-up. Please use your regular email address. Check with your administrator.";
const PENDING = { status: 403, body: { message: "403 Forbidden - Your account is pending approval from your administrator and hence blocked." } };

/** A request to the server root (the sign-up form is outside /api/v4). */
async function raw(path: string, init: RequestInit = {}) {
  const res = await fetch(app.url + path, init);
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* plain text */
  }
  return { status: res.status, headers: res.headers, text, body };
}

/** POST /users with {"user": {...}} as JSON. */
const signUp = (user: Record<string, unknown>, headers: Record<string, string> = {}) =>
  raw("/users", { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify({ user }) });

/** POST /users as the web form sends it: user[name]=…&user[username]=… */
const signUpForm = (user: Record<string, string>) =>
  raw("/users", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(Object.entries(user).map(([k, v]) => [`user[${k}]`, v])).toString(),
  });

const alice = (extra: Record<string, unknown> = {}) => ({ name: "Alice Liddell", username: "alice", email: "alice@example.com", password: PASSWORD, ...extra });

const settings = async (json: Record<string, unknown>) => expect((await root.put("/application/settings", { json })).status).toBe(200);

/** The user by username as administrators see it, or undefined. */
const lookup = async (username: string) => (await root.get("/users", { query: { username } })).body[0];

describe("POST /users (sign-up)", () => {
  test("signup_enabled false: 403, nothing created; turning it back on acts at once", async () => {
    await settings({ signup_enabled: false });
    expect(await signUp(alice())).toMatchObject({ status: 403, body: { message: "Sign-up is disabled" } });
    expect(await signUpForm({ name: "Alice", username: "alice", email: "alice@example.com", password: PASSWORD })).toMatchObject({ status: 403 });
    expect(await lookup("alice")).toBeUndefined();

    await settings({ signup_enabled: true });
    expect((await signUp(alice())).status).toBe(201);
    expect(await lookup("alice")).toMatchObject({ username: "alice" });
  });

  test("by default a new user awaits approval: pending state, tokens refused until an administrator approves", async () => {
    const res = await signUp(alice());
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      username: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      state: "blocked_pending_approval",
      projects_limit: 100000,
      private_profile: false,
      web_url: "http://collab.test/alice",
    });
    // The GET /user view: no admin fields, and no token.
    expect(res.body).not.toHaveProperty("is_admin");
    expect(res.body).not.toHaveProperty("token");
    expect(res.body).not.toHaveProperty("password");
    const id = res.body.id as number;
    expect((await root.get(`/users/${id}`)).body).toMatchObject({ state: "blocked_pending_approval", is_admin: false, using_license_seat: false });

    // Administrators may mint a token for the pending user, but it does not authenticate yet.
    const { token } = await createPersonalAccessToken(app, id);
    const asAlice = apiClient(app.url, token);
    expect(await asAlice.get("/user")).toMatchObject(PENDING);

    // Only administrators approve; then the same token works at once.
    const bob = await createUserAccount(app, "bob");
    const asBob = apiClient(app.url, (await createPersonalAccessToken(app, bob.id)).token);
    expect(await asBob.post(`/users/${id}/approve`)).toMatchObject({ status: 403, body: { message: "You are not allowed to approve a user" } });
    expect(await root.post(`/users/${id}/approve`)).toMatchObject({ status: 201, body: { message: "Success" } });
    expect(await asAlice.get("/user")).toMatchObject({ status: 200, body: { id, username: "alice", state: "active" } });

    // Approving again, or approving somebody who never waited, is GitLab's 409; unknown ids 404.
    const notPending = { status: 409, body: { message: "The user you are trying to approve is not pending approval" } };
    expect(await root.post(`/users/${id}/approve`)).toMatchObject(notPending);
    expect(await root.post(`/users/${bob.id}/approve`)).toMatchObject(notPending);
    expect(await root.post("/users/9999/approve")).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect((await root.as(null).post(`/users/${id}/approve`)).status).toBe(401);
  });

  test("reject deletes a pending sign-up; anybody else is 409", async () => {
    const res = await signUp(alice());
    const id = res.body.id as number;
    expect(await root.post(`/users/${id}/reject`)).toMatchObject({ status: 200, body: { message: "Success" } });
    expect(await root.get(`/users/${id}`)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await root.post(`/users/${id}/reject`)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await root.post("/users/1/reject")).toMatchObject({ status: 409, body: { message: "User does not have a pending request" } });
    expect(await lookup("alice")).toBeUndefined();
  });

  test("without admin approval the user is active and a token works straight away; the web form's fields work too", async () => {
    await settings({ require_admin_approval_after_user_signup: false });
    const res = await signUpForm({ first_name: "Alice", last_name: "Liddell", username: "alice", email: "alice@example.com", password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Alice Liddell", state: "active" });
    const { token } = await createPersonalAccessToken(app, res.body.id);
    expect(await apiClient(app.url, token).get("/user")).toMatchObject({ status: 200, body: { username: "alice" } });
    // Approving an active user: 409, as GitLab.
    expect((await root.post(`/users/${res.body.id}/approve`)).status).toBe(409);
  });

  test("new users get the instance defaults: private profile and projects limit", async () => {
    await settings({ user_defaults_to_private_profile: true, default_projects_limit: 7 });
    const res = await signUp(alice());
    expect(res.body).toMatchObject({ private_profile: true, projects_limit: 7, can_create_project: true });
  });

  test("validation: every error at once in a 422, with GitLab's messages", async () => {
    expect(await signUp({})).toMatchObject({
      status: 422,
      body: { message: { name: ["can't be blank"], username: ["can't be blank"], email: ["can't be blank"], password: ["can't be blank"] } },
    });
    expect(await signUp(alice({ username: "-bad", email: "nope", password: "short" }))).toEqual(
      expect.objectContaining({
        status: 422,
        body: {
          message: {
            username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."],
            email: ["is invalid"],
            password: ["is too short (minimum is 8 characters)"],
          },
        },
      }),
    );
    // No `user` at all: the form's params are missing.
    expect(await raw("/users", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).toMatchObject({ status: 400, body: { error: "user is missing" } });
  });

  test("a taken username or email is a 422 like every other model error (case-insensitive)", async () => {
    await createUserAccount(app, "alice");
    expect(await signUp(alice({ username: "ALICE", email: "other@example.com" }))).toMatchObject({ status: 422, body: { message: { username: ["has already been taken"] } } });
    expect(await signUp(alice({ username: "alice2", email: "Alice@Example.com" }))).toMatchObject({ status: 422, body: { message: { email: ["has already been taken"] } } });
  });

  test("minimum_password_length applies at once, to sign-up and to administrators' POST /api/v4/users", async () => {
    expect(await root.put("/application/settings", { json: { minimum_password_length: 7 } })).toMatchObject({
      status: 400,
      body: { message: { minimum_password_length: ["must be greater than or equal to 8"] } },
    });
    await settings({ minimum_password_length: 12 });
    expect((await root.get("/application/settings")).body.minimum_password_length).toBe(12);
    expect(await signUp(alice({ password: "elevenchars" }))).toMatchObject({ status: 422, body: { message: { password: ["is too short (minimum is 12 characters)"] } } });
    expect(await root.post("/users", { json: { ...alice({ password: "elevenchars" }) } })).toMatchObject({
      status: 400,
      body: { message: { password: ["is too short (minimum is 12 characters)"] } },
    });
    expect((await signUp(alice({ password: "twelve-chars" }))).status).toBe(201);
  });

  test("domain denylist (when enabled), allowlist (wins over the denylist) and email restrictions", async () => {
    const refused = { status: 422, body: { message: { email: [NOT_ALLOWED] } } };
    await settings({ domain_denylist_enabled: true, domain_denylist: ["spam.test", "*.bad.test"] });
    expect(await signUp(alice({ email: "alice@spam.test" }))).toMatchObject(refused);
    expect(await signUp(alice({ email: "alice@mail.BAD.test" }))).toMatchObject(refused);
    expect((await signUp(alice({ email: "alice@good.test" }))).status).toBe(201);

    // Turned off: the list no longer applies.
    await settings({ domain_denylist_enabled: false });
    expect((await signUp(alice({ username: "alice2", email: "alice2@spam.test" }))).status).toBe(201);

    // An allowlist refuses every other domain and lets its own through even when denied.
    await settings({ domain_allowlist: ["example.com"], domain_denylist_enabled: true, domain_denylist: ["example.com"] });
    expect(await signUp(alice({ username: "carol", email: "carol@elsewhere.test" }))).toMatchObject(refused);
    expect(await signUp(alice({ username: "carol", email: "carol@sub.example.com" }))).toMatchObject(refused);
    expect((await signUp(alice({ username: "carol", email: "carol@example.com" }))).status).toBe(201);

    // Email restrictions: a regular expression over the whole address.
    await settings({ domain_allowlist: [], domain_denylist_enabled: false, email_restrictions_enabled: true, email_restrictions: "\\+|@example\\.org$" });
    expect(await signUp(alice({ username: "dave", email: "dave+tag@example.com" }))).toMatchObject(refused);
    expect(await signUp(alice({ username: "dave", email: "dave@example.org" }))).toMatchObject(refused);
    expect((await signUp(alice({ username: "dave", email: "dave@example.net" }))).status).toBe(201);
    expect(await root.put("/application/settings", { json: { email_restrictions: "(" } })).toMatchObject({ status: 400, body: { message: { email_restrictions: [expect.stringMatching(/^not valid RE2 syntax: /)] } } });

    // Administrators' POST /api/v4/users is not a sign-up: the rules do not apply to it.
    expect((await root.post("/users", { json: { ...alice({ username: "erin", email: "erin+x@example.org" }) } })).status).toBe(201);
  });

  test("credentials are ignored, other paths and methods outside /api/v4 stay 404", async () => {
    const res = await signUp(alice(), { "PRIVATE-TOKEN": "glpat-not-a-real-token" });
    expect(res.status).toBe(201);
    for (const [method, path] of [["GET", "/users"], ["POST", "/users/sign_in"], ["PUT", "/users"], ["POST", "/user"]] as const) {
      const other = await raw(path, { method, headers: { "Content-Type": "application/json" }, body: method === "GET" ? undefined : "{}" });
      expect([method, path, other.status, other.body]).toEqual([method, path, 404, { error: "404 Not Found" }]);
    }
  });

  test("with @gitbeaker/rest: Users.approve and Users.reject", async () => {
    const api = new Gitlab({ host: app.url, token: app.rootToken });
    const pending = (await signUp(alice())).body;
    const other = (await signUp(alice({ username: "bob", email: "bob@example.com" }))).body;
    expect(await api.Users.approve(pending.id)).toEqual({ message: "Success" });
    expect((await api.Users.show(pending.id)).state).toBe("active");
    expect(await api.Users.reject(other.id)).toEqual({ message: "Success" });
    await expect(api.Users.show(other.id)).rejects.toThrow();
  });
});
