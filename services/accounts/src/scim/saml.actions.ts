import { Accounts } from "@collab/accounts-contract";
import { badRequestMessage, implement, notFound, type Ctx, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { requireSamlTier, samlAvailable } from "./availability";
import { ownedGroup, requireTopLevel, type GroupSummary } from "./groups";
import { changeExternUid, deleteIdentity, findIdentity, groupIdentities, IdentityRejected, identitiesOf } from "./identities";
import { enabledSamlProvider, findSamlProvider, saveSamlProvider } from "./saml-providers";
import { presentIdentity, presentSamlSettings, presentScimToken, scimApiUrl, ssoNotEnabled } from "./scim.entity";
import { hasScimToken, mintScimToken } from "./scim-tokens";

/**
 * /api/v4 endpoints of a top-level group's SAML SSO and SCIM, for its Owners: the settings, the SCIM
 * token, and the SCIM identities API (API::ProviderIdentity for `scim`). Plus the bus action that
 * gives namespaces the members' group SAML identities (samlMemberIdentities).
 */

/** The Owner's group of a SAML route, once the tier has the feature (else the catch-all 404). */
async function ownerGroup(kit: ServiceKit, ctx: Ctx<unknown>, ref: string): Promise<GroupSummary> {
  requireSamlTier(kit.config);
  return ownedGroup(ctx, ref);
}

/** "Group SSO and SCIM must be enabled": SAML SSO on and a SCIM token, else 400 {"message":"400 Bad request"}. */
async function scimEnabledGroup(kit: ServiceKit, ctx: Ctx<unknown>, ref: string): Promise<GroupSummary> {
  const group = await ownerGroup(kit, ctx, ref);
  if (!(await enabledSamlProvider(kit.db, group.id)) || !(await hasScimToken(kit.db, group.id))) throw ssoNotEnabled();
  return group;
}

async function identityOf(kit: ServiceKit, group: GroupSummary, uid: string) {
  const identity = await findIdentity(kit.db, group.id, uid);
  if (!identity) throw notFound("Identity");
  return identity;
}

async function settingsOf(kit: ServiceKit, group: GroupSummary) {
  const [provider, scim] = await Promise.all([findSamlProvider(kit.db, group.id), hasScimToken(kit.db, group.id)]);
  return presentSamlSettings(group.id, provider, { enabled: scim, apiUrl: scimApiUrl(kit.baseUrl, group.full_path) });
}

export const samlActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "saml.settings.get": implement(
    Accounts.saml.settings.get,
    async (ctx) => {
      const group = await ownerGroup(kit, ctx, ctx.params.id);
      requireTopLevel(group);
      return settingsOf(kit, group);
    },
    { visibility: "published" },
  ),

  /** Creates or changes the settings; 400 {"message": {field: [...]}} for what SamlProvider refuses. */
  "saml.settings.update": implement(
    Accounts.saml.settings.update,
    async (ctx) => {
      const { id, ...changes } = ctx.params;
      const group = await ownerGroup(kit, ctx, id);
      requireTopLevel(group);
      await saveSamlProvider(kit.db, group.id, changes);
      return settingsOf(kit, group);
    },
    { visibility: "published" },
  ),

  /** 201 `{scim_api_url, scim_token}`: a new token, replacing the group's previous one, shown this once. */
  "scim.token.create": implement(
    Accounts.scim.token.create,
    async (ctx) => {
      const group = await ownerGroup(kit, ctx, ctx.params.id);
      requireTopLevel(group);
      const token = await mintScimToken(kit.db, group.id);
      return presentScimToken(scimApiUrl(kit.baseUrl, group.full_path), token);
    },
    { visibility: "published" },
  ),

  "scim.identities.list": implement(
    Accounts.scim.identities.list,
    async (ctx) => {
      const group = await scimEnabledGroup(kit, ctx, ctx.params.id);
      return (await groupIdentities(kit.db, group.id)).map(presentIdentity);
    },
    { visibility: "published" },
  ),

  "scim.identities.get": implement(
    Accounts.scim.identities.get,
    async (ctx) => {
      const group = await scimEnabledGroup(kit, ctx, ctx.params.id);
      return presentIdentity(await identityOf(kit, group, ctx.params.uid));
    },
    { visibility: "published" },
  ),

  /** 200 with the identity; a taken extern_uid is 400 {"message": "Extern uid has already been taken"}. */
  "scim.identities.update": implement(
    Accounts.scim.identities.update,
    async (ctx) => {
      const group = await scimEnabledGroup(kit, ctx, ctx.params.id);
      const identity = await identityOf(kit, group, ctx.params.uid);
      try {
        return presentIdentity(await changeExternUid(kit.db, identity, ctx.params.extern_uid));
      } catch (err) {
        if (err instanceof IdentityRejected) throw badRequestMessage(err.message);
        throw err;
      }
    },
    { visibility: "published" },
  ),

  /** 204: the identity goes (the user's membership stays, as in GitLab). */
  "scim.identities.delete": implement(
    Accounts.scim.identities.delete,
    async (ctx) => {
      const group = await scimEnabledGroup(kit, ctx, ctx.params.id);
      await deleteIdentity(kit.db, (await identityOf(kit, group, ctx.params.uid)).id);
      return null;
    },
    { visibility: "published" },
  ),

});

/**
 * Bus only, for the members API: the SCIM identities of these users in those of these groups
 * that have SAML SSO enabled (a member's group_saml_identity). The caller decides who may see them.
 */
export const samlMemberIdentities = (kit: ServiceKit): ImplementedAction[] => [
  implement(Accounts.saml.memberIdentities, async (ctx) => {
    if (!samlAvailable(kit.config)) return [];
    const rows = await identitiesOf(kit.db, ctx.params.group_ids, ctx.params.user_ids);
    return rows.map((r) => ({ group_id: r.groupId, user_id: r.userId, extern_uid: r.externUid, saml_provider_id: r.samlProviderId }));
  }),
];
