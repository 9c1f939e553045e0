import type { ActionSchema } from "moleculer";
import { call, AccessLevel, accessTokenListParams, action, forbidden, gEnum, gId, gString, gArray, gDate, paginationParams, requireAdmin, requireCaller, type Ctx } from "@collab/core";
import { Accounts } from "@collab/accounts-contract";
import type { ServiceKit } from "@collab/db";
import { z } from "zod";
import { requireArea } from "./availability";
import { Namespaces } from "@collab/namespaces-contract";

const groupRef = () => gString().refine((s) => s.length > 0, { error: "is invalid" });
const listParams = { ...paginationParams, order_by: gEnum(["id", "username"] as const).default("id"), sort: gEnum(["asc", "desc"] as const).default("desc") };
const createParams = { name: gString().optional(), username: gString().optional(), email: gString().optional() };
/** PATCH params: Users::ServiceAccounts::UpdateService::ALLOWED_PARAMS. */
const updateParams = { user_id: gId(), name: gString().optional(), username: gString().optional(), email: gString().optional() };
const tokenListParams = accessTokenListParams;

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
export const serviceAccountsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "serviceAccounts.list": action({
    idempotent: true,
    input: () => z.object(listParams),
    async handler(ctx) {
      requireArea("instanceServiceAccounts", kit.config);
      requireAdmin(ctx);
      return call(ctx, Accounts.serviceAccounts.list, { ...ctx.params, group_id: null });
    },
  }),

  "serviceAccounts.create": action({
    input: () => z.object(createParams),
    async handler(ctx) {
      requireArea("instanceServiceAccounts", kit.config);
      const admin = requireAdmin(ctx);
      return call(ctx, Accounts.serviceAccounts.create, { ...ctx.params, group_id: null, created_by_id: admin.id });
    },
  }),

  /** PATCH /service_accounts/:user_id: any service account, for administrators. */
  "serviceAccounts.update": action({
    input: () => z.object(updateParams),
    async handler(ctx) {
      requireArea("instanceServiceAccounts", kit.config);
      requireAdmin(ctx);
      return call(ctx, Accounts.serviceAccounts.update, { ...ctx.params, group_id: null });
    },
  }),

  "groupServiceAccounts.list": action({
    idempotent: true,
    input: () => z.object({ id: groupRef(), ...listParams }),
    async handler(ctx) {
      requireArea("groupServiceAccounts", kit.config);
      const { id, ...p } = ctx.params;
      const groupId = await managedGroup(ctx, id);
      return call(ctx, Accounts.serviceAccounts.list, { ...p, group_id: groupId });
    },
  }),

  "groupServiceAccounts.create": action({
    input: () => z.object({ id: groupRef(), ...createParams }),
    async handler(ctx) {
      requireArea("groupServiceAccounts", kit.config);
      const { id, ...p } = ctx.params;
      const groupId = await managedGroup(ctx, id);
      return call(ctx, Accounts.serviceAccounts.create, { ...p, group_id: groupId, created_by_id: requireCaller(ctx).id });
    },
  }),

  "groupServiceAccounts.delete": action({
    input: () => z.object({ id: groupRef(), user_id: gId(), hard_delete: z.unknown().optional() }),
    async handler(ctx) {
      requireArea("groupServiceAccounts", kit.config);
      const groupId = await managedGroup(ctx, ctx.params.id);
      await call(ctx, Accounts.serviceAccounts.delete, { user_id: ctx.params.user_id, group_id: groupId });
      return null;
    },
  }),

  /** PATCH /groups/:id/service_accounts/:user_id: the group's own service accounts. */
  "groupServiceAccounts.update": action({
    input: () => z.object({ id: groupRef(), ...updateParams }),
    async handler(ctx) {
      requireArea("groupServiceAccounts", kit.config);
      const { id, ...p } = ctx.params;
      const groupId = await managedGroup(ctx, id);
      return call(ctx, Accounts.serviceAccounts.update, { ...p, group_id: groupId });
    },
  }),

  "groupServiceAccounts.listTokens": action({
    idempotent: true,
    input: () => z.object({ id: groupRef(), user_id: gId(), ...tokenListParams }),
    async handler(ctx) {
      requireArea("groupServiceAccounts", kit.config);
      const { id, ...p } = ctx.params;
      const groupId = await managedGroup(ctx, id);
      return call(ctx, Accounts.serviceAccounts.listTokens, { ...p, group_id: groupId });
    },
  }),

  "groupServiceAccounts.rotateToken": action({
    input: () => z.object({ id: groupRef(), user_id: gId(), token_id: gId(), expires_at: gDate().optional() }),
    async handler(ctx) {
      requireArea("groupServiceAccounts", kit.config);
      const { id, ...p } = ctx.params;
      const groupId = await managedGroup(ctx, id);
      return call(ctx, Accounts.serviceAccounts.rotateToken, { ...p, group_id: groupId });
    },
  }),

  "groupServiceAccounts.revokeToken": action({
    input: () => z.object({ id: groupRef(), user_id: gId(), token_id: gId() }),
    async handler(ctx) {
      requireArea("groupServiceAccounts", kit.config);
      const { id, ...p } = ctx.params;
      const groupId = await managedGroup(ctx, id);
      await call(ctx, Accounts.serviceAccounts.revokeToken, { ...p, group_id: groupId });
      return null;
    },
  }),

  "groupServiceAccounts.createToken": action({
    input: () =>
      z.object({
        id: groupRef(),
        user_id: gId(),
        name: gString(),
        scopes: gArray(z.string({ error: "is invalid" })),
        description: gString().optional(),
        expires_at: gDate().optional(),
      }),
    async handler(ctx) {
      requireArea("groupServiceAccounts", kit.config);
      const { id, ...p } = ctx.params;
      const groupId = await managedGroup(ctx, id);
      return call(ctx, Accounts.serviceAccounts.createToken, { ...p, group_id: groupId });
    },
  }),
});
