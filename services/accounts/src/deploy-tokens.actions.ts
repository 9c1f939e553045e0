import { Accounts } from "@collab/accounts-contract";
import { AccessLevel, badRequestMessage, forbidden, implement, page, recordNotFound, requireAdmin, requireCaller, type Ctx, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { presentDeployToken, presentDeployTokenWithSecret } from "./api/deploy-token.entity";
import { authenticateDeployToken, createDeployToken, deleteDeployToken, deployTokenErrors, findDeployToken, toSentence, type Holder } from "./domain/deploy-tokens";
import { loadResource, type ResourceType } from "./domain/resources";
import { findDeployTokens } from "./finders/deploy-tokens.finder";

type Operation = "read" | "write";

/**
 * The spec's roles: project deploy tokens need Maintainer for everything; group deploy tokens are
 * read by Maintainers and created or deleted by Owners. Below that, GitLab's authorize! (403);
 * a hidden project or group is its 404.
 */
const REQUIRED: Record<ResourceType, Record<Operation, number>> = {
  project: { read: AccessLevel.MAINTAINER, write: AccessLevel.MAINTAINER },
  group: { read: AccessLevel.MAINTAINER, write: AccessLevel.OWNER },
};

async function authorizedHolder(ctx: Ctx<unknown>, source: "projects" | "groups", ref: string, op: Operation): Promise<Holder> {
  const type: ResourceType = source === "projects" ? "project" : "group";
  const resource = await loadResource(ctx, type, ref);
  if (resource.role < REQUIRED[type][op]) throw forbidden();
  return type === "project" ? { projectId: resource.id } : { groupId: resource.id };
}

/**
 * Deploy tokens (GitLab's API::DeployTokens); their authentication, for the gateway, below (asked
 * on every request: gateways hold no deploy token).
 */
export const deployTokensActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** GET /deploy_tokens: administrators; self-managed and dedicated only (nobody holds the role on hosted). */
  "deployTokens.listAll": implement(
    Accounts.deployTokens.listAll,
    async (ctx) => {
      requireAdmin(ctx);
      if (kit.config.OFFERING === "hosted") throw forbidden();
      const { rows, total } = await findDeployTokens(kit.db, "all", ctx.params);
      return page(rows.map(presentDeployToken), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "deployTokens.list": implement(
    Accounts.deployTokens.list,
    async (ctx) => {
      requireCaller(ctx);
      const { source, id, ...p } = ctx.params;
      const holder = await authorizedHolder(ctx, source, id, "read");
      const { rows, total } = await findDeployTokens(kit.db, holder, p);
      return page(rows.map(presentDeployToken), total, p);
    },
    { visibility: "published" },
  ),

  /** One token of the project or group: ActiveRecord's "404 Not found" otherwise. */
  "deployTokens.get": implement(
    Accounts.deployTokens.get,
    async (ctx) => {
      requireCaller(ctx);
      const holder = await authorizedHolder(ctx, ctx.params.source, ctx.params.id, "read");
      const row = await findDeployToken(kit.db, holder, ctx.params.token_id);
      if (!row) throw recordNotFound();
      return presentDeployToken(row);
    },
    { visibility: "published" },
  ),

  /** 201 with the secret; the model's errors as one sentence, 400 {"message": "…"} (render_api_error!). */
  "deployTokens.create": implement(
    Accounts.deployTokens.create,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { source, id, name, scopes, expires_at, username } = ctx.params;
      const holder = await authorizedHolder(ctx, source, id, "write");
      const given = username === "" ? undefined : username;
      const errors = deployTokenErrors({ name, username: given, scopes });
      if (errors.length) throw badRequestMessage(toSentence(errors));
      const { row, token } = await createDeployToken(kit.db, holder, { name, scopes, expiresAt: expires_at, username: given, creatorId: caller.id });
      return presentDeployTokenWithSecret(row, token);
    },
    { visibility: "published" },
  ),

  /** 204; the token is deleted, and refused at once by every gateway. */
  "deployTokens.delete": implement(
    Accounts.deployTokens.delete,
    async (ctx) => {
      requireCaller(ctx);
      const holder = await authorizedHolder(ctx, ctx.params.source, ctx.params.id, "write");
      if (!(await deleteDeployToken(kit.db, holder, ctx.params.token_id))) throw recordNotFound();
      return null;
    },
    { visibility: "published" },
  ),
});

/** Bus only: the gateway's lookup of a `Deploy-Token` header or HTTP Basic credentials (username given). */
export const deployTokenAuthentication = (kit: ServiceKit): ImplementedAction[] => [
  implement(Accounts.deployTokens.authenticate, (ctx) => authenticateDeployToken(kit.db, ctx.params.token, ctx.params.username)),
];
