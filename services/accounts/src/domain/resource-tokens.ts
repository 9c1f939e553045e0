import { badRequest, currentSettings } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { personalAccessTokens, users, type TokenRow, type UserRow } from "../db/schema";
import type { Resource, ResourceType } from "./resources";
import { createToken, defaultExpiry } from "./tokens";
import { createUser } from "./users";

/**
 * Project and group access tokens (GitLab's ResourceAccessTokens services): each token belongs to
 * a bot user of its own, made for it, that is a member of the project or group; the token itself is
 * an ordinary personal access token of that bot, so it authenticates, expires, is revoked and
 * rotated like any other.
 */

export const BOT_USER_TYPE: Record<ResourceType, string> = { project: "project_bot", group: "group_bot" };

/** PersonalAccessToken::MAX_PERSONAL_ACCESS_TOKEN_LIFETIME_IN_DAYS. */
export const MAX_LIFETIME_DAYS = 365;

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The token's expiry: the one asked for, else (when the instance requires expiry) the maximum
 * lifetime, else none. With required expiry a later date is the model's validation error
 * `Expires at must be before <today + 365 days>`, which the API answers as a 400 bad request.
 */
export function resourceTokenExpiry(expiresAt: string | undefined, now = new Date()): string | null {
  const required = currentSettings().require_personal_access_token_expiry !== false;
  if (expiresAt === undefined) return required ? defaultExpiry(now) : null;
  const max = day(new Date(now.getTime() + MAX_LIFETIME_DAYS * 86_400_000));
  if (required && expiresAt > max) throw badRequest(`Expires at must be before ${max}`);
  return expiresAt;
}

/**
 * ResourceAccessTokens::CreateService#validate_access_level: a caller may hand out no more than
 * they hold (administrators anything), so only Owners mint Owner-level tokens.
 */
export function assertMayGrantLevel(role: number, accessLevel: number) {
  if (role < accessLevel) throw badRequest("Access level of the token contains permissions not held by the creating user");
}

export interface NewResourceToken {
  name: string;
  description?: string;
  scopes: string[];
  expiresAt: string | null;
  /** The bot is external when its creator is (GitLab copies the flag). */
  external: boolean;
  createdById: number;
  /** The host of the no-reply e-mail address. */
  host: string;
}

/**
 * The bot user (`project_{id}_bot_{hex}` / `group_{id}_bot_{hex}`, named like the token, with a
 * no-reply address) and its token, in one transaction.
 */
export async function createBotWithToken(db: Db, resource: Pick<Resource, "type" | "id">, t: NewResourceToken): Promise<{ bot: UserRow; row: TokenRow; token: string }> {
  const username = `${resource.type}_${resource.id}_bot_${randomBytes(16).toString("hex")}`;
  return db.transaction(async (tx) => {
    const bot = await createUser(
      tx as unknown as Db,
      { name: t.name, username, email: `${username}@noreply.${t.host}`, force_random_password: true, skip_confirmation: true, external: t.external } as Parameters<typeof createUser>[1],
      { bot: true, userType: BOT_USER_TYPE[resource.type], botResource: { type: resource.type, id: resource.id }, createdById: t.createdById },
    );
    const { row, token } = await createToken(tx as unknown as Db, {
      userId: bot.id,
      name: t.name,
      description: t.description,
      scopes: t.scopes,
      expiresAt: t.expiresAt,
    });
    return { bot, row, token };
  });
}

/** A user by id, for the compensation of a failed membership and for the bot checks. */
export async function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Whether `user` is the bot of that project or group. */
export const isBotOf = (user: Pick<UserRow, "botResourceType" | "botResourceId"> | undefined, resource: Pick<Resource, "type" | "id">) =>
  user !== undefined && user.botResourceType === resource.type && user.botResourceId === resource.id;

/** A project or group bot (the callers GitLab's project_bot_access rule refuses token creation). */
export const isResourceBot = (user: Pick<UserRow, "botResourceType"> | undefined) => user?.botResourceType != null;

/**
 * ResourceAccessTokens::RevokeService: the token is revoked and its bot user removed (GitLab
 * schedules the deletion; here it happens in the same transaction), taking the bot's other tokens
 * with it. Answers the bot's token ids, for the revocation events.
 */
export async function revokeAndRemoveBot(db: Db, token: TokenRow): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.update(personalAccessTokens).set({ revoked: true }).where(eq(personalAccessTokens.id, token.id));
    const tokens = await tx.select({ id: personalAccessTokens.id }).from(personalAccessTokens).where(eq(personalAccessTokens.userId, token.userId));
    await tx.delete(users).where(eq(users.id, token.userId));
    return tokens.map((t) => t.id);
  });
}

/**
 * Removes the bots of deleted projects or groups (their tokens go with them, by the foreign key).
 * One statement: a repeated delivery finds nothing more to remove. Answers the removed bots' ids.
 */
export async function removeBotsOf(db: Db, type: ResourceType, resourceIds: number[]): Promise<number[]> {
  if (resourceIds.length === 0) return [];
  const removed = await db
    .delete(users)
    .where(and(eq(users.botResourceType, type), inArray(users.botResourceId, resourceIds)))
    .returning({ id: users.id });
  return removed.map((r) => r.id);
}
