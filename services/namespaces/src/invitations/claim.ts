import type { Ctx } from "@collab/core";
import { handleEvent, type ServiceKit } from "@collab/db";
import { z } from "zod";
import type { MemberDetails } from "../members/seats";
import { NAMESPACES_EVENTS } from "../shared/events";
import { acceptInvitations, invitationsTo } from "./invitations";

const UserEvent = z.object({ userId: z.number().int() });

/**
 * On `accounts.user.created` and `accounts.user.updated`: the pending invitations to the user's
 * address become memberships once that address is confirmed (User#accept_pending_invitations!).
 * The user is read back from accounts, so a late or repeated event acts on the current address;
 * accepted invitations are deleted, so a redelivery finds nothing more to do.
 */
export async function claimInvitations(kit: ServiceKit, ctx: Ctx<unknown>): Promise<void> {
  await handleEvent(kit, ctx, UserEvent, async ({ userId }) => {
    const [user] = await ctx.call<MemberDetails[], { ids: number[] }>("accounts.users.memberDetails", { ids: [userId] });
    if (!user || !user.confirmed) return 0;
    const accepted = await acceptInvitations(kit.db, await invitationsTo(kit.db, user.email), user.id);
    if (accepted.length) ctx.broadcast(NAMESPACES_EVENTS.membersChanged, { userId: user.id });
    return accepted.length;
  });
}
