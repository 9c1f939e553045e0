import { Gitlab } from "@gitbeaker/rest";
import { apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, type GitbeakerUser as User } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * The members API beyond the basics of members.e2e.test.ts: the permission matrix of every route by
 * role, the list filters (query, user_ids, skip_users, show_seat_info, state), several users in one
 * POST, member_role_id, and the billable members of top-level groups (Ultimate, the default tier).
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("members-full");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const createUser = (username: string, extra: Record<string, unknown> = {}) => createGitbeakerUser(app, username, extra);
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const names = (body: { username: string }[]) => body.map((m) => m.username);

type Kind = "groups" | "projects";
const ROLES = [
  ["guest", 10],
  ["reporter", 20],
  ["developer", 30],
  ["maintainer", 40],
] as const;

/** A private group (root owns it, `owner` is an Owner) or a private project in it, with one user per role. */
async function matrix(kind: Kind) {
  const owner = await createUser("owner");
  const group = (await root.post("/groups", { json: { name: "Team", path: "team" } })).body;
  const project = kind === "projects" ? (await root.post("/projects", { json: { name: "App", namespace_id: group.id } })).body : undefined;
  const id: number = project ? project.id : group.id;
  const users: Record<string, User> = { owner };
  expect((await root.post(`/${kind}/${id}/members`, { json: { user_id: owner.id, access_level: 50 } })).status).toBe(201);
  for (const [name, level] of ROLES) {
    users[name] = await createUser(name);
    expect((await root.post(`/${kind}/${id}/members`, { json: { user_id: users[name].id, access_level: level } })).status).toBe(201);
  }
  users.outsider = await createUser("outsider");
  users.target = await createUser("target");
  return { id, users, base: `/${kind}/${id}/members` };
}

