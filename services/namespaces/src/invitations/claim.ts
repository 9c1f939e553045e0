import { Accounts } from "@collab/accounts-contract";
import { call } from "@collab/core";
import type { AfterCommit, Db, ServiceKit } from "@collab/db";
import { broadcast } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { acceptInvitations, invitationsTo } from "./invitations";

/**
 * On `accounts.user.created` and `accounts.user.updated`: the pending invitations to the user's
 * address become memberships once that address is confirmed (User#accept_pending_invitations!),
 * in the consumer's transaction. The user is read back from accounts, so a late or repeated event
 * acts on the current address; accepted invitations are deleted, so a redelivery finds nothing
 * more to do.
 */
export async function claimInvitations(kit: ServiceKit, tx: Db, userId: number, afterCommit: AfterCommit): Promise<number> {
  const [user] = await call(kit.broker, Accounts.users.memberDetails, { ids: [userId] });
  if (!user || !user.confirmed) return 0;
  const accepted = await acceptInvitations(tx, await invitationsTo(tx, user.email), user.id);
  if (accepted.length) afterCommit(() => broadcast(kit.broker, Namespaces.events.membersChanged, { userId: user.id }));
  return accepted.length;
}
