import { addMember, apiClient, createGroup, createPersonalAccessToken, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * What a user may create and where their projects live, across accounts and namespaces:
 * the can_create_group setting as new users' default, can_create_group on POST /groups,
 * projects_limit on personal projects, and a rename moving the personal namespace.
 */

let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("user-limits");
  root = apiClient(app.url, app.rootToken);
});
afterAll(() => app.stop());
beforeEach(() => app.reset());

const PASSWORD = "s3cret-passw0rd";
const FORBIDDEN = { status: 403, body: { message: "403 Forbidden" } };
const OWNER = 50;
const MAINTAINER = 40;

const settings = async (json: Record<string, unknown>) => expect((await root.put("/application/settings", { json })).status).toBe(200);
const editUser = async (id: number, json: Record<string, unknown>) => expect((await root.put(`/users/${id}`, { json })).status).toBe(200);

/**
 * Retries `read` until `done` holds (a few seconds at most): in the distributed pass the namespaces
 * service applies `accounts.user.updated` after the PUT has answered.
 */
async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** POST /users outside /api/v4 (the sign-up form). */
async function signUp(user: Record<string, unknown>) {
  const res = await fetch(`${app.url}/users`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ user }) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe("can_create_group of new users follows the can_create_group setting", () => {
  test("POST /users without can_create_group takes the setting; an explicit value wins", async () => {
    const before = await root.post("/users", { json: { username: "alice", name: "Alice", email: "alice@example.com", password: PASSWORD } });
    expect(before.body).toMatchObject({ can_create_group: true });

    await settings({ can_create_group: false });
    const bob = await root.post("/users", { json: { username: "bob", name: "Bob", email: "bob@example.com", password: PASSWORD } });
    expect(bob).toMatchObject({ status: 201, body: { can_create_group: false } });
    const carol = await root.post("/users", { json: { username: "carol", name: "Carol", email: "carol@example.com", password: PASSWORD, can_create_group: true } });
    expect(carol).toMatchObject({ status: 201, body: { can_create_group: true } });

    // Not retroactive: existing users keep theirs.
    expect((await root.get(`/users/${before.body.id}`)).body.can_create_group).toBe(true);
    expect((await root.get(`/users/${bob.body.id}`)).body.can_create_group).toBe(false);
  });

  test("self sign-up takes the setting too", async () => {
    await settings({ can_create_group: false, require_admin_approval_after_user_signup: false });
    const res = await signUp({ name: "Dora", username: "dora", email: "dora@example.com", password: PASSWORD });
    expect(res).toMatchObject({ status: 201, body: { username: "dora", can_create_group: false } });
    expect((await root.get("/users", { query: { username: "dora" } })).body[0]).toMatchObject({ can_create_group: false });
  });
});

describe("POST /groups and can_create_group", () => {
  test("without can_create_group a user may not create top-level groups: 403, nothing created", async () => {
    const alice = await createUser(app, "alice", { can_create_group: false });
    expect(await alice.api.post("/groups", { json: { name: "Mine", path: "mine" } })).toMatchObject(FORBIDDEN);
    expect((await root.get("/groups/mine")).status).toBe(404);

    // The refusal comes before the group's own validation, as GitLab's authorize! does.
    expect(await alice.api.post("/groups", { json: { name: "Bad", path: "-bad-" } })).toMatchObject(FORBIDDEN);
  });

  test("an administrator's change acts on the next request", async () => {
    const alice = await createUser(app, "alice");
    expect((await alice.api.post("/groups", { json: { name: "One", path: "one" } })).status).toBe(201);
    await editUser(alice.id, { can_create_group: false });
    expect(await alice.api.post("/groups", { json: { name: "Two", path: "two" } })).toMatchObject(FORBIDDEN);
    await editUser(alice.id, { can_create_group: true });
    expect((await alice.api.post("/groups", { json: { name: "Two", path: "two" } })).status).toBe(201);
  });

  test("users created while the setting is off may not create groups", async () => {
    await settings({ can_create_group: false });
    const bob = await createUser(app, "bob");
    expect(await bob.api.post("/groups", { json: { name: "B", path: "b" } })).toMatchObject(FORBIDDEN);
  });

  test("subgroups follow the parent's subgroup_creation_level, whatever can_create_group says", async () => {
    const alice = await createUser(app, "alice", { can_create_group: false });
    const parent = await createGroup(root, "Parent", "parent");
    await addMember(app, "groups", parent.id, alice.id, MAINTAINER);
    const sub = await alice.api.post("/groups", { json: { name: "Sub", path: "sub", parent_id: parent.id } });
    expect(sub).toMatchObject({ status: 201, body: { full_path: "parent/sub" } });

    await root.put(`/groups/${parent.id}`, { json: { subgroup_creation_level: "owner" } });
    expect(await alice.api.post("/groups", { json: { name: "Sub2", path: "sub2", parent_id: parent.id } })).toMatchObject(FORBIDDEN);
  });

  test("administrators are not bound by their own can_create_group", async () => {
    const admin = await createUser(app, "boss", { admin: true, can_create_group: false });
    expect((await admin.api.post("/groups", { json: { name: "Admin Group", path: "admin-group" } })).status).toBe(201);
  });
});

