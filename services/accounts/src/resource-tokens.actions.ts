import { Accounts } from "@collab/accounts-contract";
import { AccessLevel, badRequest, implement, notAllowed, notFound, page, requireCaller, unauthorized, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { presentResourceToken, presentResourceTokenWithSecret } from "./api/resource-token.entity";
import type { TokenRow, UserRow } from "./db/schema";
import {
  assertMayGrantLevel,
  createBotWithToken,
  findUser,
  isBotOf,
  isResourceBot,
  resourceTokenExpiry,
  revokeAndRemoveBot,
} from "./domain/resource-tokens";
import { addBotMember, botAccessLevels, loadResource, type Resource, type ResourceType } from "./domain/resources";
import { usersDeleted } from "./domain/personal-namespaces";
import { rotateToken } from "./domain/tokens";
import { findTokenById, findTokens } from "./finders/tokens.finder";

const typeOf = (source: "projects" | "groups"): ResourceType => (source === "projects" ? "project" : "group");

/** Who manages a resource's access tokens: project Maintainers, group Owners (admin_project / admin_group). */
const manageRole = (type: ResourceType) => (type === "project" ? AccessLevel.MAINTAINER : AccessLevel.OWNER);
const mayManage = (r: Resource) => r.role >= manageRole(r.type);

/** ResourceAccessTokensHelpers#find_token: a non-impersonation token of one of the resource's bots. */
async function findResourceToken(kit: ServiceKit, resource: Resource, tokenId: number): Promise<{ token: TokenRow; bot: UserRow } | undefined> {
  const token = await findTokenById(kit.db, tokenId);
  if (!token || token.impersonation) return undefined;
  const bot = await findUser(kit.db, token.userId);
  return bot && isBotOf(bot, resource) ? { token, bot } : undefined;
}

/** `not_found!("project Access Token")`: GitLab names the source type in lower case. */
const tokenNotFound = (type: ResourceType) => notFound(`${type} Access Token`);

async function levelOf(ctx: Ctx<unknown>, resource: Resource, botId: number): Promise<number | null> {
  return (await botAccessLevels(ctx, resource, [botId])).get(botId) ?? null;
}

/**
 * Project and group access tokens (`/projects/:id/access_tokens`, `/groups/:id/access_tokens`),
 * GitLab's API::ResourceAccessTokens. The routes fix `source`; authorization asks namespaces for
 * the caller's role, and the bot's membership is made through the members API's own action.
 */
export const resourceTokensActions = (kit: ServiceKit): Record<string, ActionSchema> => {
  /** A token revoked with its bot: the bot's deletion is a durable event (namespaces drops its memberships). */
  async function removeBot(ctx: Ctx<unknown>, token: TokenRow, botId: number) {
    await kit.events.transact((tx) => revokeAndRemoveBot(tx, token), () => usersDeleted([botId]));
    await kit.events.flush();
  }

  return {
    /** Lists the resource's bots' tokens (access_token_params filters); 401 below the managing role, as GitLab. */
    "resourceTokens.list": implement(
      Accounts.resourceTokens.list,
      async (ctx) => {
        requireCaller(ctx);
        const { source, id, ...p } = ctx.params;
        const resource = await loadResource(ctx, typeOf(source), id);
        if (!mayManage(resource)) throw unauthorized();
        const { rows, total } = await findTokens(kit.db, { ...p, botOf: resource, impersonation: false });
        const levels = await botAccessLevels(ctx, resource, rows.map((r) => r.userId));
        return page(rows.map((r) => presentResourceToken(r, levels.get(r.userId) ?? null, resource)), total, p);
      },
      { visibility: "published" },
    ),

    "resourceTokens.get": implement(
      Accounts.resourceTokens.get,
      async (ctx) => {
        requireCaller(ctx);
        const resource = await loadResource(ctx, typeOf(ctx.params.source), ctx.params.id);
        if (!mayManage(resource)) throw unauthorized();
        const found = await findResourceToken(kit, resource, ctx.params.token_id);
        if (!found) throw tokenNotFound(resource.type);
        return presentResourceToken(found.token, await levelOf(ctx, resource, found.bot.id), resource);
      },
      { visibility: "published" },
    ),

    /**
     * ResourceAccessTokens::CreateService: refusals are 400 bad requests, in GitLab's order (the
     * right to create, then the level); then the bot and its token in one transaction, then the
     * bot's membership through namespaces. Should that fail, the bot goes again (GitLab's
     * delete_failed_user) and the failure is the answer.
     */
    "resourceTokens.create": implement(
      Accounts.resourceTokens.create,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const p = ctx.params;
        const resource = await loadResource(ctx, typeOf(p.source), p.id);
        if (!mayManage(resource) || isResourceBot(await findUser(kit.db, caller.id)))
          throw badRequest(`User does not have permission to create ${resource.type} access token`);
        assertMayGrantLevel(resource.role, p.access_level);
        const expiresAt = resourceTokenExpiry(p.expires_at);
        const { bot, row, token } = await createBotWithToken(kit.db, resource, {
          name: p.name,
          description: p.description,
          scopes: p.scopes,
          expiresAt,
          external: caller.external === true,
          createdById: caller.id,
          host: new URL(kit.baseUrl).hostname,
        });
        try {
          await addBotMember(ctx, resource, bot.id, p.access_level);
        } catch (err) {
          await removeBot(ctx, row, bot.id);
          throw err;
        }
        return presentResourceTokenWithSecret(row, token, p.access_level, resource);
      },
      { visibility: "published" },
    ),

    /**
     * DELETE: 204. An unknown token is `404 <type> Access Token Not Found` whoever asks (GitLab looks
     * it up first); then ResourceAccessTokens::RevokeService's 400s. The bot goes with its tokens.
     */
    "resourceTokens.revoke": implement(
      Accounts.resourceTokens.revoke,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const resource = await loadResource(ctx, typeOf(ctx.params.source), ctx.params.id);
        const found = await findResourceToken(kit, resource, ctx.params.token_id);
        if (!found) throw tokenNotFound(resource.type);
        if (!mayManage(resource)) {
          const me = await findUser(kit.db, caller.id);
          throw badRequest(`${me?.name ?? caller.username} cannot delete ${found.bot.name}`);
        }
        if ((await levelOf(ctx, resource, found.bot.id)) === null) throw badRequest("Failed to find bot user");
        await removeBot(ctx, found.token, found.bot.id);
        return null;
      },
      { visibility: "published" },
    ),

    /**
     * POST …/:token_id/rotate: 200 with the successor. A token the caller may not manage (or none)
     * is 401, or 404 for administrators; then PersonalAccessTokens::RotateService's 400s, with the
     * resource check that the caller holds the token's level.
     */
    "resourceTokens.rotate": implement(
      Accounts.resourceTokens.rotate,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const resource = await loadResource(ctx, typeOf(ctx.params.source), ctx.params.id);
        const found = mayManage(resource) ? await findResourceToken(kit, resource, ctx.params.token_id) : undefined;
        if (!found) throw caller.admin ? notFound() : unauthorized();
        if (found.token.revoked) throw badRequest("Token already revoked");
        const level = await levelOf(ctx, resource, found.bot.id);
        if (!caller.admin && (level ?? 0) > resource.role) throw badRequest("Not eligible to rotate tokens with permissions not held by the user");
        if (ctx.params.expires_at !== undefined) resourceTokenExpiry(ctx.params.expires_at);
        const { row, token } = await rotateToken(kit.db, found.token, ctx.params.expires_at);
        return presentResourceTokenWithSecret(row, token, level, resource);
      },
      { visibility: "published" },
    ),

    /**
     * POST …/access_tokens/self/rotate: a bot rotates the token it is using, which must be one of
     * this resource's (401 otherwise); anything but a bot's personal access token is 405.
     */
    "resourceTokens.rotateSelf": implement(
      Accounts.resourceTokens.rotateSelf,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const tokenId = ctx.meta.tokenId;
        if (tokenId === undefined || !isResourceBot(await findUser(kit.db, caller.id))) throw notAllowed();
        const resource = await loadResource(ctx, typeOf(ctx.params.source), ctx.params.id);
        const found = await findResourceToken(kit, resource, tokenId);
        if (!found || found.bot.id !== caller.id) throw unauthorized();
        if (ctx.params.expires_at !== undefined) resourceTokenExpiry(ctx.params.expires_at);
        const { row, token } = await rotateToken(kit.db, found.token, ctx.params.expires_at);
        return presentResourceTokenWithSecret(row, token, await levelOf(ctx, resource, caller.id), resource);
      },
      { visibility: "published" },
    ),
  };
};
