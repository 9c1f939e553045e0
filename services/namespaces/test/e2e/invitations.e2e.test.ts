import { apiClient, eventually, startMailbox, type ApiClient, type Mailbox, type TestApp } from "@collab/testing";
import { randomBytes } from "node:crypto";
import { startApp } from "@collab/standalone/test/app";
import { createGitbeakerUser } from "@collab/standalone/test/gitbeaker.fixtures";

/**
 * Invitations of groups and projects through the HTTP gateway: inviting by address and user id,
 * GitLab's per-invitee answers, listing, changing and removing invitations, the invitation mail
 * RECEIVED over SMTP, and the ways an invitation becomes a membership: following the mail's link,
 * creating a user with the address, confirming the address.
 *
 * The mail: in one process this file starts an SMTP receiver before the app and points SMTP_URL at
 * it; in the distributed pass the jest globalSetup's receiver gets every service's mail and this
 * file reads it from its folder (startMailbox in @collab/testing). Addresses carry a random tag so
 * that mails of other test files never match.
 */
let app: TestApp;
let mailbox: Mailbox;
let root: ApiClient;
beforeAll(async () => {
  mailbox = await startMailbox();
  app = await startApp("invitations");
});
afterAll(async () => {
  await app.stop();
  await mailbox.stop();
});
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const tag = () => randomBytes(4).toString("hex");
/** An address nobody has, unique to this run. */
const address = (name: string) => `${name}-${tag()}@invited.test`;
const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const createUser = (username: string, extra: Record<string, unknown> = {}) => createGitbeakerUser(app, username, extra);

type Kind = "groups" | "projects";

/** A private group or personal project of `owner`, with a Maintainer and a Developer. */
async function container(kind: Kind) {
  const [owner, maint, dev] = [await createUser("owner"), await createUser("maint"), await createUser("dev")];
  const created = kind === "groups" ? await owner.api.post("/groups", { json: { name: "Team", path: "team" } }) : await owner.api.post("/projects", { json: { name: "App" } });
  expect(created.status).toBe(201);
  const id: number = created.body.id;
  for (const [user, level] of [
    [maint, 40],
    [dev, 30],
  ] as const)
    expect((await owner.api.post(`/${kind}/${id}/members`, { json: { user_id: user.id, access_level: level } })).status).toBe(201);
  return { owner, maint, dev, id, base: `/${kind}/${id}/invitations`, members: `/${kind}/${id}/members` };
}

/** The path (and query) of a link in a mail, to follow it through this app's gateway whatever EXTERNAL_URL says. */
const pathOf = (link: string) => {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
};
const web = (token?: string) => ({
  get: (path: string) => fetch(new URL(path, app.url), { headers: token ? { "PRIVATE-TOKEN": token } : {} }),
  post: (path: string) => fetch(new URL(path, app.url), { method: "POST", headers: token ? { "PRIVATE-TOKEN": token } : {} }),
});

