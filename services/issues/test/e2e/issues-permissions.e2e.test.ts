import { addMember, apiClient, createUser as createApiUser, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Who may read issues and write comments, on a private and a public project, for every kind of
 * caller. Each table is what GitLab answers: hidden → 404, visible but not allowed → 403,
 * anonymous writes → 401. Successes show as their status, failures as their message.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("issues-permissions");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const ROLES = ["anonymous", "non-member", "guest", "reporter", "developer", "maintainer", "owner", "admin"] as const;
type Role = (typeof ROLES)[number];
type Outcome = number | string;
type Table = Record<Role, Outcome>;

/** A user with an `api` token, made by root; this file's users have @team.test addresses. */
const createUser = (username: string, extra: Record<string, unknown> = {}) => createApiUser(app, username, { email: `${username}@team.test`, ...extra });

/**
 * A group and its project of the given visibility, one caller per role, and "writer", a Developer
 * whose comments the others try to edit and delete. Owners own the group, as project owners do.
 */
async function world(visibility: "private" | "public") {
  const group = await root.post("/groups", { json: { name: "Team", path: "team", visibility } });
  expect(group.status).toBe(201);
  const project = await root.post("/projects", { json: { name: "app", namespace_id: group.body.id, visibility } });
  expect(project.status).toBe(201);
  expect(project.body.visibility).toBe(visibility);
  const projectId = project.body.id as number;

  const levels: Partial<Record<Role, number>> = { guest: 10, reporter: 20, developer: 30, maintainer: 40 };
  const callers: Partial<Record<Role, ApiClient>> = { anonymous: apiClient(app.url) };
  const [writer] = await Promise.all([
    createUser("writer").then(async (u) => (await addMember(app, "projects", projectId, u.id, 30), u)),
    ...ROLES.filter((r) => r !== "anonymous").map(async (role) => {
      const user = await createUser(role.replace("-", ""), role === "admin" ? { admin: true } : {});
      callers[role] = user.api;
      if (levels[role]) await addMember(app, "projects", projectId, user.id, levels[role]);
      if (role === "owner") await addMember(app, "groups", group.body.id, user.id, 50);
    }),
  ]);

  const issue = await root.post(`/projects/${projectId}/issues`, { json: { title: "Checkout fails" } });
  expect(issue.status).toBe(201);
  const base = `/projects/${projectId}/issues/${issue.body.iid}`;
  return { projectId, base, callers: callers as Record<Role, ApiClient>, writer };
}

/** What the caller notices: the status of a success, the message of a failure. */
function outcome(res: ApiResponse): Outcome {
  if (res.status < 400) return res.status;
  return typeof res.body?.message === "string" ? res.body.message : `${res.status} ${JSON.stringify(res.body)}`;
}

/** Runs `call` for every role in turn and collects the outcomes into one table. */
async function tableOf(call: (role: Role) => Promise<ApiResponse>): Promise<Table> {
  const table = {} as Table;
  for (const role of ROLES) table[role] = outcome(await call(role));
  return table;
}

const UNAUTHORIZED = "401 Unauthorized";
const FORBIDDEN = "403 Forbidden";
const NO_PROJECT = "404 Project Not Found";
const NO_ISSUE = "404 Not found";

/** Expected tables per visibility: the non-member column is where the two differ most. */
const expected = {
  private: {
    readIssue: { anonymous: NO_PROJECT, "non-member": NO_PROJECT, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    readConfidential: { anonymous: NO_PROJECT, "non-member": NO_PROJECT, guest: NO_ISSUE, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    listNotes: { anonymous: UNAUTHORIZED, "non-member": NO_PROJECT, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    createNote: { anonymous: UNAUTHORIZED, "non-member": NO_PROJECT, guest: 201, reporter: 201, developer: 201, maintainer: 201, owner: 201, admin: 201 },
    updateOthersNote: { anonymous: UNAUTHORIZED, "non-member": NO_PROJECT, guest: FORBIDDEN, reporter: FORBIDDEN, developer: FORBIDDEN, maintainer: FORBIDDEN, owner: FORBIDDEN, admin: 200 },
    deleteOthersNote: { anonymous: UNAUTHORIZED, "non-member": NO_PROJECT, guest: FORBIDDEN, reporter: FORBIDDEN, developer: FORBIDDEN, maintainer: 204, owner: 204, admin: 204 },
  },
  public: {
    readIssue: { anonymous: 200, "non-member": 200, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    readConfidential: { anonymous: NO_ISSUE, "non-member": NO_ISSUE, guest: NO_ISSUE, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    listNotes: { anonymous: UNAUTHORIZED, "non-member": 200, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200, admin: 200 },
    createNote: { anonymous: UNAUTHORIZED, "non-member": 201, guest: 201, reporter: 201, developer: 201, maintainer: 201, owner: 201, admin: 201 },
    updateOthersNote: { anonymous: UNAUTHORIZED, "non-member": FORBIDDEN, guest: FORBIDDEN, reporter: FORBIDDEN, developer: FORBIDDEN, maintainer: FORBIDDEN, owner: FORBIDDEN, admin: 200 },
    deleteOthersNote: { anonymous: UNAUTHORIZED, "non-member": FORBIDDEN, guest: FORBIDDEN, reporter: FORBIDDEN, developer: FORBIDDEN, maintainer: 204, owner: 204, admin: 204 },
  },
} satisfies Record<string, Record<string, Table>>;

describe.each(["private", "public"] as const)("on a %s project", (visibility) => {
  const want = expected[visibility];

  test("reading an issue", async () => {
    const { base, callers } = await world(visibility);
    expect(await tableOf((role) => callers[role].get(base))).toEqual(want.readIssue);
  });

  test("reading a confidential issue", async () => {
    const { projectId, callers } = await world(visibility);
    const secret = await root.post(`/projects/${projectId}/issues`, { json: { title: "Leaked keys", confidential: true } });
    expect(secret.status).toBe(201);
    expect(await tableOf((role) => callers[role].get(`/projects/${projectId}/issues/${secret.body.iid}`))).toEqual(want.readConfidential);
  });

  test("listing comments", async () => {
    const { base, callers, writer } = await world(visibility);
    expect((await writer.api.post(`${base}/notes`, { json: { body: "first" } })).status).toBe(201);
    expect(await tableOf((role) => callers[role].get(`${base}/notes`))).toEqual(want.listNotes);
  });

  test("commenting, then editing and deleting one's own comment", async () => {
    const { base, callers } = await world(visibility);
    const own: Partial<Record<Role, number>> = {};
    const created = await tableOf(async (role) => {
      const res = await callers[role].post(`${base}/notes`, { json: { body: `from ${role}` } });
      if (res.status === 201) own[role] = res.body.id;
      return res;
    });
    expect(created).toEqual(want.createNote);

    // Whoever could comment is the author: they edit and delete it themselves.
    const authors = ROLES.filter((r) => own[r] !== undefined);
    expect(authors.length).toBeGreaterThanOrEqual(6);
    for (const role of authors) {
      const edited = await callers[role].put(`${base}/notes/${own[role]}`, { json: { body: `edited by ${role}` } });
      expect([role, edited.status, edited.body.body]).toEqual([role, 200, `edited by ${role}`]);
      const deleted = await callers[role].delete(`${base}/notes/${own[role]}`);
      expect([role, deleted.status]).toEqual([role, 204]);
    }
    expect((await root.get(base)).body.user_notes_count).toBe(0);
  });

  test("editing someone else's comment", async () => {
    const { base, callers, writer } = await world(visibility);
    const note = await writer.api.post(`${base}/notes`, { json: { body: "original" } });
    expect(note.status).toBe(201);
    expect(await tableOf((role) => callers[role].put(`${base}/notes/${note.body.id}`, { json: { body: `edited by ${role}` } }))).toEqual(want.updateOthersNote);
    expect((await root.get(`${base}/notes/${note.body.id}`)).body.body).toBe("edited by admin");
  });

  test("deleting someone else's comment", async () => {
    const { base, callers, writer } = await world(visibility);
    // One comment per role, so that each attempt has something left to delete.
    const notes = {} as Record<Role, number>;
    for (const role of ROLES) {
      const res = await writer.api.post(`${base}/notes`, { json: { body: `for ${role} to delete` } });
      expect(res.status).toBe(201);
      notes[role] = res.body.id;
    }
    expect(await tableOf((role) => callers[role].delete(`${base}/notes/${notes[role]}`))).toEqual(want.deleteOthersNote);
    const left = (await root.get(`${base}/notes`, { query: { sort: "asc" } })).body.map((n: { body: string }) => n.body);
    expect(left).toEqual(ROLES.filter((r) => want.deleteOthersNote[r] !== 204).map((r) => `for ${r} to delete`));
    expect((await root.get(base)).body.user_notes_count).toBe(left.length);
  });
});
