import { Accounts } from "@collab/accounts-contract";
import { implement, unauthorized, type Ctx, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { requireSamlTier } from "./availability";
import { scimGroup } from "./groups";
import { findIdentityWithUser, identityWithUserById, searchIdentities } from "./identities";
import { deprovision, provisionUser, ProvisioningFailed, updateScimUser, type ScimScope } from "./provisioning";
import { enabledSamlProvider } from "./saml-providers";
import { presentScimList, presentScimUser, scimConflict, scimFailure, scimNotFound } from "./scim.entity";
import { parseScimFilter, UnsupportedFilter } from "./scim-filter";
import { patchAttributes, postAttributes, scimPagination } from "./scim.params";
import { groupOfScimToken } from "./scim-tokens";

/**
 * The SCIM 2.0 API of groups (API::Scim::GroupScim), at /api/scim/v2/groups/:group_path/Users
 * outside /api/v4. The gateway resolves the bearer credential to the group whose SCIM token it is
 * (`ctx.meta.scimGroupId`); every action checks, in GitLab's order: the group (SCIM 404), its SAML
 * SSO (SCIM 404), then that the token is this group's (401).
 */

/** The request's SCIM attributes as GitLab's error details show them (params.inspect). */
const describe = (params: Record<string, unknown>) => {
  const { group_path: _path, ...rest } = params;
  return JSON.stringify(rest);
};

async function scimScope(kit: ServiceKit, ctx: Ctx<unknown>, groupPath: string): Promise<ScimScope> {
  requireSamlTier(kit.config);
  const group = await scimGroup(ctx, groupPath);
  if (!group) throw scimNotFound(`Group ${groupPath} not found`);
  const provider = await enabledSamlProvider(kit.db, group.id);
  if (!provider) throw scimNotFound(`Group ${groupPath} does not have SAML SSO configured`);
  if (ctx.meta.scimGroupId !== group.id) throw unauthorized();
  return { group, provider };
}

async function scimUser(kit: ServiceKit, scope: ScimScope, id: string) {
  const found = await findIdentityWithUser(kit.db, scope.group.id, id);
  if (!found) throw scimNotFound(`Resource ${id} not found`);
  return found;
}

export const scimActions = (kit: ServiceKit): Record<string, ActionSchema> => ({

  "scim.users.list": implement(
    Accounts.scim.users.list,
    async (ctx) => {
      const scope = await scimScope(kit, ctx, ctx.params.group_path);
      let filter;
      try {
        filter = parseScimFilter(ctx.params.filter);
      } catch (err) {
        if (err instanceof UnsupportedFilter) throw scimFailure("Unsupported Filter");
        throw err;
      }
      const page = scimPagination(ctx.params);
      const { rows, total } = await searchIdentities(kit.db, scope.group.id, filter, page);
      return presentScimList(
        rows.map((r) => presentScimUser(r.identity, r.user)),
        total,
        page.count,
        page.startIndex,
      );
    },
    { visibility: "published" },
  ),

  "scim.users.get": implement(
    Accounts.scim.users.get,
    async (ctx) => {
      const scope = await scimScope(kit, ctx, ctx.params.group_path);
      const { identity, user } = await scimUser(kit, scope, ctx.params.id);
      return presentScimUser(identity, user);
    },
    { visibility: "published" },
  ),

  /** 201 with the user; 409 when something is taken, 412 otherwise, both "Error saving user with …: reason". */
  "scim.users.create": implement(
    Accounts.scim.users.create,
    async (ctx) => {
      const scope = await scimScope(kit, ctx, ctx.params.group_path);
      try {
        const { identity, user } = await provisionUser(kit, ctx, scope, postAttributes(ctx.params));
        return presentScimUser(identity, user);
      } catch (err) {
        if (!(err instanceof ProvisioningFailed)) throw err;
        const detail = `Error saving user with ${describe(ctx.params)}: ${err.message}`;
        throw err.status === "conflict" ? scimConflict(detail) : scimFailure(detail);
      }
    },
    { visibility: "published" },
  ),

  /** SCIM PatchOp: 204; 412 "Error updating <name> with …" when the change cannot be made. */
  "scim.users.update": implement(
    Accounts.scim.users.update,
    async (ctx) => {
      const scope = await scimScope(kit, ctx, ctx.params.group_path);
      const { identity, user } = await scimUser(kit, scope, ctx.params.id);
      if (!(await updateScimUser(ctx, kit, scope, identity, patchAttributes(ctx.params.Operations))))
        throw scimFailure(`Error updating ${user.name} with ${describe(ctx.params)}`);
      return null;
    },
    { visibility: "published" },
  ),

  /** PUT (not in GitLab's group API): the same changes as PATCH from the whole resource; 200 with it. */
  "scim.users.replace": implement(
    Accounts.scim.users.replace,
    async (ctx) => {
      const scope = await scimScope(kit, ctx, ctx.params.group_path);
      const { identity, user } = await scimUser(kit, scope, ctx.params.id);
      const attrs = postAttributes(ctx.params);
      if (!(await updateScimUser(ctx, kit, scope, identity, attrs))) throw scimFailure(`Error updating ${user.name} with ${describe(ctx.params)}`);
      const current = (await identityWithUserById(kit.db, identity.id)) ?? { identity, user };
      return presentScimUser(current.identity, current.user);
    },
    { visibility: "published" },
  ),

  /** Deprovisioning: 204; the group's last Owner stays (412). The identity is kept, inactive. */
  "scim.users.delete": implement(
    Accounts.scim.users.delete,
    async (ctx) => {
      const scope = await scimScope(kit, ctx, ctx.params.group_path);
      const { identity, user } = await scimUser(kit, scope, ctx.params.id);
      if (!(await deprovision(ctx, kit, scope, identity)))
        throw scimFailure(`Could not remove ${user.name} from ${scope.group.name}. Cannot remove last group owner.`);
      return null;
    },
    { visibility: "published" },
  ),
});

/** Bus only: the gateway's question for `auth: "scim"` routes: whose SCIM token is this? `{ group_id }`, null if nobody's. */
export const scimAuthentication = (kit: ServiceKit): ImplementedAction[] => [
  implement(Accounts.scim.authenticate, async (ctx) => ({ group_id: await groupOfScimToken(kit.db, ctx.params.token) })),
];