describe.each(["groups", "projects"] as const)("/%s/:id/invitations", (kind) => {
  const hidden = { message: kind === "groups" ? "404 Group Not Found" : "404 Project Not Found" };

  test("invites by address with @gitbeaker/rest; the invitation is listed with GitLab's fields", async () => {
    const { owner, id, base } = await container(kind);
    const email = address("newcomer");
    const inv = kind === "groups" ? owner.gl.GroupInvitations : owner.gl.ProjectInvitations;
    expect(await inv.add(id, 30, { email, expiresAt: day(30) })).toEqual({ status: "success" });

    const listed = await owner.api.get(base);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id: expect.any(Number),
        invite_email: email,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        access_level: 30,
        expires_at: day(30),
        user_name: null,
        created_by_name: "Owner",
      },
    ]);
    expect(listed.headers.get("x-total")).toBe("1");
    expect(await inv.all(id)).toMatchObject([{ invite_email: email, access_level: 30 }]);
  });

  test("the answer maps each failing address or username to GitLab's reason; the others are still invited", async () => {
    const { owner, dev, id, base } = await container(kind);
    const [taken, fresh] = [address("taken"), address("fresh")];
    expect((await owner.api.post(base, { json: { email: taken, access_level: 20 } })).body).toEqual({ status: "success" });
    const res = await owner.api.post(base, { json: { email: `${taken},not-an-address,${fresh},dev@example.com`, user_id: String(dev.id), access_level: 20 } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      status: "error",
      message: {
        [taken]: "Invite email has already been taken",
        "not-an-address": "Invite email is invalid",
        // dev's confirmed address and user id both name dev: reported once, by username first.
        dev: "User already exists in source",
      },
    });
    expect((await owner.api.get(base)).body.map((i: { invite_email: string }) => i.invite_email)).toEqual([taken, fresh]);
    expect((await owner.api.get(`/${kind}/${id}/members/${dev.id}`)).body.access_level).toBe(30);
  });

  test("a confirmed address or a user id of an existing user makes a member at once, without an invitation", async () => {
    const { owner, id, base, members } = await container(kind);
    const [alice, bob] = [await createUser("alice"), await createUser("bob")];
    const res = await owner.api.post(base, { json: { email: "ALICE@example.com", user_id: `${bob.id},999999`, access_level: 20 } });
    expect(res.body).toEqual({ status: "success" }); // unknown ids are dropped, as GitLab does
    const added = (await owner.api.get(members, { query: { user_ids: [alice.id, bob.id] } })).body.map((m: { username: string; access_level: number }) => [m.username, m.access_level]);
    expect(added.sort()).toEqual([
      ["alice", 20],
      ["bob", 20],
    ]);
    expect((await owner.api.get(base)).body).toEqual([]);
    expect((await alice.api.get(`/${kind}/${id}`)).status).toBe(200);
  });

  test("parameter errors are Grape's; a level no membership holds is the model's, per invitee", async () => {
    const { owner, base } = await container(kind);
    const email = address("x");
    expect((await owner.api.post(base, { json: { email } })).body).toEqual({ error: "access_level is missing" });
    expect((await owner.api.post(base, { json: { access_level: 30 } })).body).toEqual({ error: "email, user_id are missing, at least one parameter must be provided" });
    expect((await owner.api.post(base, { json: { email, access_level: 35 } })).body).toEqual({ error: "access_level does not have a valid value" });
    expect((await owner.api.post(base, { json: { email, access_level: 30, expires_at: "soon" } })).body).toEqual({ error: "expires_at is invalid" });
    const noAccess = await owner.api.post(base, { json: { email, access_level: 0 } });
    expect(noAccess.status).toBe(201);
    expect(noAccess.body).toEqual({ status: "error", message: { [email]: "Access level is not included in the list" } });
    expect((await owner.api.post(base, { json: { email: " , ", access_level: 30 } })).body).toEqual({ status: "error", message: "Invites cannot be blank" });
    const many = Array.from({ length: 101 }, (_, i) => `u${i}-${email}`).join(",");
    expect((await owner.api.post(base, { json: { email: many, access_level: 30 } })).body).toEqual({ status: "error", message: "Too many users specified (limit is 100)" });
    expect((await owner.api.get(base)).body).toEqual([]);
  });

  test("permissions: anonymous 401, outsiders 404, Developers 403, Owner invitations only by Owners", async () => {
    const { maint, dev, base } = await container(kind);
    const outsider = await createUser("outsider");
    const email = address("p");
    expect(await apiClient(app.url).post(base, { json: { email, access_level: 30 } })).toMatchObject({ status: 401, body: { message: "401 Unauthorized" } });
    expect(await apiClient(app.url).get(base)).toMatchObject({ status: 401 });
    expect(await outsider.api.post(base, { json: { email, access_level: 30 } })).toMatchObject({ status: 404, body: hidden });
    expect(await dev.api.post(base, { json: { email, access_level: 30 } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect(await dev.api.get(base)).toMatchObject({ status: 403 });
    expect(await maint.api.post(base, { json: { email, access_level: 50 } })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    // Project Maintainers manage invitations below Owner; groups are their Owners' business.
    expect((await maint.api.post(base, { json: { email, access_level: 40 } })).status).toBe(kind === "projects" ? 201 : 403);
    expect((await root.post(base, { json: { email: address("admin"), access_level: 50 } })).body).toEqual({ status: "success" });
  });

  test("PUT changes level and expiry; DELETE removes (204), then 404; GitLab's errors", async () => {
    const { owner, maint, dev, id, base } = await container(kind);
    const email = address("edit");
    const inv = kind === "groups" ? owner.gl.GroupInvitations : owner.gl.ProjectInvitations;
    await owner.api.post(base, { json: { email, access_level: 30 } });
    const at = `${base}/${encodeURIComponent(email)}`;

    const edited = await owner.api.put(at, { json: { access_level: 40, expires_at: `${day(5)}T12:00:00Z` } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ access_level: 40, expires_at: day(5), invite_email: email, id: null, created_by: { username: "owner" } });
    expect(await inv.edit(id, email, { accessLevel: 20 })).toMatchObject({ access_level: 20 });
    expect((await owner.api.put(at, { json: {} })).body).toEqual({ message: "400 Bad request" });
    expect((await owner.api.put(at, { json: { access_level: 0 } })).body).toEqual({ message: { access_level: ["is not included in the list"] } });
    expect((await owner.api.put(at, { json: { expires_at: day(-2) } })).body).toEqual({ message: { expires_at: ["cannot be a date in the past"] } });
    expect(await owner.api.put(`${base}/${encodeURIComponent(address("nobody"))}`, { json: { access_level: 20 } })).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    expect(await dev.api.put(at, { json: { access_level: 20 } })).toMatchObject({ status: 403 });

    if (kind === "projects") {
      // A Maintainer may not touch an Owner invitation.
      const ownerInvite = address("owner-level");
      await owner.api.post(base, { json: { email: ownerInvite, access_level: 50 } });
      expect(await maint.api.delete(`${base}/${encodeURIComponent(ownerInvite)}`)).toMatchObject({ status: 403 });
      expect(await maint.api.put(`${base}/${encodeURIComponent(ownerInvite)}`, { json: { access_level: 40 } })).toMatchObject({ status: 403 });
    }
    expect(await dev.api.delete(at)).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    const removed = await owner.api.delete(at);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect(await owner.api.delete(at)).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    expect((await owner.api.get(base, { query: { query: email } })).body).toEqual([]);
  });

  test("GET lists direct invitations only, query is one exact address, pages carry headers", async () => {
    const { owner, id, base } = await container(kind);
    const emails = [address("a"), address("b"), address("c")];
    for (const email of emails) await owner.api.post(base, { json: { email, access_level: 10 } });
    expect((await owner.api.get(base, { query: { query: emails[1].toUpperCase() } })).body.map((i: { invite_email: string }) => i.invite_email)).toEqual([emails[1]]);
    expect((await owner.api.get(base, { query: { query: emails[1].slice(0, 5) } })).body).toEqual([]);
    expect((await owner.api.get(base, { query: { query: "" } })).body).toHaveLength(3);
    const paged = await owner.api.get(base, { query: { per_page: 2, page: 2 } });
    expect(paged.body.map((i: { invite_email: string }) => i.invite_email)).toEqual([emails[2]]);
    expect(paged.headers.get("x-total")).toBe("3");
    expect(paged.headers.get("x-total-pages")).toBe("2");
    expect(paged.headers.get("link")).toContain('rel="prev"');

    // Invitations show in /members/all as invited members (no user), never in /members.
    const all = await owner.api.get(`/${kind}/${id}/members/all`, { query: { per_page: 100 } });
    const invited = all.body.filter((m: { id: number | null }) => m.id === null);
    expect(invited.map((m: { invite_email: string }) => m.invite_email)).toEqual(emails);
    expect(invited[0]).toMatchObject({ id: null, username: null, access_level: 10, created_by: { username: "owner" }, membership_state: "active" });
    expect(all.headers.get("x-total")).toBe("6");
    expect((await owner.api.get(`/${kind}/${id}/members/all`, { query: { query: emails[2].slice(0, 4) } })).body.map((m: { invite_email?: string }) => m.invite_email)).toEqual([emails[2]]);
    expect((await owner.api.get(`/${kind}/${id}/members`)).body.every((m: { id: number | null }) => m.id !== null)).toBe(true);
  });
});

describe("the invitation mail and its link", () => {
  test("is received over SMTP with the inviter, the group and the link; the invitee accepts it through the gateway", async () => {
    const owner = await createUser("owner", { name: "Olivia Owner" });
    const group = (await owner.api.post("/groups", { json: { name: "Platform Team", path: "platform" } })).body;
    const email = address("ivy");
    expect((await owner.api.post(`/groups/${group.id}/invitations`, { json: { email, access_level: 30 } })).body).toEqual({ status: "success" });

    const mail = await mailbox.waitFor(email);
    expect(mail.subject).toBe("Invitation to join the Platform Team group");
    expect(mail.from).toMatch(/noreply@/);
    expect(mail.text).toContain("Olivia Owner (@owner) invited you to join the Platform Team group as Developer.");
    expect(mail.text).toContain(`${group.web_url}`);
    const link = /https?:\/\/\S+\/-\/invites\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();

    // The link shows the invitation to whoever holds it.
    const page = await web().get(pathOf(link!));
    expect(page.status).toBe(200);
    const shown = await page.json();
    expect(shown).toMatchObject({ invite_email: email, access_level: 30, role: "Developer", source_type: "group", source_name: "Platform Team", created_by_name: "Olivia Owner" });

    // The invitee signs up with the address, unconfirmed: nothing happens by itself…
    const ivy = await createUser("ivy", { email, skip_confirmation: false });
    const accept = pathOf(shown.accept_url);
    // …until the invitee, signed in, accepts. Nobody else can, and nobody anonymous.
    expect((await web().post(accept)).status).toBe(401);
    const bob = await createUser("bob");
    const wrong = await web(bob.token).post(accept);
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({ message: "403 Forbidden - The invitation was sent to another e-mail address" });
    expect((await ivy.api.get(`/groups/${group.id}`)).status).toBe(404);

    const accepted = await web(ivy.token).post(accept);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ message: "You have been granted Developer access to group Platform Team.", access_level: 30 });
    expect((await ivy.api.get(`/groups/${group.id}`)).status).toBe(200);
    expect((await owner.api.get(`/groups/${group.id}/members/${ivy.id}`)).body).toMatchObject({ username: "ivy", access_level: 30, created_by: { username: "owner" } });
    expect((await owner.api.get(`/groups/${group.id}/invitations`)).body).toEqual([]);
    // The token was used up.
    expect((await web(ivy.token).post(accept)).status).toBe(404);
    expect((await web().get(pathOf(link!))).status).toBe(404);
  });

  test("a new user with the invited address becomes a member on creation; a user confirming it, on the update", async () => {
    const owner = await createUser("owner");
    const project = (await owner.api.post("/projects", { json: { name: "App" } })).body;
    const [carolMail, daveMail] = [address("carol"), address("dave")];
    for (const email of [carolMail, daveMail]) await owner.api.post(`/projects/${project.id}/invitations`, { json: { email, access_level: 20 } });
    await mailbox.waitFor(carolMail);

    // accounts.user.created with a confirmed address: the invitation applies.
    const carol = await createUser("carol", { email: carolMail.toUpperCase() });
    await eventually(async () => expect((await owner.api.get(`/projects/${project.id}/members/${carol.id}`)).body).toMatchObject({ access_level: 20 }));

    // accounts.user.updated: dave's new address, confirmed by the administrator.
    const dave = await createUser("dave");
    const changed = await root.put(`/users/${dave.id}`, { json: { email: daveMail } });
    expect(changed.body).toMatchObject({ email: daveMail, confirmed_at: null });
    // An address not confirmed claims nothing…
    expect((await owner.api.get(`/projects/${project.id}/invitations`)).body.map((i: { invite_email: string }) => i.invite_email)).toContain(daveMail);
    expect((await root.put(`/users/${dave.id}`, { json: { email: daveMail, skip_reconfirmation: true } })).status).toBe(200);
    await eventually(async () => expect((await owner.api.get(`/projects/${project.id}/members/${dave.id}`)).body).toMatchObject({ access_level: 20 }));
    expect((await owner.api.get(`/projects/${project.id}/invitations`)).body).toEqual([]);
  });
});

