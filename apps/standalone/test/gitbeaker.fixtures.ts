import { Gitlab } from "@gitbeaker/rest";
import { createUser, type AppHandle, type TestUser } from "@collab/testing";

/** A test user with a @gitbeaker/rest client on the same token. */
export interface GitbeakerUser extends TestUser {
  gl: InstanceType<typeof Gitlab>;
}

/**
 * `createUser` (an `api` token, made by root) plus a gitbeaker client. The display name is the
 * username capitalised ("alice" → "Alice") unless `extra` names it.
 */
export async function createGitbeakerUser(app: AppHandle, username: string, extra: Record<string, unknown> = {}): Promise<GitbeakerUser> {
  const user = await createUser(app, username, { name: username[0].toUpperCase() + username.slice(1), ...extra });
  return { ...user, gl: new Gitlab({ host: app.url, token: user.token }) };
}

/** The HTTP status a gitbeaker call failed with (gitbeaker throws with the Response as `cause`). */
export async function failureStatus(call: Promise<unknown>): Promise<number | "no failure"> {
  try {
    await call;
    return "no failure";
  } catch (err) {
    return (err as { cause?: { response?: Response } }).cause?.response?.status ?? Promise.reject(err);
  }
}
