import { Gitlab } from "@gitbeaker/rest";
import { apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser, type GitbeakerUser as User } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Members of groups and projects through the HTTP gateway: adding, listing (direct and inherited),
 * reading, changing and removing members, with the role rules and error bodies GitLab answers.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("members");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

/** A user ("alice" is named "Alice" unless `name` says otherwise) with an `api` token and a gitbeaker client, created by root. */
const createUser = (username: string, name?: string) => createGitbeakerUser(app, username, name === undefined ? {} : { name });

/** YYYY-MM-DD, `days` from today (UTC, as the server counts). */
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

type Kind = "groups" | "projects";

/**
 * A private group or a private personal project, owned by `owner` (its only direct member), with a
 * Maintainer and a Developer added by the owner.
 */
async function container(kind: Kind) {
  const [owner, maint, dev] = [await createUser("owner"), await createUser("maint"), await createUser("dev")];
  const created = kind === "groups" ? await owner.api.post("/groups", { json: { name: "Team", path: "team" } }) : await owner.api.post("/projects", { json: { name: "App" } });
  expect(created.status).toBe(201);
  const id: number = created.body.id;
  for (const [user, level] of [
    [maint, 40],
    [dev, 30],
  ] as const) {
    const res = await owner.api.post(`/${kind}/${id}/members`, { json: { user_id: user.id, access_level: level } });
    expect(res.status).toBe(201);
  }
  const base = `/${kind}/${id}/members`;
  return { owner, maint, dev, id, base };
}

const levels = (body: { username: string; access_level: number }[]) => body.map((m) => [m.username, m.access_level]);

