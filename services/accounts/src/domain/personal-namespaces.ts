import type { Ctx } from "@collab/core";
import type { Logger } from "moleculer";
import type { UserRow } from "../db/schema";
import { movesNamespace, type UpdateUserOptions } from "./users";

/**
 * Personal namespaces live in the namespaces service; accounts only asks whether a new username is
 * free as a namespace path and announces renames (`accounts.user.updated`), which that service
 * applies to the user's namespace (path = username, name = name), moving the personal projects.
 */
export const USER_UPDATED_EVENT = "accounts.user.updated";

export interface UserUpdatedEvent {
  userId: number;
  username: string;
  name: string;
}

/** updateUser's namespace check, answered by `namespaces.userNamespaces.pathAvailable`. */
export const namespacePathCheck = (ctx: Ctx<unknown>, userId: number): UpdateUserOptions => ({
  namespacePathAvailable: async (username) =>
    (await ctx.call<{ available: boolean }, { path: string; user_id: number }>("namespaces.userNamespaces.pathAvailable", { path: username, user_id: userId })).available,
});

/**
 * Emits `accounts.user.updated` when the username or name changed. Awaited so that, in one process,
 * the namespace has moved before the API answers; a failing handler is logged, never the update's
 * error (the user row is already saved, and the handler is idempotent).
 */
export async function announceUserUpdate(ctx: Ctx<unknown>, logger: Logger, before: UserRow, after: UserRow): Promise<void> {
  if (!movesNamespace(before, after)) return;
  const event: UserUpdatedEvent = { userId: after.id, username: after.username, name: after.name };
  try {
    await ctx.emit(USER_UPDATED_EVENT, event);
  } catch (err) {
    logger.warn({ err: (err as Error).message, userId: after.id }, "personal namespace not moved after a user update");
  }
}
