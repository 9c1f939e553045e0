import { call, type Ctx } from "@collab/core";
import type { Announcement } from "@collab/db";
import type { UserRow } from "../db/schema";
import { movesNamespace, type UpdateUserOptions } from "./users";
import { Namespaces } from "@collab/namespaces/contract";

/**
 * Personal namespaces live in the namespaces service; accounts only asks whether a new username is
 * free as a namespace path and announces renames (`accounts.user.updated`), which that service
 * applies to the user's namespace (path = username, name = name), moving the personal projects.
 * The same event announces a new or newly confirmed e-mail address: namespaces then turns pending
 * invitations to that address into memberships (as `accounts.user.created` does for a new user).
 * These are durable events (the outbox), so a namespaces service that is down applies them when
 * it is back.
 */
export const USER_UPDATED_EVENT = "accounts.user.updated";

export interface UserUpdatedEvent {
  userId: number;
  username: string;
  name: string;
  email: string;
  /** Whether `email` is confirmed: only a confirmed address claims invitations. */
  confirmed: boolean;
}

/** `accounts.user.created`: the same shape. */
export const userCreatedEvent = (u: UserRow): UserUpdatedEvent => ({ userId: u.id, username: u.username, name: u.name, email: u.email, confirmed: u.confirmedAt !== null });

/** Whether an update changes the e-mail address or its confirmation (invitations may now apply). */
const changesEmail = (before: UserRow, after: UserRow) =>
  before.email.toLowerCase() !== after.email.toLowerCase() || (before.confirmedAt === null) !== (after.confirmedAt === null);

/** updateUser's namespace check, answered by `namespaces.userNamespaces.pathAvailable`. */
export const namespacePathCheck = (ctx: Ctx<unknown>, userId: number): UpdateUserOptions => ({
  namespacePathAvailable: async (username) =>
    (await call(ctx, Namespaces.userNamespaces.pathAvailable, { path: username, user_id: userId })).available,
});

/** The users' durable events (`kit.events`), each written in the transaction of its change. */
export const USER_EVENTS = { created: "accounts.user.created", updated: USER_UPDATED_EVENT, deleted: "accounts.user.deleted" } as const;

export const userCreated = (user: UserRow): Announcement => [USER_EVENTS.created, userCreatedEvent(user)];

export const usersDeleted = (ids: readonly number[]): Announcement[] => ids.map((userId) => [USER_EVENTS.deleted, { userId }]);

/** `accounts.user.updated` when the username, name or e-mail address (or its confirmation) changed. */
export const userUpdated = (before: UserRow, after: UserRow): Announcement[] =>
  movesNamespace(before, after) || changesEmail(before, after) ? [[USER_EVENTS.updated, userCreatedEvent(after)]] : [];
