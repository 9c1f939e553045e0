import { apiClient, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";
import { groupWithRoles, outcome, ROLES, tableOf, type Table } from "./group-roles";

/**
 * Who may read and write a group's epics (GitLab Premium), on a private and a public group, for
 * every kind of caller: hidden group → 404, visible but not allowed → 403 (also for an epic the
 * caller may not see, as GitLab's authorize! answers), anonymous writes → 401.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("epics-permissions");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

async function world(visibility: "private" | "public") {
  const { groupId, callers } = await groupWithRoles(app, root, visibility);
  const open = await root.post(`/groups/${groupId}/epics`, { json: { title: "Roadmap" } });
  const secret = await root.post(`/groups/${groupId}/epics`, { json: { title: "Acquisition", confidential: true } });
  expect([open.status, secret.status]).toEqual([201, 201]);
  return { groupId, callers };
}

const NO_GROUP = "404 Group Not Found";
const FORBIDDEN = "403 Forbidden";
const UNAUTHORIZED = "401 Unauthorized";
const everyone = (v: number | string): Table => Object.fromEntries(ROLES.map((r) => [r, v])) as Table;

const expected = {
  private: {
    list: { anonymous: NO_GROUP, outsider: NO_GROUP, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    /** How many of the two epics the list shows. */
    listed: { anonymous: NO_GROUP, outsider: NO_GROUP, guest: 1, reporter: 2, developer: 2, maintainer: 2, owner: 2 },
    read: { anonymous: NO_GROUP, outsider: NO_GROUP, guest: 200, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    readConfidential: { anonymous: NO_GROUP, outsider: NO_GROUP, guest: FORBIDDEN, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    create: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: FORBIDDEN, reporter: 201, developer: 201, maintainer: 201, owner: 201 },
    update: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: FORBIDDEN, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    remove: { anonymous: UNAUTHORIZED, outsider: NO_GROUP, guest: FORBIDDEN, reporter: FORBIDDEN, developer: FORBIDDEN, maintainer: FORBIDDEN, owner: 204 },
  },
  public: {
    list: everyone(200),
    listed: { anonymous: 1, outsider: 1, guest: 1, reporter: 2, developer: 2, maintainer: 2, owner: 2 },
    read: everyone(200),
    readConfidential: { anonymous: FORBIDDEN, outsider: FORBIDDEN, guest: FORBIDDEN, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    create: { anonymous: UNAUTHORIZED, outsider: FORBIDDEN, guest: FORBIDDEN, reporter: 201, developer: 201, maintainer: 201, owner: 201 },
    update: { anonymous: UNAUTHORIZED, outsider: FORBIDDEN, guest: FORBIDDEN, reporter: 200, developer: 200, maintainer: 200, owner: 200 },
    remove: { anonymous: UNAUTHORIZED, outsider: FORBIDDEN, guest: FORBIDDEN, reporter: FORBIDDEN, developer: FORBIDDEN, maintainer: FORBIDDEN, owner: 204 },
  },
} satisfies Record<string, Record<string, Table>>;

describe.each(["private", "public"] as const)("a %s group", (visibility) => {
  test("reading epics: the list, one epic and a confidential one", async () => {
    const { groupId, callers } = await world(visibility);
    const E = `/groups/${groupId}/epics`;
    expect(await tableOf((r) => callers[r].get(E))).toEqual(expected[visibility].list);
    const listed = {} as Table;
    for (const role of ROLES) {
      const res = await callers[role].get(E);
      listed[role] = res.status === 200 ? (res.body as unknown[]).length : outcome(res);
    }
    expect(listed).toEqual(expected[visibility].listed);
    expect(await tableOf((r) => callers[r].get(`${E}/1`))).toEqual(expected[visibility].read);
    expect(await tableOf((r) => callers[r].get(`${E}/2`))).toEqual(expected[visibility].readConfidential);
  });

  test("writing epics: create, edit, delete", async () => {
    const { groupId, callers } = await world(visibility);
    const E = `/groups/${groupId}/epics`;
    expect(await tableOf((r) => callers[r].post(E, { json: { title: `By ${r}` } }))).toEqual(expected[visibility].create);
    expect(await tableOf((r) => callers[r].put(`${E}/1`, { json: { description: `Edited by ${r}` } }))).toEqual(expected[visibility].update);
    // Each role tries to delete an epic of its own.
    const remove = {} as Table;
    for (const role of ROLES) {
      const epic = await root.post(E, { json: { title: `Doomed for ${role}` } });
      remove[role] = outcome(await callers[role].delete(`${E}/${epic.body.iid}`));
    }
    expect(remove).toEqual(expected[visibility].remove);
    // Nothing refused was written: the refused titles and edits are absent.
    const titles = ((await root.get(E, { query: { per_page: "100" } })).body as { title: string }[]).map((e) => e.title);
    expect(titles.filter((t) => t.startsWith("By ")).sort()).toEqual(["By developer", "By maintainer", "By owner", "By reporter"]);
    expect(titles.filter((t) => t.startsWith("Doomed")).sort()).toEqual(ROLES.filter((r) => r !== "owner").map((r) => `Doomed for ${r}`).sort());
    expect((await root.get(`${E}/1`)).body.description).toBe("Edited by owner");
  });
});
