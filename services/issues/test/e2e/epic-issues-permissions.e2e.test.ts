import { addMember, apiClient, assertStatus as ok, createProject, createUser, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Who may list and change an epic's issues (GitLab Premium), on a private and a public group with
 * a project of the same visibility, for every kind of caller. GitLab: signed-in callers only (401),
 * a hidden group is 404, an epic the caller may not read 403, and changing an issue's epic needs
 * admin_issue_relation on the issue (Guests and up of its project who read it) else 403.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("epic-issues-permissions");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

const ROLES = ["anonymous", "outsider", "guest", "reporter", "developer", "maintainer", "owner"] as const;
type Role = (typeof ROLES)[number];
type Table = Record<Role, number | string>;

async function world(visibility: "private" | "public") {
  const group = ok(await root.post("/groups", { json: { name: "Team", path: "team", visibility } }), 201, "group").body;
  const project = await createProject(root, { name: "app", namespace_id: group.id, visibility });
  const levels: Partial<Record<Role, number>> = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 };
  const callers: Partial<Record<Role, ApiClient>> = { anonymous: apiClient(app.url) };
  await Promise.all(
    ROLES.filter((r) => r !== "anonymous").map(async (role) => {
      const user = await createUser(app, role, { email: `${role}@team.test` });
      callers[role] = user.api;
      if (levels[role]) await addMember(app, "groups", group.id, user.id, levels[role]);
    }),
  );
  const E = `/groups/${group.id}/epics`;
  ok(await root.post(E, { json: { title: "Roadmap" } }), 201, "epic");
  ok(await root.post(E, { json: { title: "Acquisition", confidential: true } }), 201, "confidential epic");
  const issue = async (title: string, confidential = false) =>
    ok(await root.post(`/projects/${project.id}/issues`, { json: { title, confidential } }), 201, title).body as { id: number; iid: number };
  // The epic holds an open and a confidential issue to begin with.
  for (const i of [await issue("Open"), await issue("Confidential", true)]) ok(await root.post(`${E}/1/issues/${i.id}`), 201, "link");
  return { E, issue, callers: callers as Record<Role, ApiClient> };
}

const outcome = (res: ApiResponse) => (res.status < 400 ? res.status : typeof res.body?.message === "string" ? res.body.message : `${res.status} ${JSON.stringify(res.body)}`);

async function tableOf(call: (role: Role) => Promise<ApiResponse | number | string>): Promise<Table> {
  const table = {} as Table;
  for (const role of ROLES) {
    const res = await call(role);
    table[role] = typeof res === "object" ? outcome(res) : res;
  }
  return table;
}

const NO_GROUP = "404 Group Not Found";
const FORBIDDEN = "403 Forbidden";
const UNAUTHORIZED = "401 Unauthorized";

