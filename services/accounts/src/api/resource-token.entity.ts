import type { ResourceToken, ResourceTokenWithSecret } from "@collab/accounts-contract";
import type { TokenRow } from "../db/schema";
import type { ResourceType } from "../domain/resources";
import { presentToken } from "./token.entity";

/**
 * Entities::ResourceAccessToken: the personal access token of the project's or group's bot, with
 * the bot's access level there (null once the bot has no membership) and the resource it serves.
 * The impersonation flag never applies (bots' tokens are not impersonation tokens).
 */
export const presentResourceToken = (t: TokenRow, accessLevel: number | null, resource: { type: ResourceType; id: number }): ResourceToken => ({
  ...presentToken(t),
  access_level: accessLevel,
  resource_type: resource.type,
  resource_id: resource.id,
});

/** Entities::ResourceAccessTokenWithToken: the create and rotate answers. */
export const presentResourceTokenWithSecret = (t: TokenRow, token: string, accessLevel: number | null, resource: { type: ResourceType; id: number }): ResourceTokenWithSecret => ({
  ...presentResourceToken(t, accessLevel, resource),
  token,
});
