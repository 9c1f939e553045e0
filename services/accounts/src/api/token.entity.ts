import type { AccessToken, AccessTokenWithSecret } from "@collab/accounts-contract";
import { iso } from "@collab/core";
import type { TokenRow } from "../db/schema";

export const isTokenExpired = (t: Pick<TokenRow, "expiresAt">, today = new Date().toISOString().slice(0, 10)) =>
  t.expiresAt !== null && t.expiresAt <= today;

export const presentToken = (t: TokenRow): AccessToken => ({
  id: t.id,
  name: t.name,
  description: t.description,
  revoked: t.revoked,
  created_at: iso(t.createdAt),
  scopes: t.scopes,
  user_id: t.userId,
  last_used_at: iso(t.lastUsedAt),
  active: !t.revoked && !isTokenExpired(t),
  expires_at: t.expiresAt,
  ...(t.impersonation ? { impersonation: true as const } : {}),
});

/** Only the create response carries the secret. */
export const presentTokenWithSecret = (t: TokenRow, token: string): AccessTokenWithSecret => ({ ...presentToken(t), token });
