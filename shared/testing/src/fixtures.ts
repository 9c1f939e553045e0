/**
 * Setup helpers for end-to-end tests: users, tokens, groups, projects and memberships made through
 * the API. Each one checks the answer and throws an Error with the status and body when it is not
 * what setup needs, so a broken fixture fails loudly instead of as a confusing assertion later.
 * (No jest globals here: these work under any runner.)
 */
import type { TestApp } from "./app";
import { apiClient, type ApiClient, type ApiResponse } from "./http";

/** What the helpers need of a running app: its address and root's token. */
export type AppHandle = Pick<TestApp, "url" | "rootToken">;

/** The password of every user these helpers create. */
export const TEST_PASSWORD = "s3cret-passw0rd";

/** A resource as the API answered it: the fields named, plus whatever else the answer carries. */
export type Created<T> = T & Record<string, any>;

/** A user made by root through the API, with an `api`-scoped token and a client using it. */
export interface TestUser {
  id: number;
  username: string;
  token: string;
  api: ApiClient;
}

/** `res` when it has the expected status; otherwise throws naming `what`, the status and the body. */
export function assertStatus<T extends ApiResponse>(res: T, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res;
}

const rootClient = (app: AppHandle) => apiClient(app.url, app.rootToken);

/**
 * POST /users as root, without a token: `{ username, name: username, email: <username>@example.com,
 * password, skip_confirmation: true }` with `extra` merged over it (e.g. `{ admin: true }`, `{ name }`).
 * Answers the created user (the admin view).
 */
export async function createUserAccount(app: AppHandle, username: string, extra: Record<string, unknown> = {}) {
  const json = { username, name: username, email: `${username}@example.com`, password: TEST_PASSWORD, skip_confirmation: true, ...extra };
  const res = assertStatus(await rootClient(app).post("/users", { json }), 201, `POST /users (${username})`);
  return res.body as Created<{ id: number; username: string }>;
}

/** POST /users/:id/personal_access_tokens as root (by default named "e2e", scope `api`). Answers the token, secret included. */
export async function createPersonalAccessToken(app: AppHandle, userId: number, opts: { name?: string; scopes?: string[] } = {}) {
  const json = { name: opts.name ?? "e2e", scopes: opts.scopes ?? ["api"] };
  const res = assertStatus(await rootClient(app).post(`/users/${userId}/personal_access_tokens`, { json }), 201, `token for user ${userId}`);
  return res.body as Created<{ id: number; token: string }>;
}

/** A user made by root (see `createUserAccount` for the body and `extra`) with an `api` token and a client using it. */
export async function createUser(app: AppHandle, username: string, extra: Record<string, unknown> = {}): Promise<TestUser> {
  const user = await createUserAccount(app, username, extra);
  const { token } = await createPersonalAccessToken(app, user.id);
  return { id: user.id, username, token, api: apiClient(app.url, token) };
}

/** POST /groups as `as`, like gitbeaker's `Groups.create(name, path, options)`. */
export async function createGroup(as: ApiClient, name: string, path: string, extra: Record<string, unknown> = {}) {
  const res = assertStatus(await as.post("/groups", { json: { name, path, ...extra } }), 201, `POST /groups (${path})`);
  return res.body as Created<{ id: number; full_path: string }>;
}

/** POST /projects as `as` with `body` (`name` and/or `path`, `namespace_id`, `visibility`, …). */
export async function createProject(as: ApiClient, body: Record<string, unknown>) {
  const res = assertStatus(await as.post("/projects", { json: body }), 201, `POST /projects (${String(body.name ?? body.path)})`);
  return res.body as Created<{ id: number; name: string; path_with_namespace: string }>;
}

/** Root makes `userId` a direct member of the project or group at `accessLevel`. */
export async function addMember(app: AppHandle, kind: "projects" | "groups", id: number, userId: number, accessLevel: number) {
  const json = { user_id: userId, access_level: accessLevel };
  assertStatus(await rootClient(app).post(`/${kind}/${id}/members`, { json }), 201, `member ${userId} of ${kind}/${id}`);
}
