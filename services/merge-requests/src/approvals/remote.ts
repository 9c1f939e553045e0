import { call, type Ctx } from "@collab/core";
import { Namespaces, type GroupEntity, type ProtectedBranch } from "@collab/namespaces-contract";
import { Accounts } from "@collab/accounts-contract";

/** Bus clients approvals use: each one call for any number of rows. */

export async function groupUserIds(ctx: Ctx<unknown>, groupIds: number[]): Promise<Map<number, number[]>> {
  const ids = [...new Set(groupIds)];
  if (!ids.length) return new Map();
  const out = await call(ctx, Namespaces.members.groupUserIds, { group_ids: ids });
  return new Map(Object.entries(out).map(([k, v]) => [Number(k), v]));
}

/** Held beside access.project, emptied by the same flush (@collab/work-items, project-facts.ts). */
export { levelsOnProjects, matchingProtectedBranches } from "@collab/work-items";

export type { GroupEntity };

export const visibleGroups = (ctx: Ctx<unknown>, ids: number[]) =>
  ids.length ? call(ctx, Namespaces.groups.visibleByIds, { ids: [...new Set(ids)] }) : Promise.resolve([] as GroupEntity[]);

export const protectedBranchesByIds = (ctx: Ctx<unknown>, projectId: number, ids: number[]) =>
  ids.length
    ? call(ctx, Namespaces.protectedBranches.byIds, { project_id: projectId, ids: [...new Set(ids)] })
    : Promise.resolve([] as ProtectedBranch[]);

export const userTypes = async (ctx: Ctx<unknown>, ids: number[]) =>
  new Map(Object.entries(await call(ctx, Accounts.users.types, { ids })).map(([k, v]) => [Number(k), v]));

export const passwordMatches = (ctx: Ctx<unknown>, userId: number, password: string) =>
  call(ctx, Accounts.users.verifyPassword, { user_id: userId, password });
