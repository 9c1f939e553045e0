import { Gitlab } from "@gitbeaker/rest";
import { apiClient, createPersonalAccessToken, createUserAccount, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/** Users through the gateway: /users, /users/:id, /user and the state actions, as GitLab answers them. */

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("users");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const PASSWORD = "s3cret-passw0rd";
const BASE = "http://collab.test"; // EXTERNAL_URL in the e2e environment

// GitLab's entity ladder (reference §3.8), each level adding to the one before.
const USER_BASIC = ["id", "username", "name", "state", "locked", "avatar_url", "web_url"];
const USER = [
  ...USER_BASIC,
  ...["created_at", "bio", "location", "public_email", "linkedin", "twitter", "discord", "website_url", "organization"],
  ...["job_title", "pronouns", "bot", "work_information", "followers", "following", "is_followed", "local_time"],
];
const USER_PUBLIC = [
  ...USER,
  ...["last_sign_in_at", "confirmed_at", "last_activity_on", "email", "theme_id", "color_scheme_id", "projects_limit"],
  ...["current_sign_in_at", "identities", "can_create_group", "can_create_project", "two_factor_enabled", "external"],
  ...["private_profile", "commit_email", "preferred_language"],
];
const USER_WITH_ADMIN = [
  ...USER_PUBLIC,
  ...["is_admin", "note", "namespace_id", "created_by", "email_reset_offered_at", "current_sign_in_ip", "last_sign_in_ip"],
  ...["is_auditor", "using_license_seat", "provisioned_by_group_id"],
];
const keysOf = (o: object) => Object.keys(o).sort();
const sorted = (a: string[]) => [...a].sort();

/** A user made by root, without a token: "alice" is named "Alice" unless `extra` says otherwise. */
const createUser = (username: string, extra: Record<string, unknown> = {}) =>
  createUserAccount(app, username, { name: username[0].toUpperCase() + username.slice(1), ...extra });

const tokenFor = async (userId: number) => (await createPersonalAccessToken(app, userId, { name: "test" })).token;

/** An ordinary user with an api token. */
async function member(username = "alice") {
  const user = await createUser(username);
  return { user, api: apiClient(app.url, await tokenFor(user.id)) };
}

describe("POST /users", () => {
  test("an administrator creates a user from JSON and gets the admin view back", async () => {
    const res = await root.post("/users", {
      json: { email: "alice@example.com", name: "Alice Liddell", username: "alice", password: PASSWORD, bio: "Down the hole", projects_limit: 10 },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(keysOf(res.body)).toEqual(sorted(USER_WITH_ADMIN));
    expect(res.body).toMatchObject({
      id: 2,
      username: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      commit_email: "alice@example.com",
      state: "active",
      locked: false,
      is_admin: false,
      bot: false,
      external: false,
      bio: "Down the hole",
      projects_limit: 10,
      can_create_project: true,
      can_create_group: true,
      web_url: `${BASE}/alice`,
      avatar_url: null,
      identities: [],
    });
    expect(res.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const read = await root.get("/users/2");
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: 2, username: "alice", bio: "Down the hole" });
  });

  test("form-encoded bodies are accepted, booleans included", async () => {
    const res = await root.post("/users", {
      form: { email: "ops@example.com", name: "Ops", username: "ops", password: PASSWORD, admin: "true", external: "1", can_create_group: "false" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: "ops", is_admin: true, external: true, can_create_group: false });
  });

  test("a random password may replace an explicit one", async () => {
    const res = await root.post("/users", { json: { email: "bot@example.com", name: "Bot", username: "bot", force_random_password: true } });
    expect(res.status).toBe(201);
    expect(res.body.username).toBe("bot");
  });

  test("missing parameters are listed in Grape's declaration order", async () => {
    const res = await root.post("/users", { json: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error:
        "email is missing, password, reset_password, force_random_password are missing, at least one parameter must be provided, name is missing, username is missing",
    });
  });

  test("without any password option the user is not created", async () => {
    const res = await root.post("/users", { json: { email: "a@example.com", name: "A", username: "aa" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "password, reset_password, force_random_password are missing, at least one parameter must be provided" });
    expect((await root.get("/users", { query: { username: "aa" } })).body).toEqual([]);
  });

  test("a malformed boolean is a Grape type error", async () => {
    const res = await root.post("/users", { json: { email: "a@example.com", name: "A", username: "aa", password: PASSWORD, admin: "maybe" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "admin is invalid" });
  });

  test("a taken email or username is a 409, compared case-insensitively", async () => {
    await createUser("alice");
    const email = await root.post("/users", { json: { email: "ALICE@example.com", name: "Other", username: "other", password: PASSWORD } });
    expect(email.status).toBe(409);
    expect(email.body).toEqual({ message: "Email has already been taken" });

    const username = await root.post("/users", { json: { email: "other@example.com", name: "Other", username: "Alice", password: PASSWORD } });
    expect(username.status).toBe(409);
    expect(username.body).toEqual({ message: "Username has already been taken" });
  });

  test("the conflict wins over other validation errors, as in GitLab", async () => {
    await createUser("alice");
    const res = await root.post("/users", { json: { email: "alice@example.com", name: "Other", username: "other", password: "short" } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Email has already been taken" });
  });

  test("a short password is a model validation error", async () => {
    const res = await root.post("/users", { json: { email: "bob@example.com", name: "Bob", username: "bob", password: "1234567" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { password: ["is too short (minimum is 8 characters)"] } });
    expect((await root.get("/users", { query: { username: "bob" } })).body).toEqual([]);
  });

  test("eight characters are enough", async () => {
    const res = await root.post("/users", { json: { email: "bob@example.com", name: "Bob", username: "bob", password: "12345678" } });
    expect(res.status).toBe(201);
  });

  test("every failing attribute is reported at once", async () => {
    const res = await root.post("/users", { json: { email: "not-an-email", name: " ", username: "-bad", password: PASSWORD } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: {
        email: ["is invalid"],
        name: ["can't be blank"],
        username: ["can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."],
      },
    });
  });

  test("only administrators create users", async () => {
    const { api } = await member();
    const res = await api.post("/users", { json: { email: "eve@example.com", name: "Eve", username: "eve", password: PASSWORD } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden" });
    expect((await root.get("/users", { query: { username: "eve" } })).body).toEqual([]);
  });

  test("anonymous callers are told to authenticate", async () => {
    const res = await root.as(null).post("/users", { json: { email: "eve@example.com", name: "Eve", username: "eve", password: PASSWORD } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });
});

describe("GET /users/:id", () => {
  test("administrators get the admin view, other users the public profile without private fields", async () => {
    const { user, api } = await member();
    await createUser("bob", { bio: "builder", public_email: "bob@public.example" });

    const asAdmin = await root.get("/users/3");
    expect(asAdmin.status).toBe(200);
    expect(keysOf(asAdmin.body)).toEqual(sorted(USER_WITH_ADMIN));
    expect(asAdmin.body).toMatchObject({ username: "bob", email: "bob@example.com", is_admin: false });

    const asUser = await api.get("/users/3");
    expect(asUser.status).toBe(200);
    expect(keysOf(asUser.body)).toEqual(sorted(USER));
    expect(asUser.body).toMatchObject({ id: 3, username: "bob", bio: "builder", public_email: "bob@public.example", web_url: `${BASE}/bob` });
    expect(asUser.body).not.toHaveProperty("email");
    expect(asUser.body).not.toHaveProperty("is_admin");

    expect((await api.get(`/users/${user.id}`)).body).not.toHaveProperty("is_admin");
  });

  test("an unknown id is 404 User Not Found, even one beyond the integer range", async () => {
    for (const id of ["999", "99999999999"]) {
      const res = await root.get(`/users/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "404 User Not Found" });
    }
  });

  test("a non-numeric id is a type error", async () => {
    const res = await root.get("/users/alice");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "id is invalid" });
  });

  test("anonymous callers may not read single users", async () => {
    const res = await root.as(null).get("/users/1");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "403 Forbidden - Not authorized!" });
  });
});

describe("GET /user", () => {
  test("a regular user sees their own public profile with email but no admin fields", async () => {
    const { user, api } = await member();
    const res = await api.get("/user");
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(sorted(USER_PUBLIC));
    expect(res.body).toMatchObject({ id: user.id, username: "alice", email: "alice@example.com", two_factor_enabled: false });
  });

  test("an administrator sees the admin view of themselves", async () => {
    const res = await root.get("/user");
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(sorted(USER_WITH_ADMIN));
    expect(res.body).toMatchObject({ id: 1, username: "root", is_admin: true });
  });

  test("anonymous callers get 401", async () => {
    const res = await root.as(null).get("/user");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "401 Unauthorized" });
  });
});

describe("PUT /users/:id", () => {
  test("an administrator edits a profile", async () => {
    const alice = await createUser("alice");
    const res = await root.put(`/users/${alice.id}`, { json: { name: "Alice L.", bio: "new bio", job_title: "Engineer", organization: "Acme", note: "VIP" } });
    expect(res.status).toBe(200);
    expect(keysOf(res.body)).toEqual(sorted(USER_WITH_ADMIN));
    expect(res.body).toMatchObject({ name: "Alice L.", bio: "new bio", work_information: "Engineer at Acme", note: "VIP" });
    expect((await root.get(`/users/${alice.id}`)).body).toMatchObject({ name: "Alice L.", bio: "new bio" });
  });

  test("form-encoded updates work too", async () => {
    const alice = await createUser("alice");
    const res = await root.put(`/users/${alice.id}`, { form: { location: "Wonderland", private_profile: "true" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ location: "Wonderland", private_profile: true });
  });

  test("taking somebody else's email or username is a 409; keeping one's own is fine", async () => {
    const alice = await createUser("alice");
    await createUser("bob");
    const email = await root.put(`/users/${alice.id}`, { json: { email: "BOB@example.com" } });
    expect(email.status).toBe(409);
    expect(email.body).toEqual({ message: "Email has already been taken" });
    const username = await root.put(`/users/${alice.id}`, { json: { username: "bob" } });
    expect(username.status).toBe(409);
    expect(username.body).toEqual({ message: "Username has already been taken" });

    const same = await root.put(`/users/${alice.id}`, { json: { username: "alice", email: "alice@example.com" } });
    expect(same.status).toBe(200);
  });

  test("a short password is rejected", async () => {
    const alice = await createUser("alice");
    const res = await root.put(`/users/${alice.id}`, { json: { password: "short" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { password: ["is too short (minimum is 8 characters)"] } });
  });

  test("promotion to administrator takes effect on the user's next request", async () => {
    const { user, api } = await member();
    expect((await api.get("/user")).body).not.toHaveProperty("is_admin");
    expect((await api.post("/users", { json: { email: "x@example.com", name: "X", username: "x", password: PASSWORD } })).status).toBe(403);

    expect((await root.put(`/users/${user.id}`, { json: { admin: true } })).body.is_admin).toBe(true);
    expect((await api.get("/user")).body).toMatchObject({ is_admin: true });
    expect((await api.post("/users", { json: { email: "x@example.com", name: "X", username: "x", password: PASSWORD } })).status).toBe(201);

    await root.put(`/users/${user.id}`, { json: { admin: false } });
    expect((await api.post("/users", { json: { email: "y@example.com", name: "Y", username: "y", password: PASSWORD } })).status).toBe(403);
  });

  test("non-administrators, unknown users and anonymous callers", async () => {
    const { api } = await member();
    expect(await api.put("/users/1", { json: { name: "Hacker" } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await root.put("/users/999", { json: { name: "Nobody" } })).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await root.as(null).put("/users/1", { json: { name: "Nobody" } })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect((await root.get("/users/1")).body.name).toBe("Administrator");
  });
});

describe("DELETE /users/:id", () => {
  test("an administrator deletes a user: 204, gone, and the user's token stops working at once", async () => {
    const { user, api } = await member();
    expect((await api.get("/user")).status).toBe(200); // the token is now cached by the gateway

    const res = await root.delete(`/users/${user.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await root.get(`/users/${user.id}`)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await api.get("/user")).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
  });

  test("unknown users, non-administrators, anonymous callers and the administrator themselves", async () => {
    const { user, api } = await member();
    expect(await root.delete("/users/999")).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await api.delete("/users/1")).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await root.as(null).delete(`/users/${user.id}`)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await root.delete("/users/1")).toMatchObject({ status: 403, body: { message: "403 Forbidden - You cannot delete yourself" } });
    expect((await root.get(`/users/${user.id}`)).status).toBe(200);
  });
});

describe("block, unblock, deactivate, activate", () => {
  test("blocking answers 201 true and locks the user out immediately; unblocking lets them back", async () => {
    const { user, api } = await member();
    expect((await api.get("/user")).status).toBe(200); // cached before the block

    const block = await root.post(`/users/${user.id}/block`);
    expect(block.status).toBe(201);
    expect(block.body).toBe(true);
    expect((await root.get(`/users/${user.id}`)).body.state).toBe("blocked");
    expect(await api.get("/user")).toMatchObject({ status: 403, body: { message: "403 Forbidden - Your account has been blocked." } });

    // Blocking again changes nothing and still answers true.
    expect(await root.post(`/users/${user.id}/block`)).toMatchObject({ status: 201, body: true });

    const unblock = await root.post(`/users/${user.id}/unblock`);
    expect(unblock).toMatchObject({ status: 201, body: true });
    expect((await root.get(`/users/${user.id}`)).body.state).toBe("active");
    expect((await api.get("/user")).status).toBe(200);
  });

  test("deactivating answers 201 true and rejects the user's token until activation", async () => {
    const { user, api } = await member();
    expect(await root.post(`/users/${user.id}/deactivate`)).toMatchObject({ status: 201, body: true });
    expect((await root.get(`/users/${user.id}`)).body.state).toBe("deactivated");
    expect(await api.get("/user")).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - Your account has been deactivated by your administrator. Please log back in to reactivate your account." },
    });
    expect(await root.post(`/users/${user.id}/deactivate`)).toMatchObject({ status: 201, body: true });

    expect(await root.post(`/users/${user.id}/activate`)).toMatchObject({ status: 201, body: true });
    expect((await api.get("/user")).status).toBe(200);
  });

  test("GitLab's guards between the states", async () => {
    const alice = await createUser("alice");
    const bob = await createUser("bob");

    await root.post(`/users/${alice.id}/deactivate`);
    expect(await root.post(`/users/${alice.id}/unblock`)).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - Deactivated users cannot be unblocked by the API" },
    });
    expect((await root.get(`/users/${alice.id}`)).body.state).toBe("deactivated");

    await root.post(`/users/${bob.id}/block`);
    expect(await root.post(`/users/${bob.id}/deactivate`)).toMatchObject({ status: 403, body: { message: "Error occurred. A blocked user cannot be deactivated" } });
    expect(await root.post(`/users/${bob.id}/activate`)).toMatchObject({
      status: 403,
      body: { message: "Error occurred. A blocked user must be unblocked to be activated" },
    });
    expect((await root.get(`/users/${bob.id}`)).body.state).toBe("blocked");

    // A deactivated user may still be blocked.
    expect(await root.post(`/users/${alice.id}/block`)).toMatchObject({ status: 201, body: true });
    expect((await root.get(`/users/${alice.id}`)).body.state).toBe("blocked");
  });

  test("an administrator cannot block themselves", async () => {
    expect(await root.post("/users/1/block")).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - The API initiating user cannot be blocked by the API" },
    });
    expect((await root.get("/user")).body.state).toBe("active");
  });

  test("administrators only; unknown users are 404", async () => {
    const { user, api } = await member();
    for (const action of ["block", "unblock", "deactivate", "activate"]) {
      expect(await api.post(`/users/${user.id}/${action}`)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
      expect(await root.as(null).post(`/users/${user.id}/${action}`)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      expect(await root.post(`/users/999/${action}`)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    }
    expect((await root.get(`/users/${user.id}`)).body.state).toBe("active");
  });
});

describe("GET /users", () => {
  /** root (1), alice (2), bob (3), carol (4, blocked), dave (5, deactivated). */
  async function population() {
    const alice = await createUser("alice", { name: "Alice Liddell" });
    const bob = await createUser("bob", { name: "Bob Builder", public_email: "bob@public.example" });
    const carol = await createUser("carol", { name: "Carol Danvers" });
    const dave = await createUser("dave", { name: "Dave Bowman" });
    await root.post(`/users/${carol.id}/block`);
    await root.post(`/users/${dave.id}/deactivate`);
    return { alice, bob, carol, dave, api: apiClient(app.url, await tokenFor(alice.id)) };
  }
  const usernames = (res: { body: { username: string }[] }) => res.body.map((u) => u.username);

  test("administrators get everyone with the admin view, newest first", async () => {
    await population();
    const res = await root.get("/users");
    expect(res.status).toBe(200);
    expect(usernames(res)).toEqual(["dave", "carol", "bob", "alice", "root"]);
    expect(keysOf(res.body[0])).toEqual(sorted(USER_WITH_ADMIN));
    expect(res.headers.get("x-total")).toBe("5");
  });

  test("other users get the basic view and never see blocked users", async () => {
    const { api } = await population();
    const res = await api.get("/users");
    expect(res.status).toBe(200);
    expect(usernames(res)).toEqual(["dave", "bob", "alice", "root"]);
    expect(res.body[0]).toEqual({ id: 5, username: "dave", name: "Dave Bowman", state: "deactivated", locked: false, avatar_url: null, web_url: `${BASE}/dave` });
    expect(res.headers.get("x-total")).toBe("4");
    expect((await api.get("/users", { query: { blocked: true } })).body).toEqual([]);
  });

  test("anonymous callers may only look a user up by username", async () => {
    await population();
    const list = await root.as(null).get("/users");
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ message: "403 Forbidden - Not authorized to access /api/v4/users" });

    const one = await root.as(null).get("/users", { query: { username: "ALICE" } });
    expect(one.status).toBe(200);
    expect(one.body).toEqual([{ id: 2, username: "alice", name: "Alice Liddell", state: "active", locked: false, avatar_url: null, web_url: `${BASE}/alice` }]);
  });

  test("username is an exact, case-insensitive match", async () => {
    await population();
    expect(usernames(await root.get("/users", { query: { username: "Bob" } }))).toEqual(["bob"]);
    expect((await root.get("/users", { query: { username: "bo" } })).body).toEqual([]);
  });

  test("search matches parts of names and usernames, and every long-enough term", async () => {
    const { api } = await population();
    expect(usernames(await root.get("/users", { query: { search: "ali" } }))).toEqual(["alice"]);
    expect(usernames(await root.get("/users", { query: { search: "BUILD" } }))).toEqual(["bob"]);
    expect(usernames(await root.get("/users", { query: { search: "@bob" } }))).toEqual(["bob"]);
    expect(usernames(await root.get("/users", { query: { search: "bob builder" } }))).toEqual(["bob"]);
    expect((await root.get("/users", { query: { search: "bob alice" } })).body).toEqual([]);
    // Terms shorter than three characters only match a whole name or username.
    expect((await root.get("/users", { query: { search: "al" } })).body).toEqual([]);
    expect(usernames(await api.get("/users", { query: { search: "ali" } }))).toEqual(["alice"]);
  });

  test("search by e-mail: the private address for administrators, only the public one for others", async () => {
    const { api } = await population();
    expect(usernames(await root.get("/users", { query: { search: "alice@example.com" } }))).toEqual(["alice"]);
    expect((await api.get("/users", { query: { search: "bob@example.com" } })).body).toEqual([]);
    expect(usernames(await api.get("/users", { query: { search: "bob@public.example" } }))).toEqual(["bob"]);
  });

  test("search results put exact matches first, then sort by name", async () => {
    await createUser("annabel", { name: "Zed Annabel" });
    await createUser("anna", { name: "Yvonne" });
    await createUser("joanna", { name: "Anna Joanna" });
    expect(usernames(await root.get("/users", { query: { search: "anna" } }))).toEqual(["anna", "joanna", "annabel"]);
    // An explicit order replaces the relevance order.
    expect(usernames(await root.get("/users", { query: { search: "anna", order_by: "id", sort: "asc" } }))).toEqual(["annabel", "anna", "joanna"]);
  });

  test("active and blocked filters", async () => {
    await population();
    expect(usernames(await root.get("/users", { query: { active: true } }))).toEqual(["bob", "alice", "root"]);
    expect(usernames(await root.get("/users", { query: { blocked: true } }))).toEqual(["carol"]);
    expect(usernames(await root.get("/users", { query: { active: false } }))).toHaveLength(5);
  });

  test("order_by and sort for administrators", async () => {
    const { alice } = await population();
    await root.put(`/users/${alice.id}`, { json: { name: "Zelda" } });
    expect(usernames(await root.get("/users", { query: { order_by: "username", sort: "asc" } }))).toEqual(["alice", "bob", "carol", "dave", "root"]);
    expect(usernames(await root.get("/users", { query: { order_by: "name", sort: "asc" } }))).toEqual(["root", "bob", "carol", "dave", "alice"]);
    expect(usernames(await root.get("/users", { query: { order_by: "name" } }))).toEqual(["alice", "dave", "carol", "bob", "root"]);
    expect(usernames(await root.get("/users", { query: { sort: "asc" } }))).toEqual(["root", "alice", "bob", "carol", "dave"]);
  });

  test("other users' order_by and sort are ignored, as GitLab drops them", async () => {
    const { api } = await population();
    expect(usernames(await api.get("/users", { query: { order_by: "username", sort: "asc" } }))).toEqual(["dave", "bob", "alice", "root"]);
  });

  test("invalid filter values are Grape errors", async () => {
    expect(await root.get("/users", { query: { order_by: "email" } })).toMatchObject({ status: 400, body: { error: "order_by does not have a valid value" } });
    expect(await root.get("/users", { query: { sort: "up" } })).toMatchObject({ status: 400, body: { error: "sort does not have a valid value" } });
    expect(await root.get("/users", { query: { active: "perhaps" } })).toMatchObject({ status: 400, body: { error: "active is invalid" } });
  });

  test("pages through the list with GitLab's headers", async () => {
    await population();
    const res = await root.get("/users", { query: { per_page: 2, page: 2 } });
    expect(usernames(res)).toEqual(["bob", "alice"]);
    expect(Object.fromEntries(["x-total", "x-total-pages", "x-per-page", "x-page", "x-next-page", "x-prev-page"].map((h) => [h, res.headers.get(h)]))).toEqual({
      "x-total": "5",
      "x-total-pages": "3",
      "x-per-page": "2",
      "x-page": "2",
      "x-next-page": "3",
      "x-prev-page": "1",
    });
  });
});

describe("with @gitbeaker/rest", () => {
  test("a real client manages users unchanged", async () => {
    const admin = new Gitlab({ host: app.url, token: app.rootToken });

    const alice = await admin.Users.create({ email: "alice@example.com", name: "Alice", username: "alice", password: PASSWORD, skipConfirmation: true });
    expect(alice).toMatchObject({ id: 2, username: "alice", state: "active", is_admin: false });

    const found = await admin.Users.all({ username: "alice" });
    expect(found.map((u) => u.id)).toEqual([2]);
    expect((await admin.Users.show(2)).username).toBe("alice");

    const edited = await admin.Users.edit(2, { bio: "edited by gitbeaker" });
    expect(edited.bio).toBe("edited by gitbeaker");

    await admin.Users.block(2);
    expect((await admin.Users.show(2)).state).toBe("blocked");
    await admin.Users.unblock(2);
    await admin.Users.deactivate(2);
    expect((await admin.Users.show(2)).state).toBe("deactivated");
    await admin.Users.activate(2);
    expect((await admin.Users.show(2)).state).toBe("active");

    const token = await admin.Users.createPersonalAccessToken(2, "gitbeaker", ["api"]);
    const asAlice = new Gitlab({ host: app.url, token: token.token as string });
    expect(await asAlice.Users.showCurrentUser()).toMatchObject({ id: 2, username: "alice", email: "alice@example.com" });

    await expect(admin.Users.create({ email: "alice@example.com", name: "Again", username: "again", password: PASSWORD })).rejects.toThrow(
      "Email has already been taken",
    );

    await admin.Users.remove(2);
    await expect(admin.Users.show(2)).rejects.toThrow("404 User Not Found");
  });

  test("Users.all follows the Link header across pages", async () => {
    for (const name of ["alice", "bob", "carol", "dave"]) await createUser(name);
    const admin = new Gitlab({ host: app.url, token: app.rootToken });
    const all = await admin.Users.all({ perPage: 2 });
    expect(all.map((u) => u.username)).toEqual(["dave", "carol", "bob", "alice", "root"]);

    const { data, paginationInfo } = await admin.Users.all({ perPage: 2, page: 2, showExpanded: true });
    expect(data.map((u) => u.username)).toEqual(["bob", "alice"]);
    expect(paginationInfo).toEqual({ total: 5, next: 3, current: 2, previous: 1, perPage: 2, totalPages: 3 });
  });
});
