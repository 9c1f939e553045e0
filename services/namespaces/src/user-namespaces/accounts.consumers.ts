import { Accounts, type UserRef } from "@collab/accounts-contract";
import { call, pickFields } from "@collab/core";
import { on, type Subscription, type EventHandler, type ServiceKit } from "@collab/db";
import { claimInvitations } from "../invitations/claim";
import { removeUserEverywhere } from "../members/members";
import { syncUserNamespace } from "./user-namespaces";

/** The user as accounts has it now (null once deleted): events of one user may arrive out of order. */
async function currentUser(kit: ServiceKit, userId: number): Promise<UserRef | undefined> {
  const [user] = await call(kit.broker, Accounts.users.refs, { ids: [userId] });
  return user;
}

/**
 * What the namespaces service does when accounts announces a user created, renamed (or given a
 * new confirmed address) or deleted, as durable events applied once each: the personal namespace
 * follows (its projects' paths with it), invitations to the address apply, a deleted user's
 * memberships go. A user deleted while this service was down loses them once it is back.
 */
export const accountsSubscriptions = (kit: ServiceKit): Subscription[] => {
  const followUser: EventHandler<{ userId: number }> = async ({ userId }, tx, _event, afterCommit) => {
    const user = await currentUser(kit, userId);
    if (!user) return 0; // deleted meanwhile: its own event removes what is left
    await syncUserNamespace(tx, { id: user.id, username: user.username, name: user.name });
    return claimInvitations(kit, tx, user.id, afterCommit);
  };
  // Only the id is read: the user is asked of accounts as it is now.
  return [
    on(Accounts.events.userCreated, pickFields("userId"), followUser),
    on(Accounts.events.userUpdated, pickFields("userId"), followUser),
    on(Accounts.events.userDeleted, ({ userId }, tx) => removeUserEverywhere(tx, userId)),
  ];
};
