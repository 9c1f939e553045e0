import { call, type Ctx, type UserRef } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { Accounts } from "@collab/accounts-contract";
import { Repositories } from "@collab/repositories-contract";

/** Everything this service asks other services, batch-shaped. */
export type { GroupAccess, ProjectAccess } from "@collab/namespaces-contract";
export type { RefResolution } from "@collab/repositories-contract";

export const projectAccess = (ctx: Ctx<unknown>, ref: string | number) => call(ctx, Namespaces.access.project, { project: ref });

export const groupAccess = (ctx: Ctx<unknown>, ref: string | number) => call(ctx, Namespaces.access.group, { group: ref });

/** The access level of any user on a project or group, whoever asks. */
export async function levelOf(ctx: Ctx<unknown>, userId: number, where: { project_id?: number; group_id?: number }): Promise<number> {
  try {
    const r = await call(ctx, Namespaces.access.level, { user_id: userId, ...where });
    return r.access_level;
  } catch {
    return 0;
  }
}

/** Projects the caller is a member of, with their level. */
export const memberProjects = (ctx: Ctx<unknown>) => call(ctx, Namespaces.projects.readable, { membership_only: true });

/** Groups (subgroups included) where the caller has at least this level. */
export const groupsWithLevel = (ctx: Ctx<unknown>, min: number) => call(ctx, Namespaces.access.callerGroups, { min_access_level: min });

export async function userMap(ctx: Ctx<unknown>, ids: Iterable<number | null | undefined>): Promise<Map<number, UserRef>> {
  const unique = [...new Set([...ids].filter((i): i is number => typeof i === "number"))];
  if (!unique.length) return new Map();
  const refs = await call(ctx, Accounts.users.refs, { ids: unique });
  return new Map(refs.map((u) => [u.id, u]));
}

export const resolveRef = (ctx: Ctx<unknown> | { call: Ctx<unknown>["call"] }, projectId: number, ref: string) =>
  call(ctx, Repositories.refs.resolve, { project_id: projectId, ref });