describe("administrator approval of promotions (enable_member_promotion_management, Ultimate)", () => {
  test("an invitation that would give a user without a billable role a billable one is queued", async () => {
    const owner = await createUser("owner");
    const group = (await owner.api.post("/groups", { json: { name: "Team", path: "team" } })).body;
    const [newbie, guest, regular] = [await createUser("newbie"), await createUser("guest"), await createUser("regular")];
    const other = (await root.post("/groups", { json: { name: "Other", path: "other" } })).body;
    await root.post(`/groups/${other.id}/members`, { json: { user_id: regular.id, access_level: 30 } });
    expect((await root.put("/application/settings", { json: { enable_member_promotion_management: true } })).body.enable_member_promotion_management).toBe(true);
    try {
      const base = `/groups/${group.id}/invitations`;
      const queued = await owner.api.post(base, { json: { user_id: `${newbie.id},${regular.id}`, access_level: 30 } });
      expect(queued.body).toEqual({ status: "success", queued_users: { newbie: "Request queued for administrator approval." } });
      // A Guest role is not billable on Ultimate: no approval needed.
      expect((await owner.api.post(base, { json: { user_id: guest.id, access_level: 10 } })).body).toEqual({ status: "success" });
      const members = (await owner.api.get(`/groups/${group.id}/members`)).body.map((m: { username: string }) => m.username);
      expect(members).toEqual(["owner", "regular", "guest"]);
      // POST /members answers the queue message for one user.
      const single = await owner.api.post(`/groups/${group.id}/members`, { json: { user_id: newbie.id, access_level: 40 } });
      expect(single.body).toEqual({ message: { newbie: "Request queued for administrator approval." } });
      // Administrators promote directly.
      expect((await root.post(base, { json: { user_id: newbie.id, access_level: 30 } })).body).toEqual({ status: "success" });
      expect((await owner.api.get(`/groups/${group.id}/members/${newbie.id}`)).body.access_level).toBe(30);
    } finally {
      await root.put("/application/settings", { json: { enable_member_promotion_management: false } });
    }
  });
});
