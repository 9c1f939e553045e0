import type { Context } from "moleculer";
import { forbidden } from "./errors";
import { requireCaller, type Meta } from "./meta";

/**
 * What a user may create, as the accounts service knows it: asked over the bus when a group or a
 * personal project is created, so it is always current (ctx.meta carries only who is calling).
 */
export interface UserLimits {
  id: number;
  admin: boolean;
  can_create_group: boolean;
  projects_limit: number;
}

/** The bus action answering UserLimits for `{ id }` (404 "User Not Found" for an unknown id). */
export const USER_LIMITS_ACTION = "accounts.users.limits";

/** The limits of `userId`, by default the caller's (401 for anonymous calls). */
export function userLimits(ctx: Context<unknown, Meta>, userId?: number): Promise<UserLimits> {
  const id = userId ?? requireCaller(ctx).id;
  return ctx.call<UserLimits, { id: number }>(USER_LIMITS_ACTION, { id });
}

/**
 * GitLab's `authorize! :create_group` for a top-level group (POST /groups, POST /groups/import):
 * administrators may; anybody else only with can_create_group, otherwise 403 "403 Forbidden".
 */
export async function assertCanCreateTopLevelGroup(ctx: Context<unknown, Meta>): Promise<void> {
  const caller = requireCaller(ctx);
  if (caller.admin) return;
  const limits = await userLimits(ctx, caller.id);
  if (!limits.can_create_group) throw forbidden();
}
