import { actionsOf, broadcast, implement, notFound } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { findGroup } from "../shared/lookup";
import { grantMembership, revokeMembership } from "./provisioning";

/**
 * Bus only: what SCIM provisioning (accounts) asks of groups. There is no caller: the SCIM token
 * the accounts service checked stands for the group's identity provider.
 */
export const provisioningActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /** The group a SCIM URL names, by id or full path, whatever its visibility; null when none. */
    implement(Namespaces.provisioning.group, async (ctx) => {
      const group = await findGroup(kit.db, ctx.params.group);
      return group ? { id: group.id, name: group.name, full_path: group.fullPath, parent_id: group.parentId } : null;
    }),

    /** A direct membership at `access_level` unless the user already has one: `{ added }`. */
    implement(Namespaces.provisioning.addMember, async (ctx) => {
      const group = await findGroup(kit.db, ctx.params.group_id);
      if (!group) throw notFound("Group");
      const added = await grantMembership(kit.db, group.id, ctx.params.user_id, ctx.params.access_level);
      if (added) broadcast(ctx, Namespaces.events.membersChanged, { userId: ctx.params.user_id });
      return { added };
    }),

    /**
     * The user's memberships of the group and everything below it go: `{ outcome }`, "removed",
     * "not_member", or "last_owner" (nothing removed: a group keeps its last Owner).
     */
    implement(Namespaces.provisioning.removeMember, async (ctx) => {
      const group = await findGroup(kit.db, ctx.params.group_id);
      if (!group) throw notFound("Group");
      const outcome = await revokeMembership(kit.db, group, ctx.params.user_id);
      if (outcome === "removed") broadcast(ctx, Namespaces.events.membersChanged, { userId: ctx.params.user_id });
      return { outcome };
    }),
  ]);
