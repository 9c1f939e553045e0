import type { Authentication } from "@collab/accounts-contract";
import { presentTokenWithSecret } from "../api/token.entity";
import { badRequest, currentSettings, forbidden, invalidToken, unauthorized, type Caller } from "@collab/core";
import { preparedQuery, type Db } from "@collab/db";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { isTokenExpired } from "../api/token.entity";
import { personalAccessTokens, users, type TokenRow, type UserRow } from "../db/schema";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `glpat-` followed by 20 random base62 characters, as GitLab's personal access tokens. */
export function generateToken(prefix = "glpat-", length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (let i = 0; out.length < length && i < bytes.length; i++) if (bytes[i] < 248) out += ALPHABET[bytes[i] % 62];
  return prefix + out.padEnd(length, "x");
}

export const digestToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Default and maximum lifetime of a token without an explicit expiry: 365 days, as GitLab. */
export const defaultExpiry = (now = new Date()) => new Date(now.getTime() + 365 * 86_400_000).toISOString().slice(0, 10);

export interface NewToken {
  userId: number;
  name: string;
  description?: string | null;
  scopes: string[];
  expiresAt?: string | null;
  /** A token set by an operator (INITIAL_ROOT_TOKEN) instead of a generated one. */
  value?: string;
  impersonation?: boolean;
}

/** A personal access token minted for a user from the API's create params; answers the entity with its secret. */
export async function mintToken(db: Db, userId: number, p: { name: string; description?: string | null; scopes: string[]; expires_at?: string | null }) {
  const { row, token } = await createToken(db, { userId, name: p.name, description: p.description, scopes: p.scopes, expiresAt: p.expires_at });
  return presentTokenWithSecret(row, token);
}

export async function createToken(db: Db, t: NewToken): Promise<{ row: TokenRow; token: string }> {
  const token = t.value ?? generateToken();
  const [row] = await db
    .insert(personalAccessTokens)
    .values({
      userId: t.userId,
      name: t.name,
      description: t.description ?? null,
      tokenDigest: digestToken(token),
      scopes: [...new Set(t.scopes)],
      expiresAt: t.expiresAt === undefined ? defaultExpiry() : t.expiresAt,
      ...(t.impersonation ? { impersonation: true } : {}),
    })
    .returning();
  return { row, token };
}

export async function revokeToken(db: Db, id: number): Promise<void> {
  await db.update(personalAccessTokens).set({ revoked: true }).where(eq(personalAccessTokens.id, id));
}

/** PersonalAccessTokens::RotateService::EXPIRATION_PERIOD: a rotated token without expires_at lives a week. */
export const rotationExpiry = (now = new Date()) => new Date(now.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);

/**
 * PersonalAccessTokens::RotateService: revokes `token` and mints its successor (same name,
 * description, scopes and impersonation flag) in one transaction. Without `expiresAt` the new token
 * expires in a week, or never when the instance does not require expiry. A revoked token (also one
 * revoked meanwhile by a concurrent rotation) is the service's "Token already revoked" 400.
 */
export async function rotateToken(db: Db, token: TokenRow, expiresAt?: string): Promise<{ row: TokenRow; token: string }> {
  const alreadyRevoked = () => badRequest("Token already revoked");
  if (token.revoked) throw alreadyRevoked();
  const expiry = expiresAt ?? (currentSettings().require_personal_access_token_expiry === false ? null : rotationExpiry());
  return db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(personalAccessTokens)
      .set({ revoked: true })
      .where(and(eq(personalAccessTokens.id, token.id), eq(personalAccessTokens.revoked, false)))
      .returning({ id: personalAccessTokens.id });
    if (!revoked) throw alreadyRevoked();
    return createToken(tx as unknown as Db, {
      userId: token.userId,
      name: token.name,
      description: token.description,
      scopes: token.scopes,
      expiresAt: expiry,
      impersonation: token.impersonation,
    });
  });
}

const LAST_USED_RESOLUTION_MS = 10 * 60_000;

/** The one statement behind every request's authentication: the token by its digest, with its user. */
const tokenByDigest = preparedQuery((db: Db) =>
  db
    .select({
      token: { id: personalAccessTokens.id, scopes: personalAccessTokens.scopes, expiresAt: personalAccessTokens.expiresAt, revoked: personalAccessTokens.revoked, lastUsedAt: personalAccessTokens.lastUsedAt },
      user: { id: users.id, username: users.username, state: users.state, admin: users.admin, external: users.external, bot: users.bot },
    })
    .from(personalAccessTokens)
    .innerJoin(users, eq(users.id, personalAccessTokens.userId))
    .where(eq(personalAccessTokens.tokenDigest, sql.placeholder("digest")))
    .prepare("accounts_token_by_digest"),
);

/** Resolves a token to its user, with GitLab's distinct answers for expired and revoked tokens. */
export async function authenticateToken(db: Db, token: string): Promise<Authentication> {
  const [hit] = await tokenByDigest(db, { digest: digestToken(token) });
  if (!hit) throw unauthorized();
  if (hit.token.revoked) throw invalidToken("Token was revoked. You have to re-authorize from the user.");
  if (isTokenExpired(hit.token)) throw invalidToken("Token is expired. You can either do re-authorization or token refresh.");
  assertCanSignIn(hit.user);
  const lastUsed = hit.token.lastUsedAt?.getTime() ?? 0;
  if (Date.now() - lastUsed > LAST_USED_RESOLUTION_MS)
    await db
      .update(personalAccessTokens)
      .set({ lastUsedAt: new Date() })
      .where(and(eq(personalAccessTokens.id, hit.token.id)));
  return { caller: callerFromUser(hit.user), scopes: hit.token.scopes, tokenId: hit.token.id, expiresAt: hit.token.expiresAt };
}

export function assertCanSignIn(user: Pick<UserRow, "state">) {
  if (user.state === "blocked_pending_approval") throw forbidden("Your account is pending approval from your administrator and hence blocked.");
  if (user.state === "blocked" || user.state === "banned") throw forbidden("Your account has been blocked.");
  if (user.state === "deactivated")
    throw forbidden("Your account has been deactivated by your administrator. Please log back in to reactivate your account.");
}

export const callerFromUser = (u: Pick<UserRow, "id" | "username" | "admin" | "external" | "bot">): Caller => ({
  id: u.id,
  username: u.username,
  admin: u.admin,
  ...(u.external ? { external: true } : {}),
  ...(u.bot ? { bot: true } : {}),
});
