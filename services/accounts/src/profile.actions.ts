import { Accounts } from "@collab/accounts-contract";
import { implement, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { findUserByIdOrUsername } from "./finders/users.finder";

/** Bus only: whether a user's profile (and so their activity) is open to others (UserPolicy :read_user_profile). */
export const profileActions = (kit: ServiceKit): ImplementedAction[] => [
  /** A user by id or username with their state and private_profile flag, or null. */
  implement(Accounts.users.profile, async (ctx) => {
    const user = await findUserByIdOrUsername(kit.db, ctx.params.ref);
    return user ? { id: user.id, username: user.username, state: user.state, private_profile: user.privateProfile } : null;
  }),
];