describe.each(["groups", "projects"] as const)("/%s/:id/members permission matrix", (kind) => {
  const hidden = { message: kind === "groups" ? "404 Group Not Found" : "404 Project Not Found" };
  /** Who manages members: project Maintainers, group Owners (and administrators). */
  const manages = (who: string) => who === "owner" || who === "admin" || (kind === "projects" && who === "maintainer");

  test("reads: anonymous 401, outsiders 404 on a private source, every member and administrators 200", async () => {
    const { users, base } = await matrix(kind);
    for (const path of [base, `${base}/all`, `${base}/${users.guest.id}`, `${base}/all/${users.guest.id}`]) {
      expect(await apiClient(app.url).get(path)).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
      expect(await users.outsider.api.get(path)).toMatchObject({ status: 404, body: hidden });
      for (const who of ["guest", "reporter", "developer", "maintainer", "owner"]) expect((await users[who].api.get(path)).status).toBe(200);
      expect((await root.get(path)).status).toBe(200);
    }
  });

  test.each(["guest", "reporter", "developer", "maintainer", "owner", "admin"])("writes by %s", async (who) => {
    const { users, base } = await matrix(kind);
    const api = who === "admin" ? root : users[who].api;
    const expected = manages(who) ? [201, 200, 204] : [403, 403, 403];
    const add = await api.post(base, { json: { user_id: users.target.id, access_level: 20 } });
    expect(add.status).toBe(expected[0]);
    if (add.status !== 201) await root.post(base, { json: { user_id: users.target.id, access_level: 20 } });
    const edit = await api.put(`${base}/${users.target.id}`, { json: { access_level: 30 } });
    expect(edit.status).toBe(expected[1]);
    const remove = await api.delete(`${base}/${users.target.id}`);
    expect(remove.status).toBe(expected[2]);
    if (!manages(who)) for (const res of [add, edit, remove]) expect(res.body).toEqual({ message: "403 Forbidden" });
    // Outsiders and anonymous callers never learn the source exists.
    expect(await users.outsider.api.post(base, { json: { user_id: users.target.id, access_level: 20 } })).toMatchObject({ status: 404, body: hidden });
    expect((await apiClient(app.url).delete(`${base}/${users.target.id}`)).status).toBe(401);
  });

  test("no one grants or edits above their own level; Owners and administrators grant Owner", async () => {
    const { users, base } = await matrix(kind);
    if (kind === "projects") {
      const maint = users.maintainer.api;
      expect(await maint.post(base, { json: { user_id: users.target.id, access_level: 50 } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
      expect((await maint.put(`${base}/${users.developer.id}`, { json: { access_level: 50 } })).status).toBe(403);
      expect((await maint.put(`${base}/${users.owner.id}`, { json: { access_level: 30 } })).status).toBe(403);
      expect((await maint.delete(`${base}/${users.owner.id}`)).status).toBe(403);
      expect((await maint.post(base, { json: { user_id: users.target.id, access_level: 40 } })).status).toBe(201);
    }
    expect((await users.owner.api.put(`${base}/${users.developer.id}`, { json: { access_level: 50 } })).status).toBe(200);
    expect((await root.put(`${base}/${users.reporter.id}`, { json: { access_level: 50 } })).status).toBe(200);
  });
});

describe("list filters", () => {
  async function team() {
    const [alice, bob, carol] = [await createUser("alice", { name: "Alice Liddell" }), await createUser("bob", { name: "Robert Paulson" }), await createUser("carol")];
    const corp = (await root.post("/groups", { json: { name: "Corp", path: "corp" } })).body;
    const sub = (await root.post("/groups", { json: { name: "Sub", path: "sub", parent_id: corp.id } })).body;
    await root.post(`/groups/${corp.id}/members`, { json: { user_id: alice.id, access_level: 30 } });
    await root.post(`/groups/${sub.id}/members`, { json: { user_id: bob.id, access_level: 20, expires_at: day(7) } });
    await root.post(`/groups/${sub.id}/members`, { json: { user_id: alice.id, access_level: 10 } });
    await root.post(`/groups/${sub.id}/members`, { json: { user_id: carol.id, access_level: 40 } });
    return { alice, bob, carol, corp, sub };
  }

  test("query is a partial match on name, username or e-mail, in /members and /members/all", async () => {
    const { sub } = await team();
    const q = async (path: string, query: string) => names((await root.get(`/groups/${sub.id}/${path}`, { query: { query } })).body);
    expect(await q("members", "LIDD")).toEqual(["alice"]);
    expect(await q("members", "paul")).toEqual(["bob"]);
    expect(await q("members", "carol@exam")).toEqual(["carol"]);
    expect(await q("members", "zzz")).toEqual([]);
    expect(await q("members/all", "root")).toEqual(["root"]);
    // Ordered by membership: root's of sub (made with it), then alice's highest (Developer of corp).
    expect(await q("members/all", "example.com")).toEqual(["root", "alice", "bob", "carol"]);
  });

  test("user_ids and skip_users (/members only) filter; /members/all keeps each user's highest level", async () => {
    const { alice, bob, carol, sub } = await team();
    const get = async (path: string, query: Record<string, (string | number)[] | string>) => (await root.get(`/groups/${sub.id}/${path}`, { query })).body;
    expect(names(await get("members", { user_ids: [alice.id, carol.id] }))).toEqual(["alice", "carol"]);
    expect(names(await get("members", { user_ids: `${alice.id},${bob.id}` }))).toEqual(["bob", "alice"]);
    expect(names(await get("members", { skip_users: [alice.id, bob.id] }))).toEqual(["root", "carol"]);
    const all = await get("members/all", { user_ids: [alice.id], skip_users: [alice.id] });
    expect(all).toMatchObject([{ username: "alice", access_level: 30 }]);
    expect((await get("members", { user_ids: [bob.id] }))[0]).toMatchObject({ expires_at: day(7) });
  });

  test("show_seat_info adds is_using_seat (Ultimate: a billable role anywhere); state=awaiting matches nobody", async () => {
    const { alice, sub } = await team();
    const guestOnly = await createUser("guestonly");
    await root.post(`/groups/${sub.id}/members`, { json: { user_id: guestOnly.id, access_level: 10 } });
    const seats = (await root.get(`/groups/${sub.id}/members`, { query: { show_seat_info: true } })).body;
    expect(Object.fromEntries(seats.map((m: { username: string; is_using_seat: boolean }) => [m.username, m.is_using_seat]))).toEqual({
      root: true,
      alice: true, // Guest here, Developer in corp
      bob: true,
      carol: true,
      guestonly: false,
    });
    expect((await root.get(`/groups/${sub.id}/members`)).body[0]).not.toHaveProperty("is_using_seat");
    expect((await root.get(`/groups/${sub.id}/members/all`, { query: { state: "awaiting" } })).body).toEqual([]);
    expect(names((await root.get(`/groups/${sub.id}/members/all`, { query: { state: "active", user_ids: [alice.id] } })).body)).toEqual(["alice"]);
    expect((await root.get(`/groups/${sub.id}/members/all`, { query: { state: "waiting" } })).body).toEqual({ error: "state does not have a valid value" });
  });

  test("no member shows an e-mail address (there are no enterprise users); group_saml_identity stays null", async () => {
    const { sub } = await team();
    for (const m of (await root.get(`/groups/${sub.id}/members/all`)).body) {
      expect(m).not.toHaveProperty("email");
      expect(m.group_saml_identity).toBeNull();
    }
  });
});

describe("adding members", () => {
  test("several users in one POST answer {status}; errors name each user, the others are added", async () => {
    const [owner, alice, bob, carol] = [await createUser("owner"), await createUser("alice"), await createUser("bob"), await createUser("carol")];
    const group = (await owner.api.post("/groups", { json: { name: "Team", path: "team" } })).body;
    const base = `/groups/${group.id}/members`;
    const both = await owner.api.post(base, { json: { user_id: `${alice.id},${bob.id}`, access_level: 30 } });
    expect(both.status).toBe(201);
    expect(both.body).toEqual({ status: "success" });
    const again = await owner.api.post(base, { json: { username: "alice,carol", access_level: 20 } });
    expect(again.body).toEqual({ status: "error", message: "alice: User already exists in source" });
    expect(names((await owner.api.get(base)).body)).toEqual(["owner", "alice", "bob", "carol"]);
    const bad = await owner.api.post(base, { json: { user_id: `${alice.id},${bob.id}`, access_level: 0 } });
    expect(bad.body).toEqual({ status: "error", message: "alice: Access level is not included in the list and bob: Access level is not included in the list" });
  });

  test("expires_at and member_role_id (Ultimate: stored and shown as the member's role)", async () => {
    const [owner, alice] = [await createUser("owner"), await createUser("alice")];
    const project = (await owner.api.post("/projects", { json: { name: "App" } })).body;
    const gl = new Gitlab({ host: app.url, token: owner.token });
    const added = await gl.ProjectMembers.add(project.id, 30, { userId: alice.id, expiresAt: day(3), memberRoleId: 7 } as never);
    expect(added).toMatchObject({ id: alice.id, access_level: 30, expires_at: day(3), member_role: { id: 7, base_access_level: 30 } });
    const edited = await owner.api.put(`/projects/${project.id}/members/${alice.id}`, { json: { access_level: 20, expires_at: "" } });
    expect(edited.body).toMatchObject({ access_level: 20, expires_at: null, member_role: { id: 7 } });
    expect((await owner.api.post(`/projects/${project.id}/members`, { json: { user_id: alice.id, access_level: 20, member_role_id: "x" } })).body).toEqual({
      error: "member_role_id is invalid",
    });
  });

  test("Minimal Access is a level of top-level groups only", async () => {
    const [owner, alice, bob] = [await createUser("owner"), await createUser("alice"), await createUser("bob")];
    const group = (await owner.api.post("/groups", { json: { name: "Team", path: "team" } })).body;
    const sub = (await owner.api.post("/groups", { json: { name: "Sub", path: "sub", parent_id: group.id } })).body;
    expect((await owner.api.post(`/groups/${group.id}/members`, { json: { user_id: alice.id, access_level: 5 } })).body).toMatchObject({ access_level: 5 });
    const inSub = await owner.api.post(`/groups/${sub.id}/members`, { json: { user_id: bob.id, access_level: 5 } });
    expect(inSub.status).toBe(400);
    expect(inSub.body).toEqual({ message: { access_level: ["is not included in the list"] } });
  });
});

describe("billable members of a top-level group", () => {
  /**
   * corp: root and owner Owners; dev Developer in corp/sub; planner Planner in corp; guest Guest in
   * corp; minimal Minimal Access in corp; pdev Developer of corp/sub/app only; blocked (Developer,
   * blocked) and expired (Developer, expired) never count.
   */
  async function corp() {
    const users: Record<string, User> = {};
    for (const name of ["owner", "dev", "planner", "guest", "minimal", "pdev", "blocked", "late"]) users[name] = await createUser(name, name === "pdev" ? { name: "Zed Pdev" } : {});
    const group = (await root.post("/groups", { json: { name: "Corp", path: "corp" } })).body;
    const sub = (await root.post("/groups", { json: { name: "Sub", path: "sub", parent_id: group.id } })).body;
    const project = (await root.post("/projects", { json: { name: "App", namespace_id: sub.id } })).body;
    const add = async (kind: Kind, id: number, user: User, level: number, extra: Record<string, unknown> = {}) =>
      expect((await root.post(`/${kind}/${id}/members`, { json: { user_id: user.id, access_level: level, ...extra } })).status).toBe(201);
    await add("groups", group.id, users.owner, 50);
    await add("groups", sub.id, users.dev, 30);
    await add("groups", group.id, users.planner, 15);
    await add("groups", group.id, users.guest, 10);
    await add("groups", group.id, users.minimal, 5);
    await add("projects", project.id, users.pdev, 30);
    await add("projects", project.id, users.guest, 10);
    await add("groups", group.id, users.blocked, 30);
    await add("groups", group.id, users.late, 30, { expires_at: day(0) });
    expect((await root.post(`/users/${users.blocked.id}/block`)).status).toBe(201);
    return { users, group, sub, project, base: `/groups/${group.id}/billable_members` };
  }

  test("lists the people who take a seat (Ultimate: above Guest), with GitLab's fields", async () => {
    const { users, base } = await corp();
    const res = await users.owner.api.get(base);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(["root", "owner", "dev", "planner", "pdev"]);
    expect(res.headers.get("x-total")).toBe("5");
    const dev = res.body.find((m: { username: string }) => m.username === "dev");
    expect(dev).toEqual({
      id: users.dev.id,
      username: "dev",
      name: "Dev",
      state: "active",
      locked: false,
      avatar_url: null,
      web_url: "http://collab.test/dev",
      email: null,
      last_activity_on: null,
      membership_type: "group_member",
      removable: true,
      created_at: expect.any(String),
      is_last_owner: false,
      last_login_at: null,
    });
    expect(res.body.find((m: { username: string }) => m.username === "pdev")).toMatchObject({ membership_type: "project_member" });
    // Administrators see the primary address.
    expect((await root.get(base)).body.find((m: { username: string }) => m.username === "dev").email).toBe("dev@example.com");
  });

  test("every sort of the spec, search and pages", async () => {
    const { users, base } = await corp();
    const sorted = async (sort: string) => names((await users.owner.api.get(base, { query: { sort } })).body);
    // By name: root is "Administrator", pdev "Zed Pdev".
    expect(await sorted("name_asc")).toEqual(["root", "dev", "owner", "planner", "pdev"]);
    expect(await sorted("name_desc")).toEqual(["pdev", "planner", "owner", "dev", "root"]);
    expect(await sorted("access_level_desc")).toEqual(["root", "owner", "dev", "pdev", "planner"]);
    expect(await sorted("access_level_asc")).toEqual(["planner", "dev", "pdev", "root", "owner"]);
    expect(await sorted("oldest_joined")).toEqual(["root", "owner", "dev", "planner", "pdev"]);
    expect(await sorted("last_joined")).toEqual(["pdev", "planner", "dev", "owner", "root"]);
    // Sign-ins and activity are not recorded: those sorts keep the id order.
    for (const sort of ["recent_sign_in", "oldest_sign_in", "last_activity_on_asc", "last_activity_on_desc"]) expect(await sorted(sort)).toEqual(["root", "owner", "dev", "planner", "pdev"]);
    expect((await users.owner.api.get(base, { query: { sort: "newest" } })).body).toEqual({ error: "sort does not have a valid value" });
    expect(names((await users.owner.api.get(base, { query: { search: "pde" } })).body)).toEqual(["pdev"]);
    const paged = await users.owner.api.get(base, { query: { per_page: 2, page: 3, sort: "name_asc" } });
    expect(names(paged.body)).toEqual(["pdev"]);
    expect(paged.headers.get("x-total")).toBe("5");
    expect(paged.headers.get("x-total-pages")).toBe("3");
  });

  test("Owners only (others 400, outsiders 404); top-level groups only (400)", async () => {
    const { users, sub, base } = await corp();
    expect(await users.dev.api.get(base)).toMatchObject({ status: 400, body: { message: "400 Bad request" } });
    const outsider = await createUser("outsider");
    expect(await outsider.api.get(base)).toMatchObject({ status: 404, body: { message: "404 Group Not Found" } });
    expect(await apiClient(app.url).get(base)).toMatchObject({ status: 401 });
    expect(await root.get(`/groups/${sub.id}/billable_members`)).toMatchObject({ status: 400, body: { message: "400 Bad request" } });
  });

  test("a billable member's memberships in the hierarchy", async () => {
    const { users, group, sub, project, base } = await corp();
    await root.post(`/groups/${group.id}/members`, { json: { user_id: users.pdev.id, access_level: 10 } });
    const res = await users.owner.api.get(`${base}/${users.pdev.id}/memberships`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.any(Number),
        source_id: project.id,
        source_full_name: "Corp / Sub / App",
        source_members_url: "http://collab.test/corp/sub/app/-/project_members",
        created_at: expect.any(String),
        expires_at: null,
        access_level: { string_value: "Developer", integer_value: 30, custom_role: null },
      },
      {
        id: expect.any(Number),
        source_id: group.id,
        source_full_name: "Corp",
        source_members_url: "http://collab.test/groups/corp/-/group_members",
        created_at: expect.any(String),
        expires_at: null,
        access_level: { string_value: "Guest", integer_value: 10, custom_role: null },
      },
    ]);
    expect(await users.owner.api.get(`${base}/${users.guest.id}/memberships`)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await users.owner.api.get(`${base}/999999/memberships`)).toMatchObject({ status: 404, body: { message: "404 Not found" } });
    expect(await users.dev.api.get(`${base}/${users.pdev.id}/memberships`)).toMatchObject({ status: 400 });
    expect(await root.get(`/groups/${sub.id}/billable_members/${users.dev.id}/memberships`)).toMatchObject({ status: 400 });
  });

  test("DELETE removes a billable member from the whole hierarchy (204)", async () => {
    const { users, group, project, base } = await corp();
    await root.post(`/groups/${group.id}/members`, { json: { user_id: users.pdev.id, access_level: 10 } });
    expect((await users.pdev.api.get(`/projects/${project.id}`)).status).toBe(200);
    expect(await users.dev.api.delete(`${base}/${users.pdev.id}`)).toMatchObject({ status: 400, body: { message: "400 Bad request - User not authorized" } });
    const res = await users.owner.api.delete(`${base}/${users.pdev.id}`);
    expect(res.status).toBe(204);
    expect((await users.pdev.api.get(`/projects/${project.id}`)).status).toBe(404);
    expect((await root.get(`/groups/${group.id}/members/${users.pdev.id}`)).status).toBe(404);
    expect(names((await users.owner.api.get(base)).body)).toEqual(["root", "owner", "dev", "planner"]);
    expect(await users.owner.api.delete(`${base}/${users.pdev.id}`)).toMatchObject({ status: 404, body: { message: "404 User Not Found" } });
    expect(await users.owner.api.delete(`${base}/${users.guest.id}`)).toMatchObject({ status: 404 });
  });

  test("the only Owner is flagged and cannot be removed", async () => {
    const owner = await createUser("owner");
    const group = (await owner.api.post("/groups", { json: { name: "Solo", path: "solo" } })).body;
    const base = `/groups/${group.id}/billable_members`;
    expect((await owner.api.get(base)).body).toMatchObject([{ username: "owner", is_last_owner: true }]);
    expect(await owner.api.delete(`${base}/${owner.id}`)).toMatchObject({ status: 400, body: { message: "400 Bad request - Members who are the last owner cannot be removed" } });
  });
});