describe("projects_limit on personal projects", () => {
  const reached = (n: number) => ({ status: 403, body: { message: [`You've reached your limit of ${n} projects created. Contact your GitLab administrator.`] } });
  const notAllowed = { status: 403, body: { message: ["You cannot create projects in your personal namespace. Contact your GitLab administrator."] } };
  const personal = async (api: ApiClient) => (await api.get("/projects", { query: { owned: true } })).body.filter((p: any) => p.namespace.kind === "user");

  test("the limit counts personal projects; reaching it is GitLab's 403 and nothing is created", async () => {
    const alice = await createUser(app, "alice", { projects_limit: 2 });
    await createProject(alice.api, { name: "one" });
    await createProject(alice.api, { name: "two" });
    expect(await alice.api.post("/projects", { json: { name: "three" } })).toMatchObject(reached(2));
    // The limit wins over the project's own validation errors.
    expect(await alice.api.post("/projects", { json: { name: "one" } })).toMatchObject(reached(2));
    expect((await personal(alice.api)).map((p: any) => p.path).sort()).toEqual(["one", "two"]);
    expect((await root.get("/projects/alice%2Fthree")).status).toBe(404);

    // Raising it acts at once.
    await editUser(alice.id, { projects_limit: 3 });
    expect((await alice.api.post("/projects", { json: { name: "three" } })).status).toBe(201);
  });

  test("projects_limit 0: no personal projects at all; group projects are not counted nor limited", async () => {
    const alice = await createUser(app, "alice", { projects_limit: 0 });
    expect(await alice.api.post("/projects", { json: { name: "mine" } })).toMatchObject(notAllowed);

    const group = await createGroup(root, "Team", "team");
    await addMember(app, "groups", group.id, alice.id, OWNER);
    const inGroup = await alice.api.post("/projects", { json: { name: "shared", namespace_id: group.id } });
    expect(inGroup).toMatchObject({ status: 201, body: { path_with_namespace: "team/shared" } });
  });

  test("the personal namespace given explicitly is limited the same way", async () => {
    const alice = await createUser(app, "alice", { projects_limit: 1 });
    const first = await createProject(alice.api, { name: "first" });
    const res = await alice.api.post("/projects", { json: { name: "second", namespace_id: first.namespace.id } });
    expect(res).toMatchObject(reached(1));
  });

  test("the default_projects_limit setting gives new users their limit", async () => {
    await settings({ default_projects_limit: 0 });
    const bob = await createUser(app, "bob");
    expect(await bob.api.post("/projects", { json: { name: "x" } })).toMatchObject(notAllowed);
  });

  test("administrators are limited too, by their own limit and personal projects (Project#check_personal_projects_limit)", async () => {
    const alice = await createUser(app, "alice");
    const aliceNs = (await createProject(alice.api, { name: "a" })).namespace.id;
    await editUser(1, { projects_limit: 0 });
    expect(await root.post("/projects", { json: { name: "r" } })).toMatchObject(notAllowed);
    // The creator's limit applies in another user's personal namespace as well.
    expect(await root.post("/projects", { json: { name: "for-alice", namespace_id: aliceNs } })).toMatchObject(notAllowed);
    // Group projects are fine.
    const group = await createGroup(root, "Ops", "ops");
    expect((await root.post("/projects", { json: { name: "infra", namespace_id: group.id } })).status).toBe(201);
  });
});