describe.each(["groups", "projects"] as const)("/%s/:id/members", (kind) => {
  const notFound = { message: kind === "groups" ? "404 Group Not Found" : "404 Project Not Found" };
  const members = (gl: InstanceType<typeof Gitlab>) => (kind === "groups" ? gl.GroupMembers : gl.ProjectMembers);

  describe("POST", () => {
    test("adds members by user_id or username with @gitbeaker/rest", async () => {
      const { owner, id } = await container(kind);
      const [alice, bob] = [await createUser("alice"), await createUser("bob")];
      const added = await members(owner.gl).add(id, 20, { userId: alice.id, expiresAt: day(30) });
      expect(added).toMatchObject({
        id: alice.id,
        username: "alice",
        name: "Alice",
        state: "active",
        access_level: 20,
        expires_at: day(30),
        web_url: "http://collab.test/alice",
        created_by: { id: owner.id, username: "owner" },
        membership_state: "active",
      });
      const byName = await members(owner.gl).add(id, 10, { username: "BOB" });
      expect(byName).toMatchObject({ id: bob.id, access_level: 10, expires_at: null });

      const listed = await members(owner.gl).all(id);
      expect(levels(listed as never)).toEqual([
        ["owner", 50],
        ["maint", 40],
        ["dev", 30],
        ["alice", 20],
        ["bob", 10],
      ]);
    });

    test("parameter errors: access_level must be a valid level, one of user_id or username is required", async () => {
      const { owner, base } = await container(kind);
      const alice = await createUser("alice");
      // GitLab declares access_level a bare Integer: a level no membership holds is the model's error.
      for (const level of [35, 60, -1, 0]) {
        const res = await owner.api.post(base, { json: { user_id: alice.id, access_level: level } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: { access_level: ["is not included in the list"] } });
      }
      expect((await owner.api.post(base, { json: { user_id: alice.id, access_level: "high" } })).body).toEqual({ error: "access_level is invalid" });
      const missing = await owner.api.post(base, { json: { user_id: alice.id } });
      expect(missing.body).toEqual({ error: "access_level is missing" });
      const nobody = await owner.api.post(base, { json: { access_level: 30 } });
      expect(nobody.status).toBe(400);
      expect(nobody.body).toEqual({ error: "user_id, username are missing, at least one parameter must be provided" });
      const both = await owner.api.post(base, { json: { user_id: alice.id, username: "alice", access_level: 30 } });
      expect(both.body).toEqual({ error: "user_id, username are mutually exclusive" });
      const badDate = await owner.api.post(base, { json: { user_id: alice.id, access_level: 30, expires_at: "next week" } });
      expect(badDate.body).toEqual({ error: "expires_at is invalid" });
    });

    test("an expiry date in the past is rejected; today and later are accepted", async () => {
      const { owner, base } = await container(kind);
      const [alice, bob] = [await createUser("alice"), await createUser("bob")];
      const past = await owner.api.post(base, { json: { user_id: alice.id, access_level: 30, expires_at: day(-1) } });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ message: { expires_at: ["cannot be a date in the past"] } });
      expect((await owner.api.get(base, { query: { user_ids: [alice.id] } })).body).toEqual([]);

      expect((await owner.api.post(base, { json: { user_id: alice.id, access_level: 30, expires_at: day(1) } })).status).toBe(201);
      expect((await owner.api.post(base, { json: { user_id: bob.id, access_level: 30, expires_at: day(0) } })).status).toBe(201);
    });

    test("an existing member answers 409, an unknown user 404", async () => {
      const { owner, dev, base } = await container(kind);
      const dup = await owner.api.post(base, { json: { user_id: dev.id, access_level: 10 } });
      expect(dup.status).toBe(409);
      expect(dup.body).toEqual({ message: "Member already exists" });
      for (const who of [{ user_id: 99999 }, { username: "ghost" }]) {
        const res = await owner.api.post(base, { json: { ...who, access_level: 30 } });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: "404 User Not Found" });
      }
    });

    test("who may add: not Developers, not Maintainers granting Owner, nobody anonymous; outsiders do not see the source", async () => {
      const { maint, dev, base } = await container(kind);
      const [alice, outsider] = [await createUser("alice"), await createUser("outsider")];
      const byDev = await dev.api.post(base, { json: { user_id: alice.id, access_level: 10 } });
      expect(byDev.status).toBe(403);
      expect(byDev.body).toEqual({ message: "403 Forbidden" });

      const ownerByMaint = await maint.api.post(base, { json: { user_id: alice.id, access_level: 50 } });
      expect(ownerByMaint.status).toBe(403);
      expect(ownerByMaint.body).toEqual({ message: "403 Forbidden" });

      // Project Maintainers manage members below Owner; group members are the Owners' business.
      const byMaint = await maint.api.post(base, { json: { user_id: alice.id, access_level: 30 } });
      expect(byMaint.status).toBe(kind === "projects" ? 201 : 403);

      const anonymous = await apiClient(app.url).post(base, { json: { user_id: outsider.id, access_level: 10 } });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ message: "401 Unauthorized" });

      const hidden = await outsider.api.post(base, { json: { user_id: outsider.id, access_level: 50 } });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(notFound);
      expect((await outsider.api.get(base)).body).toEqual(notFound);
    });
  });

  describe("GET list", () => {
    test("query matches name, username or email; user_ids and skip_users filter", async () => {
      const { owner, base } = await container(kind);
      const [alice, bob] = [await createUser("alice", "Alice Liddell"), await createUser("bob", "Robert Paulson")];
      for (const u of [alice, bob]) expect((await owner.api.post(base, { json: { user_id: u.id, access_level: 20 } })).status).toBe(201);
      const q = async (query: Record<string, string | number | (string | number)[]>) => (await owner.api.get(base, { query })).body.map((m: { username: string }) => m.username);

      expect(await q({ query: "liddell" })).toEqual(["alice"]);
      expect(await q({ query: "BO" })).toEqual(["bob"]);
      expect(await q({ query: "maint@example" })).toEqual(["maint"]);
      expect(await q({ query: "nobody" })).toEqual([]);
      expect(await q({ user_ids: [alice.id, bob.id] })).toEqual(["alice", "bob"]);
      expect(await q({ skip_users: [owner.id, alice.id] })).toEqual(["maint", "dev", "bob"]);
      expect(await q({ query: "example.com", skip_users: [bob.id] })).toEqual(["owner", "maint", "dev", "alice"]);
    });

    test("pages carry pagination headers", async () => {
      const { owner, base } = await container(kind);
      const res = await owner.api.get(base, { query: { per_page: 2, page: 2 } });
      expect(levels(res.body)).toEqual([["dev", 30]]);
      expect(res.headers.get("x-total")).toBe("3");
      expect(res.headers.get("x-total-pages")).toBe("2");
      expect(res.headers.get("x-prev-page")).toBe("1");
      expect(res.headers.get("x-next-page")).toBe("");
      expect(res.headers.get("link")).toContain('rel="prev"');
    });

    test("GET /members/:user_id reads one direct member, 404 otherwise", async () => {
      const { dev, id, base } = await container(kind);
      const alice = await createUser("alice");
      const one = await members(dev.gl).show(id, dev.id);
      expect(one).toMatchObject({ id: dev.id, username: "dev", access_level: 30 });
      const missing = await dev.api.get(`${base}/${alice.id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: "404 Not found" });
      expect((await dev.api.get(`${base}/all/${alice.id}`)).body).toEqual({ message: "404 Not found" });
    });
  });

  describe("PUT", () => {
    test("changes access_level and expires_at", async () => {
      const { owner, dev, id, base } = await container(kind);
      const edited = await members(owner.gl).edit(id, dev.id, 20, { expiresAt: day(10) });
      expect(edited).toMatchObject({ id: dev.id, access_level: 20, expires_at: day(10) });
      expect((await owner.api.get(`${base}/${dev.id}`)).body).toMatchObject({ access_level: 20, expires_at: day(10) });

      const past = await owner.api.put(`${base}/${dev.id}`, { json: { access_level: 20, expires_at: day(-3) } });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ message: { expires_at: ["cannot be a date in the past"] } });
      expect((await owner.api.get(`${base}/${dev.id}`)).body.expires_at).toBe(day(10));

      const bad = await owner.api.put(`${base}/${dev.id}`, { json: { access_level: 45 } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ message: { access_level: ["is not included in the list"] } });
      const nonMember = await owner.api.put(`${base}/99999`, { json: { access_level: 30 } });
      expect(nonMember.status).toBe(404);
      expect(nonMember.body).toEqual({ message: "404 Not found" });
    });

    test("Developers cannot change members; Maintainers cannot promote to Owner", async () => {
      const { maint, dev, base } = await container(kind);
      expect((await dev.api.put(`${base}/${dev.id}`, { json: { access_level: 40 } })).status).toBe(403);
      expect((await maint.api.put(`${base}/${dev.id}`, { json: { access_level: 50 } })).status).toBe(403);
      expect((await root.get(`${base}/${dev.id}`)).body.access_level).toBe(30);
    });
  });

  describe("DELETE", () => {
    test("removes a member (204) and with it their access", async () => {
      const { owner, dev, id, base } = await container(kind);
      const resource = `/${kind}/${id}`;
      expect((await dev.api.get(resource)).status).toBe(200);
      const res = await owner.api.delete(`${base}/${dev.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe("");
      expect(levels((await owner.api.get(base)).body)).toEqual([
        ["owner", 50],
        ["maint", 40],
      ]);
      const gone = await dev.api.get(resource);
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(notFound);
      expect((await owner.api.delete(`${base}/${dev.id}`)).body).toEqual({ message: "404 Not found" });
    });

    test("members may leave on their own; Developers cannot remove others", async () => {
      const { maint, dev, id, base } = await container(kind);
      const denied = await dev.api.delete(`${base}/${maint.id}`);
      expect(denied.status).toBe(403);
      await members(dev.gl).remove(id, dev.id);
      expect((await dev.api.get(`/${kind}/${id}`)).status).toBe(404);
      expect(levels((await maint.api.get(base)).body)).toEqual([
        ["owner", 50],
        ["maint", 40],
      ]);
    });
  });

  test("an expired membership grants nothing", async () => {
    const { owner, id, base } = await container(kind);
    const alice = await createUser("alice");
    // A membership expiring today has already ended (it counts until the day before).
    expect((await owner.api.post(base, { json: { user_id: alice.id, access_level: 30, expires_at: day(0) } })).status).toBe(201);
    const hidden = await alice.api.get(`/${kind}/${id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(notFound);
    const mine = kind === "groups" ? await alice.api.get("/groups") : await alice.api.get("/projects", { query: { membership: true } });
    expect(mine.body).toEqual([]);
  });
});

describe("inherited members", () => {
  /** corp (root Owner) → corp/team → corp/team/app; alice Reporter in corp, Developer in team and Guest on app; carol Maintainer in corp, Guest on app. */
  async function hierarchy() {
    const [alice, carol, dave] = [await createUser("alice"), await createUser("carol"), await createUser("dave")];
    const corp = (await root.post("/groups", { json: { name: "Corp", path: "corp" } })).body;
    const team = (await root.post("/groups", { json: { name: "Team", path: "team", parent_id: corp.id } })).body;
    const app_ = (await root.post("/projects", { json: { name: "App", namespace_id: team.id } })).body;
    const add = async (kind: Kind, id: number, user: User, level: number) =>
      expect((await root.post(`/${kind}/${id}/members`, { json: { user_id: user.id, access_level: level } })).status).toBe(201);
    await add("groups", corp.id, alice, 20);
    await add("groups", team.id, alice, 30);
    await add("projects", app_.id, alice, 10);
    await add("groups", corp.id, carol, 40);
    await add("projects", app_.id, carol, 10);
    await add("projects", app_.id, dave, 20);
    return { alice, carol, dave, corp, team, app: app_ };
  }

  test("/members lists direct members only; /members/all adds ancestors' members at each user's highest level", async () => {
    const { alice, carol, dave, team, app: project } = await hierarchy();
    const gl = new Gitlab({ host: app.url, token: app.rootToken });
    const only = { userIds: [alice.id, carol.id, dave.id] };

    expect(levels((await gl.ProjectMembers.all(project.id, only)) as never)).toEqual([
      ["alice", 10],
      ["carol", 10],
      ["dave", 20],
    ]);
    const all = await gl.ProjectMembers.all(project.id, { ...only, includeInherited: true });
    expect(Object.fromEntries(levels(all as never))).toEqual({ alice: 30, carol: 40, dave: 20 });

    expect(levels((await root.get(`/groups/${team.id}/members`)).body)).toEqual([
      ["root", 50],
      ["alice", 30],
    ]);
    const groupAll = await root.get(`/groups/${team.id}/members/all`, { query: { per_page: 100 } });
    expect(Object.fromEntries(levels(groupAll.body))).toEqual({ root: 50, alice: 30, carol: 40 });
    expect(groupAll.headers.get("x-total")).toBe("3");
  });

  test("/members/:user_id is direct only; /members/all/:user_id finds inherited members", async () => {
    const { carol, team, app: project } = await hierarchy();
    const direct = await root.get(`/groups/${team.id}/members/${carol.id}`);
    expect(direct.status).toBe(404);
    expect(direct.body).toEqual({ message: "404 Not found" });
    const inherited = await root.get(`/groups/${team.id}/members/all/${carol.id}`);
    expect(inherited.status).toBe(200);
    expect(inherited.body).toMatchObject({ id: carol.id, access_level: 40 });

    const gl = new Gitlab({ host: app.url, token: app.rootToken });
    expect(await gl.ProjectMembers.show(project.id, carol.id)).toMatchObject({ access_level: 10 });
    expect(await gl.ProjectMembers.show(project.id, carol.id, { includeInherited: true })).toMatchObject({ access_level: 40 });
  });

  test("removing an inherited membership takes away the project below at once", async () => {
    const { carol, corp, app: project } = await hierarchy();
    expect((await carol.api.get(`/projects/${project.id}`)).status).toBe(200);
    expect((await root.delete(`/projects/${project.id}/members/${carol.id}`)).status).toBe(204);
    expect((await carol.api.get(`/projects/${project.id}`)).status).toBe(200); // still Maintainer through corp
    expect((await root.delete(`/groups/${corp.id}/members/${carol.id}`)).status).toBe(204);
    const gone = await carol.api.get(`/projects/${project.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ message: "404 Project Not Found" });
  });
});

