import { actionsOf, ApiError, badRequest, forbidden, implement, notAllowed, notFound, page, recordNotFound, requireAdmin, requireCaller, callerOf, unauthorized } from "@collab/core";
import { defineService, type ServiceKit } from "@collab/db";
import type { ActionSchema, ServiceSchema } from "moleculer";
import path from "node:path";
import { presentToken, presentTokenWithSecret } from "./api/token.entity";
import { presentUser, presentUserBasic, presentUserPublic, presentUserWithAdmin } from "./api/user.entity";
import { outbox, processedEvents, type UserRow } from "./db/schema";
import { bootstrapRoot } from "./domain/bootstrap";
import { createToken, mintToken, revokeToken, rotateToken } from "./domain/tokens";
import { signUp } from "./domain/registrations";
import { approveUser, changeState, createUser, deleteUser, rejectUser, updateUser } from "./domain/users";
import { namespacePathCheck, userCreated, usersDeleted, userStateChanged, userUpdated } from "./domain/personal-namespaces";
import { findTokens, findTokenById } from "./finders/tokens.finder";
import { findUserByIdOrUsername, findUsers } from "./finders/users.finder";
import { serviceAccountsActions } from "./service-accounts.actions";
import { resourceTokensActions } from "./resource-tokens.actions";
import { deployTokenAuthentication, deployTokensActions } from "./deploy-tokens.actions";
import { namespacesConsumers } from "./namespaces.events";
import { samlActions, samlMemberIdentities } from "./scim/saml.actions";
import { scimActions, scimAuthentication } from "./scim/scim.actions";
import { effectiveLevelActions, notificationSettingsActions } from "./notification-settings.actions";
import { approvalIdentityActions } from "./approval-identity.actions";
import { profileActions } from "./profile.actions";
import { usersBusActions } from "./users.bus.actions";
import { settingsMixin } from "@collab/core";
import { flushingIdentities } from "./identity-flush";
import { Accounts } from "@collab/accounts-contract";

async function loadUser(kit: ServiceKit, ref: string | number): Promise<UserRow> {
  const user = await findUserByIdOrUsername(kit.db, ref);
  if (!user) throw notFound("User");
  return user;
}

