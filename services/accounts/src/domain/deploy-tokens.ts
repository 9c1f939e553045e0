import { DEPLOY_TOKEN_SCOPES, type DeployTokenAuthentication } from "@collab/accounts-contract";
import { invalidToken, unauthorized } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray } from "drizzle-orm";
import { deployTokens, type DeployTokenRow } from "../db/schema";
import { digestToken, generateToken } from "./tokens";

/**
 * Deploy tokens (GitLab's DeployToken): credentials of one project or group, for registries and
 * repository reads, with no user behind them. The secret (`gldt-` and 20 characters) is shown once,
 * in the create answer, and stored only as its digest.
 */
export const DEPLOY_TOKEN_PREFIX = "gldt-";

/** Where a deploy token belongs: exactly one of a project and a group. */
export type Holder = { projectId: number; groupId?: undefined } | { groupId: number; projectId?: undefined };

/** The spec's default username (GitLab's is gitlab+deploy-token-{id}). */
export const deployUsername = (t: Pick<DeployTokenRow, "id" | "username">) => t.username ?? `svc+deploy-token-${t.id}`;

export const isDeployTokenExpired = (t: Pick<DeployTokenRow, "expiresAt">, now = new Date()) => t.expiresAt !== null && t.expiresAt.getTime() <= now.getTime();

/** Scopes in GitLab's order (DeployToken#scopes reads them from AVAILABLE_SCOPES). */
export const orderedScopes = (scopes: readonly string[]) => DEPLOY_TOKEN_SCOPES.filter((s) => scopes.includes(s));

const USERNAME = /^[a-zA-Z0-9.+_-]+$/;

/** Rails' Array#to_sentence. */
export function toSentence(parts: string[]): string {
  if (parts.length <= 1) return parts.join("");
  if (parts.length === 2) return `${parts[0]} and ${parts[1]}`;
  return `${parts.slice(0, -1).join(", ")}, and ${parts[parts.length - 1]}`;
}

/** DeployToken's model validations, as full messages in declaration order. */
export function deployTokenErrors(p: { name: string; username?: string; scopes: readonly string[] }): string[] {
  const errors: string[] = [];
  if (p.scopes.length === 0) errors.push("Scopes can't be blank");
  if (p.username !== undefined) {
    if (p.username.length > 255) errors.push("Username is too long (maximum is 255 characters)");
    if (!USERNAME.test(p.username)) errors.push("Username can contain only letters, digits, '_', '-', '+', and '.'");
  }
  if (p.name.length > 255) errors.push("Name is too long (maximum is 255 characters)");
  return errors;
}

export interface NewDeployToken {
  name: string;
  scopes: string[];
  expiresAt?: Date;
  /** Blank means the default username. */
  username?: string;
  creatorId: number;
}

export async function createDeployToken(db: Db, holder: Holder, t: NewDeployToken): Promise<{ row: DeployTokenRow; token: string }> {
  const token = generateToken(DEPLOY_TOKEN_PREFIX);
  const [row] = await db
    .insert(deployTokens)
    .values({
      projectId: holder.projectId ?? null,
      groupId: holder.groupId ?? null,
      name: t.name,
      username: t.username ? t.username : null,
      tokenDigest: digestToken(token),
      scopes: orderedScopes(t.scopes),
      expiresAt: t.expiresAt ?? null,
      creatorId: t.creatorId,
    })
    .returning();
  return { row, token };
}

const ofHolder = (holder: Holder) => (holder.projectId !== undefined ? eq(deployTokens.projectId, holder.projectId) : eq(deployTokens.groupId, holder.groupId));

export async function findDeployToken(db: Db, holder: Holder, id: number): Promise<DeployTokenRow | undefined> {
  const [row] = await db.select().from(deployTokens).where(and(eq(deployTokens.id, id), ofHolder(holder)));
  return row;
}

/** DeployTokens::DestroyService: the token is deleted (not just revoked). Answers whether it existed. */
export async function deleteDeployToken(db: Db, holder: Holder, id: number): Promise<boolean> {
  const removed = await db.delete(deployTokens).where(and(eq(deployTokens.id, id), ofHolder(holder))).returning({ id: deployTokens.id });
  return removed.length > 0;
}

/** Deploy tokens of removed projects or groups: one idempotent statement; answers the removed ids. */
export async function removeDeployTokensOf(db: Db, kind: "project" | "group", ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const column = kind === "project" ? deployTokens.projectId : deployTokens.groupId;
  const removed = await db.delete(deployTokens).where(inArray(column, ids)).returning({ id: deployTokens.id });
  return removed.map((r) => r.id);
}

/**
 * A deploy token's secret (and, with HTTP Basic, its username) → the token as a caller. Unknown
 * secrets and usernames that do not match are a plain 401; revoked and expired tokens get GitLab's
 * invalid_token answers.
 */
export async function authenticateDeployToken(db: Db, secret: string, username?: string): Promise<DeployTokenAuthentication> {
  const [row] = await db.select().from(deployTokens).where(eq(deployTokens.tokenDigest, digestToken(secret)));
  if (!row || (username !== undefined && username !== deployUsername(row))) throw unauthorized();
  if (row.revoked) throw invalidToken("Token was revoked. You have to re-authorize from the user.");
  if (isDeployTokenExpired(row)) throw invalidToken("Token is expired. You can either do re-authorization or token refresh.");
  return {
    caller: { id: 0, username: deployUsername(row), admin: false, deployToken: { id: row.id, projectId: row.projectId, groupId: row.groupId, scopes: row.scopes } },
    scopes: row.scopes,
    deployTokenId: row.id,
  };
}
