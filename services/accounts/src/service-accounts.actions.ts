import type { ActionSchema } from "moleculer";
import { action, badRequestMessage, errorBodyOf, gDate, gEnum, gString, gArray, notFound, page, paginationParams } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, asc, count, desc, eq, type SQL } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { presentTokenWithSecret } from "./api/token.entity";
import { PAT_SCOPES } from "./api/tokens.params";
import { users, type UserRow } from "./db/schema";
import { createToken } from "./domain/tokens";
import { createUser, deleteUser } from "./domain/users";

const SERVICE_ACCOUNT = "service_account";

/** Instance (group_id null) or a top-level group's service account, else 404 User Not Found. */
async function loadServiceAccount(kit: ServiceKit, userId: number, groupId: number | null): Promise<UserRow> {
  const [user] = await kit.db.select().from(users).where(and(eq(users.id, userId), eq(users.userType, SERVICE_ACCOUNT)));
  if (!user || (groupId !== null && user.provisionedByGroupId !== groupId)) throw notFound("User");
  return user;
}

/**
 * Bus actions behind the service-account endpoints (services/admin decides who may call them and
 * where they exist). Service accounts are bot users of user_type service_account.
 */
export const serviceAccountsActions = (kit: ServiceKit, events: { userCreated: string; userDeleted: string }): Record<string, ActionSchema> => ({
  "serviceAccounts.create": action({
    visibility: "public",
    input: () =>
      z.object({
        name: gString().default("Service account user"),
        username: gString().optional(),
        email: gString().optional(),
        group_id: z.number().int().nullable().default(null),
        created_by_id: z.number().int(),
      }),
    async handler(ctx) {
      const { group_id } = ctx.params;
      const hex = randomBytes(16).toString("hex");
      const username = ctx.params.username ?? (group_id === null ? `service_account_${hex}` : `service_account_group_${group_id}_${hex}`);
      const host = new URL(kit.baseUrl).hostname;
      const email = ctx.params.email ?? `${username}_${randomBytes(4).toString("hex")}@noreply.${host}`;
      let user: UserRow;
      try {
        user = await createUser(
          kit.db,
          { name: ctx.params.name, username, email, force_random_password: true, skip_confirmation: true } as Parameters<typeof createUser>[1],
          { bot: true, userType: SERVICE_ACCOUNT, provisionedByGroupId: group_id, createdById: ctx.params.created_by_id },
        );
      } catch (err) {
        // Users::ServiceAccounts::CreateService answers a taken email or username with 400 {"message": "..."}.
        const known = errorBodyOf(err);
        if (known?.status === 409 && typeof known.body.message === "string") throw badRequestMessage(known.body.message);
        throw err;
      }
      ctx.emit(events.userCreated, { userId: user.id, username: user.username, name: user.name });
      return { id: user.id, username: user.username, name: user.name, email: user.email };
    },
  }),

  "serviceAccounts.list": action({
    idempotent: true,
    visibility: "public",
    input: () =>
      z.object({
        ...paginationParams,
        group_id: z.number().int().nullable().default(null),
        order_by: gEnum(["id", "username"] as const).default("id"),
        sort: gEnum(["asc", "desc"] as const).default("desc"),
      }),
    async handler(ctx) {
      const p = ctx.params;
      const where: SQL | undefined = and(eq(users.userType, SERVICE_ACCOUNT), p.group_id === null ? undefined : eq(users.provisionedByGroupId, p.group_id));
      const column = p.order_by === "username" ? users.username : users.id;
      const [rows, [{ total }]] = await Promise.all([
        kit.db
          .select({ id: users.id, username: users.username, name: users.name })
          .from(users)
          .where(where)
          .orderBy(p.sort === "asc" ? asc(column) : desc(column), p.sort === "asc" ? asc(users.id) : desc(users.id))
          .limit(p.per_page)
          .offset((p.page - 1) * p.per_page),
        kit.db.select({ total: count() }).from(users).where(where),
      ]);
      return page(rows, total, p);
    },
  }),

  "serviceAccounts.delete": action({
    visibility: "public",
    input: () => z.object({ user_id: z.number().int(), group_id: z.number().int() }),
    async handler(ctx) {
      const user = await loadServiceAccount(kit, ctx.params.user_id, ctx.params.group_id);
      await deleteUser(kit.db, user.id);
      ctx.broadcast(events.userDeleted, { userId: user.id });
      return null;
    },
  }),

  "serviceAccounts.createToken": action({
    visibility: "public",
    input: () =>
      z.object({
        user_id: z.number().int(),
        group_id: z.number().int(),
        name: gString().refine((s) => s.trim() !== "", { error: "is empty" }),
        description: gString().optional(),
        scopes: gArray(gEnum(PAT_SCOPES)).refine((s) => s.length > 0, { error: "is empty" }),
        expires_at: gDate().optional(),
      }),
    async handler(ctx) {
      const user = await loadServiceAccount(kit, ctx.params.user_id, ctx.params.group_id);
      const { row, token } = await createToken(kit.db, {
        userId: user.id,
        name: ctx.params.name,
        description: ctx.params.description,
        scopes: ctx.params.scopes,
        expiresAt: ctx.params.expires_at,
      });
      return presentTokenWithSecret(row, token);
    },
  }),
});
