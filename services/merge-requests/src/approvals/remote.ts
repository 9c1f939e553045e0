import { Accounts } from "@collab/accounts/contract";
import { call, type Ctx } from "@collab/core";

/** Bus clients approvals use: each one call for any number of rows. */

export const matchingProtectedBranches = (ctx: Ctx<unknown>, pairs: { project_id: number; branch: string }[]) =>
  pairs.length ? ctx.call<number[][], { pairs: typeof pairs }>("namespaces.protectedBranches.matching", { pairs }) : Promise.resolve([] as number[][]);

export async function groupUserIds(ctx: Ctx<unknown>, groupIds: number[]): Promise<Map<number, number[]>> {
  const ids = [...new Set(groupIds)];
  if (!ids.length) return new Map();
  const out = await ctx.call<Record<string, number[]>, { group_ids: number[] }>("namespaces.members.groupUserIds", { group_ids: ids });
  return new Map(Object.entries(out).map(([k, v]) => [Number(k), v]));
}

/** Access levels per project and user: `levels.get(projectId)?.get(userId)`. */
export async function levelsOnProjects(ctx: Ctx<unknown>, wanted: Map<number, Set<number>>): Promise<Map<number, Map<number, number>>> {
  const pairs = [...wanted].filter(([, users]) => users.size).map(([project_id, users]) => ({ project_id, user_ids: [...users] }));
  if (!pairs.length) return new Map();
  const out = await ctx.call<Record<string, Record<string, number>>, { pairs: typeof pairs }>("namespaces.access.levelsOnProjects", { pairs });
  return new Map(Object.entries(out).map(([p, users]) => [Number(p), new Map(Object.entries(users).map(([u, l]) => [Number(u), l]))]));
}

export interface GroupEntity {
  id: number;
  [key: string]: unknown;
}

export const visibleGroups = (ctx: Ctx<unknown>, ids: number[]) =>
  ids.length ? ctx.call<GroupEntity[], { ids: number[] }>("namespaces.groups.visibleByIds", { ids: [...new Set(ids)] }) : Promise.resolve([] as GroupEntity[]);

export const protectedBranchesByIds = (ctx: Ctx<unknown>, projectId: number, ids: number[]) =>
  ids.length
    ? ctx.call<{ id: number; name: string }[], { project_id: number; ids: number[] }>("namespaces.protectedBranches.byIds", { project_id: projectId, ids: [...new Set(ids)] })
    : Promise.resolve([] as { id: number; name: string }[]);

export const userTypes = async (ctx: Ctx<unknown>, ids: number[]) =>
  new Map(Object.entries(await call(ctx, Accounts.users.types, { ids })).map(([k, v]) => [Number(k), v]));

export const passwordMatches = (ctx: Ctx<unknown>, userId: number, password: string) =>
  call(ctx, Accounts.users.verifyPassword, { user_id: userId, password });
