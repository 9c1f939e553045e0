import { call, type Ctx, announce, type PayloadOf } from "@collab/core";
import { Accounts } from "@collab/accounts-contract";
import type { Announcement } from "@collab/db";
import type { UserRow } from "../db/schema";
import { movesNamespace, type UpdateUserOptions } from "./users";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * Personal namespaces live in the namespaces service; accounts only asks whether a new username is
 * free as a namespace path and announces renames (`accounts.user.updated`), which that service
 * applies to the user's namespace (path = username, name = name), moving the personal projects.
 * The same event announces a new or newly confirmed e-mail address: namespaces then turns pending
 * invitations to that address into memberships (as `accounts.user.created` does for a new user).
 * These are durable events (the outbox), so a namespaces service that is down applies them when
 * it is back.
 */
/** The payload of `accounts.user.created` and `accounts.user.updated` (Accounts.events). */
export const userEventPayload = (u: UserRow): PayloadOf<typeof Accounts.events.userCreated> => ({ userId: u.id, username: u.username, name: u.name, email: u.email, confirmed: u.confirmedAt !== null });

/** Whether an update changes the e-mail address or its confirmation (invitations may now apply). */
const changesEmail = (before: UserRow, after: UserRow) =>
  before.email.toLowerCase() !== after.email.toLowerCase() || (before.confirmedAt === null) !== (after.confirmedAt === null);

/** updateUser's namespace check, answered by `namespaces.userNamespaces.pathAvailable`. */
export const namespacePathCheck = (ctx: Ctx<unknown>, userId: number): UpdateUserOptions => ({
  namespacePathAvailable: async (username) =>
    (await call(ctx, Namespaces.userNamespaces.pathAvailable, { path: username, user_id: userId })).available,
});

/** The users' durable events (Accounts.events, `kit.events`), each written in the transaction of its change. */
export const userCreated = (user: UserRow): Announcement => announce(Accounts.events.userCreated, userEventPayload(user));

export const usersDeleted = (ids: readonly number[]): Announcement[] => ids.map((userId) => announce(Accounts.events.userDeleted, { userId }));

/** `accounts.user.updated` for a new state (blocked, active, deactivated…): how the user is shown elsewhere changed. */
export const userStateChanged = (after: UserRow): Announcement[] => [announce(Accounts.events.userUpdated, userEventPayload(after))];

/** `accounts.user.updated` when the username, name or e-mail address (or its confirmation) changed. */
export const userUpdated = (before: UserRow, after: UserRow): Announcement[] =>
  movesNamespace(before, after) || changesEmail(before, after) ? [announce(Accounts.events.userUpdated, userEventPayload(after))] : [];
