import type { DeployToken, DeployTokenWithSecret } from "@collab/accounts-contract";
import { iso } from "@collab/core";
import type { DeployTokenRow } from "../db/schema";
import { deployUsername, isDeployTokenExpired } from "../domain/deploy-tokens";

/** Entities::DeployToken: never the secret. */
export const presentDeployToken = (t: DeployTokenRow): DeployToken => ({
  id: t.id,
  name: t.name,
  username: deployUsername(t),
  expires_at: iso(t.expiresAt),
  scopes: t.scopes,
  revoked: t.revoked,
  expired: isDeployTokenExpired(t),
});

/** Entities::DeployTokenWithToken: the create answer, the only one with the secret. */
export const presentDeployTokenWithSecret = (t: DeployTokenRow, token: string): DeployTokenWithSecret => ({ ...presentDeployToken(t), token });
