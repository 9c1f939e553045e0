import type { Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import { claimInvitations } from "../invitations/claim";
import { removeUserEverywhere } from "../members/members";
import { userRefs } from "../shared/users";
import { ensureUserNamespace, syncUserNamespace } from "./user-namespaces";

/**
 * What the namespaces service does when accounts announces a user created, renamed (or given a new
 * confirmed address) or deleted: the personal namespace follows, invitations to the address apply.
 */
export const accountsEvents = (kit: ServiceKit): NonNullable<ServiceSchema["events"]> => ({
  async "accounts.user.created"(ctx: Ctx<{ userId: number; username: string; name: string }>) {
    await ensureUserNamespace(kit.db, { id: ctx.params.userId, username: ctx.params.username, name: ctx.params.name });
    await claimInvitations(kit, ctx);
  },
  /**
   * Username or name changed: the personal namespace follows (its projects' paths with it). The
   * user is read back from accounts, so events applied out of order still end on the latest state.
   */
  async "accounts.user.updated"(ctx: Ctx<{ userId: number; username: string; name: string }>) {
    const [current] = (await userRefs(ctx, [ctx.params.userId])).values();
    if (!current) return; // deleted meanwhile
    await syncUserNamespace(kit.db, { id: current.id, username: current.username, name: current.name });
    await claimInvitations(kit, ctx);
  },
  async "accounts.user.deleted"(ctx: Ctx<{ userId: number }>) {
    await removeUserEverywhere(kit.db, ctx.params.userId);
  },
});