describe("renaming a user moves their personal namespace", () => {
  test("a new username and name move the namespace and its projects; the old path is gone", async () => {
    const alice = await createUser(app, "alice", { name: "Alice" });
    const billing = await createProject(alice.api, { name: "Billing" });
    const group = await createGroup(root, "Team", "team");
    await addMember(app, "groups", group.id, alice.id, OWNER);
    const shared = await createProject(alice.api, { name: "Shared", namespace_id: group.id });

    const res = await root.put(`/users/${alice.id}`, { json: { username: "alicia", name: "Alicia L." } });
    expect(res).toMatchObject({ status: 200, body: { username: "alicia", name: "Alicia L.", web_url: "http://collab.test/alicia" } });

    const moved = await eventually(
      () => root.get(`/projects/${billing.id}`),
      (r) => r.body.path_with_namespace === "alicia/billing",
    );
    expect(moved).toMatchObject({
      status: 200,
      body: {
        path: "billing",
        path_with_namespace: "alicia/billing",
        name_with_namespace: "Alicia L. / Billing",
        web_url: "http://collab.test/alicia/billing",
        http_url_to_repo: "http://collab.test/alicia/billing.git",
        namespace: { id: billing.namespace.id, kind: "user", path: "alicia", full_path: "alicia", name: "Alicia L." },
        owner: { id: alice.id, username: "alicia" },
      },
    });
    expect(await root.get("/projects/alice%2Fbilling")).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await root.get("/projects/alicia%2Fbilling")).toMatchObject({ status: 200, body: { id: billing.id } });
    // Group projects stay where they are.
    expect((await root.get(`/projects/${shared.id}`)).body.path_with_namespace).toBe("team/shared");

    // New personal projects go to the moved namespace; the old path is free for a group.
    expect(await alice.api.post("/projects", { json: { name: "Next" } })).toMatchObject({ status: 201, body: { path_with_namespace: "alicia/next" } });
    expect((await root.post("/groups", { json: { name: "Alice", path: "alice" } })).status).toBe(201);
  });

  test("a name change alone renames the namespace, not its path", async () => {
    const alice = await createUser(app, "alice", { name: "Alice" });
    const project = await createProject(alice.api, { name: "Notes" });
    await editUser(alice.id, { name: "Alice Liddell" });
    const after = await eventually(
      () => root.get(`/projects/${project.id}`),
      (r) => r.body.name_with_namespace === "Alice Liddell / Notes",
    );
    expect(after.body).toMatchObject({ path_with_namespace: "alice/notes", name_with_namespace: "Alice Liddell / Notes", namespace: { path: "alice", name: "Alice Liddell" } });
  });

  test("a username taken by a group is refused (any case) and nothing moves", async () => {
    const alice = await createUser(app, "alice");
    const project = await createProject(alice.api, { name: "Billing" });
    await createGroup(root, "Platform", "platform");
    for (const username of ["platform", "PLATFORM"]) {
      const res = await root.put(`/users/${alice.id}`, { json: { username, bio: "not saved either" } });
      expect(res).toMatchObject({ status: 400, body: { message: { base: ["A user, alias, or group already exists with that username."] } } });
    }
    expect((await root.get(`/users/${alice.id}`)).body).toMatchObject({ username: "alice", bio: "" });
    expect((await root.get(`/projects/${project.id}`)).body.path_with_namespace).toBe("alice/billing");
    // Only top-level paths can collide: the subgroup platform/tools does not block the username "tools".
    const parent = (await root.get("/groups/platform")).body;
    await createGroup(root, "Tools", "tools", { parent_id: parent.id });
    expect((await root.put(`/users/${alice.id}`, { json: { username: "tools" } })).status).toBe(200);
  });

  test("another user's username stays a 409, and keeping one's own username is fine", async () => {
    const alice = await createUser(app, "alice");
    await createUser(app, "bob");
    expect(await root.put(`/users/${alice.id}`, { json: { username: "bob" } })).toMatchObject({ status: 409, body: { message: "Username has already been taken" } });
    expect((await root.put(`/users/${alice.id}`, { json: { username: "alice", bio: "same" } })).status).toBe(200);
  });

  test("a service account renamed with PATCH /service_accounts/:id moves too; a group's path is refused", async () => {
    const sa = (await root.post("/service_accounts", { json: { name: "Robot", username: "robot", email: "robot@example.com" } })).body;
    const bot = apiClient(app.url, (await createPersonalAccessToken(app, sa.id)).token);
    const project = await createProject(bot, { name: "Bot Home" });
    expect(project.path_with_namespace).toBe("robot/bot-home");

    await createGroup(root, "Taken", "taken");
    expect(await root.patch(`/service_accounts/${sa.id}`, { json: { username: "taken" } })).toMatchObject({
      status: 400,
      body: { message: "A user, alias, or group already exists with that username." },
    });
    expect((await root.patch(`/service_accounts/${sa.id}`, { json: { username: "robot2", name: "Robot II" } })).status).toBe(200);
    const after = await eventually(
      () => root.get(`/projects/${project.id}`),
      (r) => r.body.path_with_namespace === "robot2/bot-home",
    );
    expect(after.body).toMatchObject({ path_with_namespace: "robot2/bot-home", name_with_namespace: "Robot II / Bot Home" });
  });

  test("changing only the case of the username keeps the projects reachable by either case", async () => {
    const alice = await createUser(app, "alice");
    const project = await createProject(alice.api, { name: "Billing" });
    await editUser(alice.id, { username: "Alice" });
    const after = await eventually(
      () => root.get(`/projects/${project.id}`),
      (r) => r.body.path_with_namespace === "Alice/billing",
    );
    expect(after.body.path_with_namespace).toBe("Alice/billing");
    expect((await root.get("/projects/alice%2Fbilling")).status).toBe(200);
  });
});
