import type { ActionSchema } from "moleculer";
import { call, AccessLevel, actionsOf, forbidden, implement, requireAdmin, requireCaller, type Ctx } from "@collab/core";
import { Accounts } from "@collab/accounts-contract";
import { Admin } from "@collab/admin-contract";
import type { ServiceKit } from "@collab/db";
import { requireArea } from "./availability";
import { Namespaces } from "@collab/namespaces-contract";

const published = { visibility: "published" } as const;

/**
 * The group whose service accounts a caller manages: a top-level group they own (or any, for
 * administrators). Service accounts are provisioned by top-level groups only.
 */
async function managedGroup(ctx: Ctx<unknown>, ref: string): Promise<number> {
  requireCaller(ctx);
  const g = await call(ctx, Namespaces.access.group, { group: ref });
  if (g.role < AccessLevel.OWNER) throw forbidden();
  if (g.group.parent_id !== null) throw forbidden("User does not have permission to create a service account in this namespace.");
  return g.group.id;
}

/** Service accounts (bot users) through the accounts service's bus actions. */
export const serviceAccountsActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("admin", [
    implement(
      Admin.serviceAccounts.list,
      async (ctx) => {
        requireArea("instanceServiceAccounts", kit.config);
        requireAdmin(ctx);
        return call(ctx, Accounts.serviceAccounts.list, { ...ctx.params, group_id: null });
      },
      published,
    ),

    implement(
      Admin.serviceAccounts.create,
      async (ctx) => {
        requireArea("instanceServiceAccounts", kit.config);
        const admin = requireAdmin(ctx);
        return call(ctx, Accounts.serviceAccounts.create, { ...ctx.params, group_id: null, created_by_id: admin.id });
      },
      published,
    ),

    /** PATCH /service_accounts/:user_id: any service account, for administrators. */
    implement(
      Admin.serviceAccounts.update,
      async (ctx) => {
        requireArea("instanceServiceAccounts", kit.config);
        requireAdmin(ctx);
        return call(ctx, Accounts.serviceAccounts.update, { ...ctx.params, group_id: null });
      },
      published,
    ),

    implement(
      Admin.groupServiceAccounts.list,
      async (ctx) => {
        requireArea("groupServiceAccounts", kit.config);
        const { id, ...p } = ctx.params;
        const groupId = await managedGroup(ctx, id);
        return call(ctx, Accounts.serviceAccounts.list, { ...p, group_id: groupId });
      },
      published,
    ),

    implement(
      Admin.groupServiceAccounts.create,
      async (ctx) => {
        requireArea("groupServiceAccounts", kit.config);
        const { id, ...p } = ctx.params;
        const groupId = await managedGroup(ctx, id);
        return call(ctx, Accounts.serviceAccounts.create, { ...p, group_id: groupId, created_by_id: requireCaller(ctx).id });
      },
      published,
    ),

    implement(
      Admin.groupServiceAccounts.delete,
      async (ctx) => {
        requireArea("groupServiceAccounts", kit.config);
        const groupId = await managedGroup(ctx, ctx.params.id);
        await call(ctx, Accounts.serviceAccounts.delete, { user_id: ctx.params.user_id, group_id: groupId });
        return null;
      },
      published,
    ),

    /** PATCH /groups/:id/service_accounts/:user_id: the group's own service accounts. */
    implement(
      Admin.groupServiceAccounts.update,
      async (ctx) => {
        requireArea("groupServiceAccounts", kit.config);
        const { id, ...p } = ctx.params;
        const groupId = await managedGroup(ctx, id);
        return call(ctx, Accounts.serviceAccounts.update, { ...p, group_id: groupId });
      },
      published,
    ),

    implement(
      Admin.groupServiceAccounts.listTokens,
      async (ctx) => {
        requireArea("groupServiceAccounts", kit.config);
        const { id, ...p } = ctx.params;
        const groupId = await managedGroup(ctx, id);
        return call(ctx, Accounts.serviceAccounts.listTokens, { ...p, group_id: groupId });
      },
      published,
    ),

    implement(
      Admin.groupServiceAccounts.rotateToken,
      async (ctx) => {
        requireArea("groupServiceAccounts", kit.config);
        const { id, ...p } = ctx.params;
        const groupId = await managedGroup(ctx, id);
        return call(ctx, Accounts.serviceAccounts.rotateToken, { ...p, group_id: groupId });
      },
      published,
    ),

    implement(
      Admin.groupServiceAccounts.revokeToken,
      async (ctx) => {
        requireArea("groupServiceAccounts", kit.config);
        const { id, ...p } = ctx.params;
        const groupId = await managedGroup(ctx, id);
        await call(ctx, Accounts.serviceAccounts.revokeToken, { ...p, group_id: groupId });
        return null;
      },
      published,
    ),

    implement(
      Admin.groupServiceAccounts.createToken,
      async (ctx) => {
        requireArea("groupServiceAccounts", kit.config);
        const { id, ...p } = ctx.params;
        const groupId = await managedGroup(ctx, id);
        return call(ctx, Accounts.serviceAccounts.createToken, { ...p, group_id: groupId });
      },
      published,
    ),
  ]);
