import { addMember, apiClient, assertStatus as ok, createProject, createUser, type ApiClient, type TestApp } from "@collab/testing";
import { startApp } from "@collab/standalone/test/app";

/**
 * Who may do what with merge requests, on a private and a public project: anonymous, a non-member,
 * Guest, Reporter, Developer, Maintainer, Owner, an administrator and a project access token's bot
 * (Maintainer). Each row lists the statuses of: list, get, create, update (title), merge (into
 * the default branch), delete.
 */
let app: TestApp;
let root: ApiClient;
beforeAll(async () => {
  app = await startApp("merge-requests-permissions");
});
afterAll(() => app.stop());
beforeEach(async () => {
  await app.reset();
  root = apiClient(app.url, app.rootToken);
});

type Row = [who: string, list: number, get: number, create: number, update: number, merge: number, del: number];

const PRIVATE: Row[] = [
  ["anonymous", 404, 404, 401, 401, 401, 401],
  ["outsider", 404, 404, 404, 404, 404, 404],
  ["guest", 403, 403, 403, 403, 403, 403],
  ["reporter", 200, 200, 403, 403, 401, 403],
  ["developer", 200, 200, 201, 200, 401, 403],
  ["maintainer", 200, 200, 201, 200, 200, 403],
  ["owner", 200, 200, 201, 200, 200, 204],
  ["admin", 200, 200, 201, 200, 200, 204],
  ["bot", 200, 200, 201, 200, 200, 403],
];

const PUBLIC: Row[] = [
  ["anonymous", 200, 200, 401, 401, 401, 401],
  ["outsider", 200, 200, 403, 403, 401, 403],
  ["guest", 200, 200, 403, 403, 401, 403],
  ["reporter", 200, 200, 403, 403, 401, 403],
  ["developer", 200, 200, 201, 200, 401, 403],
  ["maintainer", 200, 200, 201, 200, 200, 403],
  ["owner", 200, 200, 201, 200, 200, 204],
  ["admin", 200, 200, 201, 200, 200, 204],
  ["bot", 200, 200, 201, 200, 200, 403],
];

async function principals(projectId: number): Promise<Record<string, ApiClient>> {
  const levels: Record<string, number> = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 };
  const out: Record<string, ApiClient> = { anonymous: apiClient(app.url) };
  for (const name of ["outsider", "guest", "reporter", "developer", "maintainer", "owner"]) {
    const u = await createUser(app, name);
    if (levels[name]) await addMember(app, "projects", projectId, u.id, levels[name]);
    out[name] = u.api;
  }
  const admin = await createUser(app, "boss", { admin: true });
  out.admin = admin.api;
  const token = ok(await root.post(`/projects/${projectId}/access_tokens`, { json: { name: "bot", scopes: ["api"], access_level: 40 } }), 201, "bot token").body;
  out.bot = apiClient(app.url, token.token);
  return out;
}

describe.each([
  ["private", PRIVATE],
  ["public", PUBLIC],
] as const)("a %s project", (visibility, rows) => {
  it("answers each role as GitLab does", async () => {
    const project = await createProject(root, { name: "api", visibility, initialize_with_readme: true });
    const P = `/projects/${project.id}`;
    const who = await principals(project.id);
    const failures: string[] = [];
    let n = 0;
    for (const [name, list, get, create, update, merge, del] of rows) {
      const api = who[name];
      const branch = `b${++n}`;
      ok(await root.post(`${P}/repository/branches`, { json: { branch, ref: "main" } }), 201, "branch");
      ok(await root.post(`${P}/repository/branches`, { json: { branch: `${branch}-own`, ref: "main" } }), 201, "branch");
      const mr = ok(await root.post(`${P}/merge_requests`, { json: { title: `by root ${n}`, source_branch: branch, target_branch: "main" } }), 201, "mr").body;
      const got: number[] = [
        (await api.get(`${P}/merge_requests`)).status,
        (await api.get(`${P}/merge_requests/${mr.iid}`)).status,
        (await api.post(`${P}/merge_requests`, { json: { title: "mine", source_branch: `${branch}-own`, target_branch: "main" } })).status,
        (await api.put(`${P}/merge_requests/${mr.iid}`, { json: { title: "edited" } })).status,
        (await api.put(`${P}/merge_requests/${mr.iid}/merge`)).status,
        (await api.delete(`${P}/merge_requests/${mr.iid}`)).status,
      ];
      const want = [list, get, create, update, merge, del];
      if (JSON.stringify(got) !== JSON.stringify(want)) failures.push(`${name}: got ${got.join(" ")}, want ${want.join(" ")}`);
    }
    expect(failures).toEqual([]);
    // A role matrix on real git: two branches, a merge request and a merge per role, one after another.
  }, 120_000);
});

it("an author below Developer may still edit their own merge request after a demotion, not merge it", async () => {
  const project = await createProject(root, { name: "api", visibility: "private", initialize_with_readme: true });
  const P = `/projects/${project.id}`;
  const author = await createUser(app, "author");
  await addMember(app, "projects", project.id, author.id, 30);
  ok(await root.post(`${P}/repository/branches`, { json: { branch: "f", ref: "main" } }), 201, "branch");
  const mr = ok(await author.api.post(`${P}/merge_requests`, { json: { title: "mine", source_branch: "f", target_branch: "main" } }), 201, "mr").body;
  ok(await root.put(`${P}/members/${author.id}`, { json: { access_level: 20 } }), 200, "demote");
  expect((await author.api.put(`${P}/merge_requests/${mr.iid}`, { json: { title: "still mine", labels: "ignored" } })).body).toMatchObject({ title: "still mine", labels: [] });
  expect((await author.api.put(`${P}/merge_requests/${mr.iid}/merge`)).status).toBe(401);
});