describe("the last Owner of a group", () => {
  test("cannot be demoted or leave until another Owner exists", async () => {
    const [owner, alice] = [await createUser("owner"), await createUser("alice")];
    const group = (await owner.api.post("/groups", { json: { name: "Team", path: "team" } })).body;
    const base = `/groups/${group.id}/members`;

    const demote = await owner.api.put(`${base}/${owner.id}`, { json: { access_level: 40 } });
    expect(demote.status).toBe(403);
    expect(demote.body).toEqual({ message: "403 Forbidden" });
    const leave = await owner.api.delete(`${base}/${owner.id}`);
    expect(leave.status).toBe(403);
    const byAdmin = await root.delete(`${base}/${owner.id}`);
    expect(byAdmin.status).toBe(403);

    expect((await owner.api.post(base, { json: { user_id: alice.id, access_level: 50 } })).status).toBe(201);
    expect((await owner.api.put(`${base}/${owner.id}`, { json: { access_level: 40 } })).status).toBe(200);
    expect((await alice.api.delete(`${base}/${owner.id}`)).status).toBe(204);
    expect(levels((await alice.api.get(base)).body)).toEqual([["alice", 50]]);
    expect((await alice.api.delete(`${base}/${alice.id}`)).status).toBe(403);
  });

  test("of a subgroup may step down while an Owner of a parent group remains", async () => {
    const maint = await createUser("maint");
    const corp = (await root.post("/groups", { json: { name: "Corp", path: "corp" } })).body;
    expect((await root.post(`/groups/${corp.id}/members`, { json: { user_id: maint.id, access_level: 40 } })).status).toBe(201);
    // A Maintainer of corp creates the subgroup and is its only direct Owner; root owns corp.
    const team = (await maint.api.post("/groups", { json: { name: "Team", path: "team", parent_id: corp.id } })).body;
    expect(levels((await root.get(`/groups/${team.id}/members`)).body)).toEqual([["maint", 50]]);
    const res = await maint.api.put(`/groups/${team.id}/members/${maint.id}`, { json: { access_level: 40 } });
    expect(res.status).toBe(200);
    expect(res.body.access_level).toBe(40);
  });
});
