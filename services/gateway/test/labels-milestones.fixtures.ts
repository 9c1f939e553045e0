import { apiClient, type ApiClient, type TestApp } from "@collab/testing";

export interface TestUser {
  id: number;
  username: string;
  token: string;
  api: ApiClient;
}

/** A user made by root through the API, with an `api`-scoped token. */
export async function createUser(app: TestApp, username: string): Promise<TestUser> {
  const root = apiClient(app.url, app.rootToken);
  const user = await root.post("/users", {
    json: { email: `${username}@example.com`, name: username, username, password: "s3cret-passw0rd", skip_confirmation: true },
  });
  if (user.status !== 201) throw new Error(`user ${username}: ${user.status} ${user.text}`);
  const token = await root.post(`/users/${user.body.id}/personal_access_tokens`, { json: { name: "test", scopes: ["api"] } });
  if (token.status !== 201) throw new Error(`token ${username}: ${token.status} ${token.text}`);
  return { id: user.body.id, username, token: token.body.token, api: apiClient(app.url, token.body.token) };
}

/**
 * The usual world of these tests, all private:
 *   platform (group) ─ backend (subgroup) ─ api (project), plus a personal-style sibling project "other".
 * Members: reporter (20), planner (15) and guest (10) on the project; groupReporter (20) and
 * groupGuest (10) on the top group; outsider belongs nowhere.
 */
export async function createWorld(app: TestApp) {
  const root = apiClient(app.url, app.rootToken);
  const ok = <T extends { status: number; text: string }>(r: T, what: string) => {
    if (r.status !== 201) throw new Error(`${what}: ${r.status} ${r.text}`);
    return r as T & { body: any };
  };
  const group = ok(await root.post("/groups", { json: { name: "Platform", path: "platform", visibility: "private" } }), "group").body;
  const subgroup = ok(await root.post("/groups", { json: { name: "Backend", path: "backend", parent_id: group.id, visibility: "private" } }), "subgroup").body;
  const project = ok(await root.post("/projects", { json: { name: "api", namespace_id: subgroup.id, visibility: "private" } }), "project").body;
  const other = ok(await root.post("/projects", { json: { name: "other", namespace_id: group.id, visibility: "private" } }), "other project").body;
  const [reporter, planner, guest, groupReporter, groupGuest, outsider] = await Promise.all(
    ["reporter", "planner", "guest", "greporter", "gguest", "outsider"].map((u) => createUser(app, u)),
  );
  const member = async (kind: "projects" | "groups", id: number, user: TestUser, level: number) =>
    ok(await root.post(`/${kind}/${id}/members`, { json: { user_id: user.id, access_level: level } }), `member ${user.username}`);
  await member("projects", project.id, reporter, 20);
  await member("projects", project.id, planner, 15);
  await member("projects", project.id, guest, 10);
  await member("groups", group.id, groupReporter, 20);
  await member("groups", group.id, groupGuest, 10);
  return { root, anonymous: apiClient(app.url), group, subgroup, project, other, reporter, planner, guest, groupReporter, groupGuest, outsider };
}
export type World = Awaited<ReturnType<typeof createWorld>>;
