import { Accounts, type ServiceAccount } from "@collab/accounts-contract";
import { badRequestMessage, errorBodyOf, implement, notFound, page, recordNotFound, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, asc, count, desc, eq, type SQL } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { presentToken, presentTokenWithSecret } from "./api/token.entity";
import { users, type TokenRow, type UserRow } from "./db/schema";
import { mintToken, revokeToken, rotateToken } from "./domain/tokens";
import { createUser, deleteUser, updateUser } from "./domain/users";
import { namespacePathCheck, userCreated, usersDeleted, userUpdated } from "./domain/personal-namespaces";
import { findTokenById, findTokens } from "./finders/tokens.finder";

const SERVICE_ACCOUNT = "service_account";

/** Any user by id (User.find), for the instance endpoints that tell "no user" from "not a service account". */
async function findUserById(kit: ServiceKit, userId: number): Promise<UserRow | undefined> {
  if (userId > 2_147_483_647) return undefined;
  const [user] = await kit.db.select().from(users).where(eq(users.id, userId));
  return user;
}

/** Instance (group_id null) or a top-level group's service account, else 404 User Not Found. */
async function loadServiceAccount(kit: ServiceKit, userId: number, groupId: number | null): Promise<UserRow> {
  const [user] = await kit.db.select().from(users).where(and(eq(users.id, userId), eq(users.userType, SERVICE_ACCOUNT)));
  if (!user || (groupId !== null && user.provisionedByGroupId !== groupId)) throw notFound("User");
  return user;
}

/** A service account's token, else 404: GitLab's not_found! (rotate) or not_found!('Personal Access Token') (revoke). */
async function loadToken(kit: ServiceKit, user: UserRow, tokenId: number, what?: string): Promise<TokenRow> {
  const token = await findTokenById(kit.db, tokenId);
  if (!token || token.userId !== user.id) throw notFound(what);
  return token;
}

/**
 * Users::UpdateService's failure as the service-account endpoints render it: 400 with the model's
 * full messages in one string ("Username has already been taken", "Email is invalid").
 */
function asUpdateError(err: unknown): unknown {
  const known = errorBodyOf(err);
  if (!known || (known.status !== 409 && known.status !== 400)) return err;
  const { message } = known.body;
  if (typeof message === "string") return badRequestMessage(message);
  if (message && typeof message === "object") {
    const full = Object.entries(message as Record<string, string[]>).flatMap(([field, msgs]) =>
      // Rails' full_messages: errors on :base are the message alone.
      msgs.map((m) => (field === "base" ? m : `${field[0].toUpperCase()}${field.slice(1).replace(/_/g, " ")} ${m}`)),
    );
    return badRequestMessage([...new Set(full)].join(". "));
  }
  return err;
}

/** Entities::ServiceAccount. */
const presentServiceAccount = (u: UserRow): ServiceAccount => ({ id: u.id, username: u.username, name: u.name, email: u.email });

/**
 * Bus actions behind the service-account endpoints (services/admin decides who may call them and
 * where they exist). Service accounts are bot users of user_type service_account.
 */