/** The users' and personal access tokens' API (routes.ts). */
const usersActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "users.list": implement(
    Accounts.users.list,
    async (ctx) => {
      const caller = callerOf(ctx);
      // Anonymous callers may only look a user up by username, never list the instance.
      if (!caller && !ctx.params.username) throw forbidden("Not authorized to access /api/v4/users");
      const admin = caller?.admin ?? false;
      const { rows, total } = await findUsers(kit.db, ctx.params, admin);
      const present = admin ? presentUserWithAdmin : presentUserBasic;
      return page(rows.map((u) => present(u, kit.baseUrl)), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "users.get": implement(
    Accounts.users.get,
    async (ctx) => {
      const caller = callerOf(ctx);
      if (!caller) throw forbidden("Not authorized!");
      const user = await loadUser(kit, ctx.params.id);
      return caller.admin ? presentUserWithAdmin(user, kit.baseUrl) : presentUser(user, kit.baseUrl);
    },
    { visibility: "published" },
  ),

  "users.current": implement(
    Accounts.users.current,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const user = await loadUser(kit, caller.id);
      return caller.admin ? presentUserWithAdmin(user, kit.baseUrl) : presentUserPublic(user, kit.baseUrl);
    },
    { visibility: "published" },
  ),

  "users.create": implement(
    Accounts.users.create,
    async (ctx) => {
      const admin = requireAdmin(ctx);
      const user = await kit.events.transact((tx) => createUser(tx, ctx.params, { createdById: admin.id }), (u) => [userCreated(u)]);
      // In one process the personal namespace exists when the API answers, as before events were durable.
      await kit.events.flush();
      return presentUserWithAdmin(user, kit.baseUrl);
    },
    { visibility: "published" },
  ),

  "users.update": implement(
    Accounts.users.update,
    async (ctx) => {
      requireAdmin(ctx);
      const { id, ...changes } = ctx.params;
      const before = await loadUser(kit, id);
      const user = await kit.events.transact((tx) => updateUser(tx, before, changes, namespacePathCheck(ctx, before.id)), (u) => userUpdated(before, u));
      await kit.events.flush();
      return presentUserWithAdmin(user, kit.baseUrl);
    },
    { visibility: "published" },
  ),

  "users.delete": implement(
    Accounts.users.delete,
    async (ctx) => {
      const admin = requireAdmin(ctx);
      const user = await loadUser(kit, ctx.params.id);
      if (user.id === admin.id) throw forbidden("You cannot delete yourself");
      await kit.events.transact((tx) => deleteUser(tx, user.id), () => usersDeleted([user.id]));
      await kit.events.flush();
      return null;
    },
    { visibility: "published" },
  ),

  /**
   * POST /users outside /api/v4 (Devise's registrations#create behind GitLab's sign-up form):
   * `user[...]` form fields or {"user": {...}}; no authentication. 201 with the user as GET /user
   * shows it; see domain/registrations.ts for the settings it obeys.
   */
  "registrations.create": implement(
    Accounts.registrations.create,
    async (ctx) => {
      const user = await kit.events.transact((tx) => signUp(tx, ctx.params.user), (u) => [userCreated(u)]);
      await kit.events.flush();
      return presentUserPublic(user, kit.baseUrl);
    },
    { visibility: "published" },
  ),

  /** Users::ApproveService: 201 {"message": "Success"} (the users API renders the service's answer). */
  "users.approve": implement(
    Accounts.users.approve,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const user = await loadUser(kit, ctx.params.id);
      if (!caller.admin) throw new ApiError(403, { message: "You are not allowed to approve a user" }, "FORBIDDEN");
      await kit.events.transact((tx) => approveUser(tx, user), () => userStateChanged({ ...user, state: "active" }));
      return { message: "Success" };
    },
    { visibility: "published" },
  ),

  /** Users::RejectService: deletes the pending user, 200 {"message": "Success"}. */
  "users.reject": implement(
    Accounts.users.reject,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const user = await loadUser(kit, ctx.params.id);
      if (!caller.admin) throw new ApiError(403, { message: "You are not allowed to reject a user" }, "FORBIDDEN");
      await kit.events.transact((tx) => rejectUser(tx, user), () => usersDeleted([user.id]));
      await kit.events.flush();
      return { message: "Success" };
    },
    { visibility: "published" },
  ),

  /** block / unblock / deactivate / activate: 201 `true`, GitLab's answer (also when nothing changes). */
  "users.setState": implement(
    Accounts.users.setState,
    async (ctx) => {
      const admin = requireAdmin(ctx);
      const user = await loadUser(kit, ctx.params.id);
      await kit.events.transact((tx) => changeState(tx, user, ctx.params.event, admin.id), (next) => (next === null ? [] : userStateChanged({ ...user, state: next })));
      return true as const;
    },
    { visibility: "published" },
  ),

  "tokens.create": implement(
    Accounts.tokens.create,
    async (ctx) => {
      requireAdmin(ctx);
      const user = await loadUser(kit, ctx.params.user_id);
      return mintToken(kit.db, user.id, ctx.params);
    },
    { visibility: "published" },
  ),

  "tokens.createOwn": implement(
    Accounts.tokens.createOwn,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { row, token } = await createToken(kit.db, { userId: caller.id, ...ctx.params, expiresAt: ctx.params.expires_at });
      return presentTokenWithSecret(row, token);
    },
    { visibility: "published" },
  ),

  /**
   * Administrators see every token, or one user's (404 for an unknown user); others only their own
   * non-impersonation tokens, and asking for somebody else's is GitLab's 401.
   */
  "tokens.list": implement(
    Accounts.tokens.list,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { user_id } = ctx.params;
      if (caller.admin && user_id !== undefined && !(await findUserByIdOrUsername(kit.db, user_id))) throw notFound();
      if (!caller.admin && user_id !== undefined && user_id !== caller.id) throw unauthorized();
      const filter = caller.admin ? { user_id } : { user_id: caller.id, impersonation: false };
      const { rows, total } = await findTokens(kit.db, { ...ctx.params, ...filter });
      return page(rows.map(presentToken), total, ctx.params);
    },
    { visibility: "published" },
  ),

  /** One token: `self` is the token in use (whoever Sudo names); others' tokens are hidden from non-admins. */
  "tokens.get": implement(
    Accounts.tokens.get,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { id } = ctx.params;
      const self = id === "self";
      const token = await findTokenById(kit.db, self ? ctx.meta.tokenId : id);
      if (!token || (!self && !caller.admin && token.userId !== caller.id)) throw notFound();
      return presentToken(token);
    },
    { visibility: "published" },
  ),

  /** 204; an unknown id is ActiveRecord's 404, somebody else's token (non-admins) RevokeService's 400. */
  "tokens.revoke": implement(
    Accounts.tokens.revoke,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { id } = ctx.params;
      const self = id === "self";
      const token = await findTokenById(kit.db, self ? ctx.meta.tokenId : id);
      if (!token) throw recordNotFound();
      if (!self && !caller.admin && token.userId !== caller.id) throw badRequest("Not permitted to revoke");
      await revokeToken(kit.db, token.id);
      return null;
    },
    { visibility: "published" },
  ),

  /**
   * POST /personal_access_tokens/self/rotate (scopes api or self_rotate): the token in use is
   * revoked and its successor answered, 200, for any user's token, bots' included. Only a
   * personal access token rotates itself (405 otherwise).
   */
  "tokens.rotateSelf": implement(
    Accounts.tokens.rotateSelf,
    async (ctx) => {
      requireCaller(ctx);
      const token = await findTokenById(kit.db, ctx.meta.tokenId);
      if (!token) throw notAllowed();
      const { row, token: secret } = await rotateToken(kit.db, token, ctx.params.expires_at);
      return presentTokenWithSecret(row, secret);
    },
    { visibility: "published" },
  ),
});

export const accountsService: ServiceSchema = defineService({
  name: "accounts",
  migrations: path.join(__dirname, "../drizzle"),
  mixins: [settingsMixin],
  async started(kit) {
    const { created, token } = await bootstrapRoot(kit.db, kit.config.INITIAL_ROOT_TOKEN);
    if (created && !kit.config.INITIAL_ROOT_TOKEN) {
      // Printed once, at first start, for the operator: it is stored only as a hash.
      process.stdout.write(`\nCreated administrator 'root'. Personal access token (shown once): ${token}\n\n`);
    }
  },
  eventTables: { outbox, processedEvents },
  consumes: (kit) => namespacesConsumers(kit),
  actions: (kit) => flushingIdentities([
    resourceTokensActions(kit),
    deployTokensActions(kit),
    samlActions(kit),
    scimActions(kit),
    notificationSettingsActions(kit),
    usersActions(kit),
    /** Bus only: the accounts contract (@collab/accounts-contract), every entry implemented once. */
    actionsOf("accounts", [
      ...usersBusActions(kit),
      ...serviceAccountsActions(kit),
      ...deployTokenAuthentication(kit),
      ...samlMemberIdentities(kit),
      ...scimAuthentication(kit),
      ...effectiveLevelActions(kit),
      ...approvalIdentityActions(kit),
      ...profileActions(kit),
    ]),
  ]),
});