const expected = {
  private: {
    /** How many of the epic's two issues the list shows (the confidential one from Reporters up). */
    listed: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: 1, reporter: 2, developer: 2, maintainer: 2, owner: 2 },
    listConfidentialEpic: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: FORBIDDEN, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    assign: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: 201, reporter: 201, developer: 201, maintainer: 201, owner: 201 },
    reorder: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    remove: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    /** The confidential issue: Guests may not read it, so may not move it. */
    removeConfidential: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: FORBIDDEN, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
  },
  public: {
    listed: { anonymous: UNAUTHORIZED, outsider: 1, guest: 1, reporter: 2, developer: 2, maintainer: 2, owner: 2 },
    listConfidentialEpic: { anonymous: UNAUTHORIZED, outsider: FORBIDDEN, guest: FORBIDDEN, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    assign: { anonymous: UNAUTHORIZED, outsider: FORBIDDEN, guest: 201, reporter: 201, developer: 201, maintainer: 201, owner: 201 },
    reorder: { anonymous: UNAUTHORIZED, outsider: FORBIDDEN, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    remove: { anonymous: UNAUTHORIZED, outsider: FORBIDDEN, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    removeConfidential: { anonymous: UNAUTHORIZED, outsider: FORBIDDEN, guest: FORBIDDEN, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
  },
} satisfies Record<string, Record<string, Table>>;

describe.each(["private", "public"] as const)("a %s group", (visibility) => {
  test("listing an epic's issues", async () => {
    const { E, callers } = await world(visibility);
    expect(
      await tableOf(async (r) => {
        const res = await callers[r].get(`${E}/1/issues`);
        return res.status === 200 ? (res.body as unknown[]).length : res;
      }),
    ).toEqual(expected[visibility].listed);
    expect(await tableOf((r) => callers[r].get(`${E}/2/issues`))).toEqual(expected[visibility].listConfidentialEpic);
  });

  test("assigning, reordering and removing issues", async () => {
    const { E, issue, callers } = await world(visibility);
    // Each role works on an issue of its own.
    const mine = {} as Record<Role, { id: number; link?: number }>;
    for (const role of ROLES) mine[role] = { id: (await issue(`For ${role}`)).id };
    expect(
      await tableOf(async (r) => {
        const res = await callers[r].post(`${E}/1/issues/${mine[r].id}`);
        mine[r].link = res.body?.id;
        return res;
      }),
    ).toEqual(expected[visibility].assign);
    // Root links what was refused, so that every role has an association to reorder and remove.
    for (const role of ROLES) if (!mine[role].link || typeof mine[role].link !== "number") mine[role].link = ok(await root.post(`${E}/1/issues/${mine[role].id}`), 201, "link").body.id;
    const [first] = (await root.get(`${E}/1/issues`)).body as { epic_issue_id: number }[];
    expect(await tableOf((r) => callers[r].put(`${E}/1/issues/${mine[r].link}`, { json: { move_before_id: first.epic_issue_id } }))).toEqual(expected[visibility].reorder);
    expect(await tableOf((r) => callers[r].delete(`${E}/1/issues/${mine[r].link}`))).toEqual(expected[visibility].remove);
    // Nothing refused was removed: the refused roles' issues are still in the epic.
    const left = ((await root.get(`${E}/1/issues`, { query: { per_page: "100" } })).body as { title: string }[]).map((i) => i.title).sort();
    const refused = ROLES.filter((r) => expected[visibility].remove[r] !== 200).map((r) => `For ${r}`);
    expect(left).toEqual(["Confidential", "Open", ...refused].sort());
  });

  test("removing a confidential issue needs to read it", async () => {
    const { E, callers } = await world(visibility);
    const confidential = ((await root.get(`${E}/1/issues`)).body as { title: string; epic_issue_id: number }[]).find((i) => i.title === "Confidential")!;
    const table = await tableOf(async (r) => {
      const res = await callers[r].delete(`${E}/1/issues/${confidential.epic_issue_id}`);
      // Put it back for the next role.
      if (res.status === 200) ok(await root.post(`${E}/1/issues/${res.body.issue.id}`), 201, "relink");
      const link = ((await root.get(`${E}/1/issues`)).body as { title: string; epic_issue_id: number }[]).find((i) => i.title === "Confidential")!;
      confidential.epic_issue_id = link.epic_issue_id;
      return res;
    });
    expect(table).toEqual(expected[visibility].removeConfidential);
  });
});

test("a public group's epic with issues of a private project: outsiders see the epic, none of its issues, and may not move them", async () => {
  const group = ok(await root.post("/groups", { json: { name: "Open", path: "open", visibility: "public" } }), 201, "group").body;
  const hidden = await createProject(root, { name: "internal-tools", namespace_id: group.id, visibility: "private" });
  const outsider = await createUser(app, "outsider");
  const E = `/groups/${group.id}/epics`;
  ok(await root.post(E, { json: { title: "Roadmap" } }), 201, "epic");
  const issue = ok(await root.post(`/projects/${hidden.id}/issues`, { json: { title: "Hidden" } }), 201, "issue").body;
  const link = ok(await root.post(`${E}/1/issues/${issue.id}`), 201, "link").body;

  expect(ok(await outsider.api.get(`${E}/1/issues`), 200, "list").body).toEqual([]);
  expect((await root.get(`${E}/1/issues`)).body).toHaveLength(1);
  for (const res of [await outsider.api.post(`${E}/1/issues/${issue.id}`), await outsider.api.delete(`${E}/1/issues/${link.id}`), await outsider.api.put(`${E}/1/issues/${link.id}`, { json: {} })])
    expect([res.status, res.body]).toEqual([403, { message: FORBIDDEN }]);
});
