import { Accounts } from "@collab/accounts-contract";
import { AccessLevel, badRequest, call, callerOf, notFound, page, recordNotFound, type Ctx, broadcast, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { routeNotFound } from "../deletion/deletion";
import { Namespaces } from "@collab/namespaces-contract";
import { userRefs } from "../shared/users";
import { readableGroup } from "./authorize";
import { presentBillableMember, presentBillableMembership } from "./billable-member.entity";
import {
  billableOf,
  directOwnerIds,
  hierarchyMembers,
  pageOf,
  removeFromHierarchy,
  sortBillable,
  userHierarchyMemberships,
  type BillableMember,
} from "./billable-members.finder";

/**
 * Billable members of a top-level group (EE, Premium and Ultimate): who takes a seat there, their
 * direct memberships in it, and removing one from the whole hierarchy. Only its Owners (and
 * administrators) may; GitLab answers 400 to other members and for subgroups.
 */
export const billableMembersActions = (kit: ServiceKit): Record<string, ActionSchema> => {
  /** The group, checked in GitLab's order: hidden 404, then `order` of subgroup / permission 400s. */
  async function topLevelGroup(ctx: Ctx<{ id: string }>, order: "subgroup-first" | "permission-first", reason?: { subgroup: string; permission: string }) {
    if (kit.config.LICENSE_TIER === "free") throw routeNotFound();
    const g = await readableGroup(kit.db, ctx, ctx.params.id);
    const checks = [
      () => {
        if (g.group.parentId !== null) throw badRequest(reason?.subgroup);
      },
      () => {
        if (g.role < AccessLevel.OWNER) throw badRequest(reason?.permission);
      },
    ];
    for (const check of order === "subgroup-first" ? checks : checks.reverse()) check();
    return g.group;
  }

  async function billableMembers(ctx: Ctx<unknown>, groupId: number): Promise<BillableMember[]> {
    const members = await hierarchyMembers(kit.db, groupId);
    const details = await call(ctx, Accounts.users.memberDetails, { ids: members.map((m) => m.userId) });
    return billableOf(kit.config.LICENSE_TIER, members, details);
  }

  return {
    "billableMembers.list": implement(
      Namespaces.billableMembers.list,
      async (ctx) => {
        const group = await topLevelGroup(ctx, "subgroup-first");
        let list = await billableMembers(ctx, group.id);
        if (ctx.params.search) {
          const ids = await call(ctx, Accounts.users.match, { ids: list.map((m) => m.userId), query: ctx.params.search });
          const matching = new Set(ids);
          list = list.filter((m) => matching.has(m.userId));
        }
        const sorted = sortBillable(list, ctx.params.sort);
        const owners = await directOwnerIds(kit.db, group.id);
        const admin = callerOf(ctx)?.admin === true;
        return page(
          pageOf(sorted, ctx.params).map((m) => presentBillableMember(m, kit.baseUrl, { admin, lastOwner: owners.length === 1 && owners[0] === m.userId })),
          sorted.length,
          ctx.params,
        );
      },
      { visibility: "published" },
    ),

    "billableMembers.memberships": implement(
      Namespaces.billableMembers.memberships,
      async (ctx) => {
        const group = await topLevelGroup(ctx, "permission-first");
        if (!(await userRefs(ctx, [ctx.params.user_id])).has(ctx.params.user_id)) throw recordNotFound();
        const billable = await billableMembers(ctx, group.id);
        if (!billable.some((m) => m.userId === ctx.params.user_id)) throw notFound("User");
        const memberships = await userHierarchyMemberships(kit.db, group.id, ctx.params.user_id);
        return page(pageOf(memberships, ctx.params).map((m) => presentBillableMembership(m, kit.baseUrl)), memberships.length, ctx.params);
      },
      { visibility: "published" },
    ),

    /**
     * Members::ScheduleDeletionService, carried out at once: every membership of the user in the
     * hierarchy goes in one transaction. A group's only Owner stays (it would be left ownerless).
     */
    "billableMembers.remove": implement(
      Namespaces.billableMembers.remove,
      async (ctx) => {
        const group = await topLevelGroup(ctx, "subgroup-first", { subgroup: "Must be a root namespace", permission: "User not authorized" });
        const billable = await billableMembers(ctx, group.id);
        if (!billable.some((m) => m.userId === ctx.params.user_id)) throw notFound("User");
        const owners = await directOwnerIds(kit.db, group.id);
        if (owners.length === 1 && owners[0] === ctx.params.user_id) throw badRequest("Members who are the last owner cannot be removed");
        await removeFromHierarchy(kit.db, group.id, ctx.params.user_id);
        broadcast(ctx, Namespaces.events.membersChanged, { userId: ctx.params.user_id });
        return null;
      },
      { visibility: "published" },
    ),
  };
};