export const serviceAccountsActions = (kit: ServiceKit): ImplementedAction[] => [
  implement(Accounts.serviceAccounts.create, async (ctx) => {
    const { group_id } = ctx.params;
    const hex = randomBytes(16).toString("hex");
    const username = ctx.params.username ?? (group_id === null ? `service_account_${hex}` : `service_account_group_${group_id}_${hex}`);
    const host = new URL(kit.baseUrl).hostname;
    const email = ctx.params.email ?? `${username}_${randomBytes(4).toString("hex")}@noreply.${host}`;
    let user: UserRow;
    try {
      user = await kit.events.transact(
        (tx) =>
          createUser(
            tx,
            { name: ctx.params.name, username, email, force_random_password: true, skip_confirmation: true } as Parameters<typeof createUser>[1],
            { bot: true, userType: SERVICE_ACCOUNT, provisionedByGroupId: group_id, createdById: ctx.params.created_by_id },
          ),
        (u) => [userCreated(u)],
      );
    } catch (err) {
      // Users::ServiceAccounts::CreateService answers a taken email or username with 400 {"message": "..."}.
      const known = errorBodyOf(err);
      if (known?.status === 409 && typeof known.body.message === "string") throw badRequestMessage(known.body.message);
      throw err;
    }
    await kit.events.flush();
    return presentServiceAccount(user);
  }),

  /**
   * PATCH /service_accounts/:user_id (group_id null) and /groups/:id/service_accounts/:user_id.
   * Instance: User.find (404 "404 Not found"), then Users::ServiceAccounts::UpdateService's 400
   * "User is not a service account"; group: the group's provisioned users (404 User Not Found).
   * Blank values are dropped (compact_blank); errors are the update service's 400 {"message": "..."}.
   */
  implement(Accounts.serviceAccounts.update, async (ctx) => {
    const { user_id, group_id } = ctx.params;
    let user: UserRow;
    if (group_id === null) {
      const found = await findUserById(kit, user_id);
      if (!found) throw recordNotFound();
      if (found.userType !== SERVICE_ACCOUNT) throw badRequestMessage("User is not a service account");
      user = found;
    } else user = await loadServiceAccount(kit, user_id, group_id);
    const changes: { name?: string; username?: string; email?: string } = {};
    for (const key of ["name", "username", "email"] as const) {
      const value = ctx.params[key];
      if (value !== undefined && value.trim() !== "") changes[key] = value;
    }
    let updated: UserRow;
    try {
      updated = await kit.events.transact((tx) => updateUser(tx, user, changes, namespacePathCheck(ctx, user.id)), (u) => userUpdated(user, u));
    } catch (err) {
      throw asUpdateError(err);
    }
    await kit.events.flush();
    return presentServiceAccount(updated);
  }),

  /** GET /groups/:id/service_accounts/:user_id/personal_access_tokens (access_token_params filters). */
  implement(Accounts.serviceAccounts.listTokens, async (ctx) => {
    const { group_id, ...p } = ctx.params;
    const user = await loadServiceAccount(kit, p.user_id, group_id);
    const { rows, total } = await findTokens(kit.db, { ...p, user_id: user.id });
    return page(rows.map(presentToken), total, p);
  }),

  /**
   * POST /groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id/rotate: 200 with the
   * new token (secret included); a token of somebody else or none is 404, a revoked one 400.
   */
  implement(Accounts.serviceAccounts.rotateToken, async (ctx) => {
    const user = await loadServiceAccount(kit, ctx.params.user_id, ctx.params.group_id);
    const token = await loadToken(kit, user, ctx.params.token_id);
    const { row, token: secret } = await rotateToken(kit.db, token, ctx.params.expires_at);
    return presentTokenWithSecret(row, secret);
  }),

  /** DELETE /groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id: 204. */
  implement(Accounts.serviceAccounts.revokeToken, async (ctx) => {
    const user = await loadServiceAccount(kit, ctx.params.user_id, ctx.params.group_id);
    const token = await loadToken(kit, user, ctx.params.token_id, "Personal Access Token");
    await revokeToken(kit.db, token.id);
    return null;
  }),

  implement(Accounts.serviceAccounts.list, async (ctx) => {
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
  }),

  implement(Accounts.serviceAccounts.delete, async (ctx) => {
    const user = await loadServiceAccount(kit, ctx.params.user_id, ctx.params.group_id);
    await kit.events.transact((tx) => deleteUser(tx, user.id), () => usersDeleted([user.id]));
    await kit.events.flush();
    return null;
  }),

  implement(Accounts.serviceAccounts.createToken, async (ctx) => {
    const user = await loadServiceAccount(kit, ctx.params.user_id, ctx.params.group_id);
    return mintToken(kit.db, user.id, ctx.params);
  }),
];
