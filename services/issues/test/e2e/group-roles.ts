import { addMember, apiClient, createUser, type ApiClient, type ApiResponse, type TestApp } from "@collab/testing";

/** The callers of a group's permission matrices: anonymous, a signed-in outsider, and one member per role. */
export const ROLES = ["anonymous", "outsider", "guest", "reporter", "developer", "maintainer", "owner"] as const;
export type Role = (typeof ROLES)[number];
/** What each role noticed: the status of a success, the message of a failure. */
export type Table = Record<Role, number | string>;

const LEVELS: Partial<Record<Role, number>> = { guest: 10, reporter: 20, developer: 30, maintainer: 40, owner: 50 };

/** A group ("team") made by root, with a client per role (members at their level, the outsider in no group). */
export async function groupWithRoles(app: TestApp, root: ApiClient, visibility: "private" | "public"): Promise<{ groupId: number; callers: Record<Role, ApiClient> }> {
  const group = await root.post("/groups", { json: { name: "Team", path: "team", visibility } });
  if (group.status !== 201) throw new Error(`group: ${group.status} ${group.text}`);
  const groupId = group.body.id as number;
  const callers: Partial<Record<Role, ApiClient>> = { anonymous: apiClient(app.url) };
  await Promise.all(
    ROLES.filter((r) => r !== "anonymous").map(async (role) => {
      const user = await createUser(app, role, { email: `${role}@team.test` });
      callers[role] = user.api;
      if (LEVELS[role]) await addMember(app, "groups", groupId, user.id, LEVELS[role]);
    }),
  );
  return { groupId, callers: callers as Record<Role, ApiClient> };
}

export const outcome = (res: ApiResponse) => (res.status < 400 ? res.status : typeof res.body?.message === "string" ? res.body.message : `${res.status} ${JSON.stringify(res.body)}`);

/** Runs `call` for every role in turn and collects the outcomes into one table. */
export async function tableOf(call: (role: Role) => Promise<ApiResponse>): Promise<Table> {
  const table = {} as Table;
  for (const role of ROLES) table[role] = outcome(await call(role));
  return table;
}
