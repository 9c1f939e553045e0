import type { Context } from "moleculer";
import { z } from "zod";
import { actionContract, call } from "./contract";
import { forbidden } from "./errors";
import { requireCaller, type Meta } from "./meta";

/**
 * What a user may create, as the accounts service knows it: asked over the bus when a group or a
 * personal project is created, so it is always current (ctx.meta carries only who is calling).
 */
export const UserLimitsSchema = z.object({
  id: z.number().int(),
  admin: z.boolean(),
  can_create_group: z.boolean(),
  projects_limit: z.number().int(),
});
export type UserLimits = z.output<typeof UserLimitsSchema>;

/**
 * `accounts.users.limits`: UserLimits for `{ id }` (404 "User Not Found" for an unknown id). Declared
 * here because @collab/core asks it and cannot depend on a service's contract; the accounts contract
 * re-exports this very entry as `Accounts.users.limits`.
 */
export const UserLimitsAction = actionContract("accounts.users.limits", {
  input: () => z.object({ id: z.number().int() }),
  output: () => UserLimitsSchema,
  idempotent: true,
});

/** The limits of `userId`, by default the caller's (401 for anonymous calls). */
export function userLimits(ctx: Context<unknown, Meta>, userId?: number): Promise<UserLimits> {
  const id = userId ?? requireCaller(ctx).id;
  return call(ctx, UserLimitsAction, { id });
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
