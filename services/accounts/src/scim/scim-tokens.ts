import type { Db } from "@collab/db";
import { eq } from "drizzle-orm";
import { groupScimTokens } from "../db/saml.schema";
import { digestToken, generateToken } from "../domain/tokens";

/** GroupScimAuthAccessToken::TOKEN_PREFIX. */
export const SCIM_TOKEN_PREFIX = "glsoat-";

/**
 * A new SCIM token for the group, replacing the one it had (GitLab's scim_oauth#create resets it):
 * answered once, stored as its SHA-256 digest only.
 */
export async function mintScimToken(db: Db, groupId: number): Promise<string> {
  const token = generateToken(SCIM_TOKEN_PREFIX);
  const tokenDigest = digestToken(token);
  await db
    .insert(groupScimTokens)
    .values({ groupId, tokenDigest })
    .onConflictDoUpdate({ target: groupScimTokens.groupId, set: { tokenDigest, createdAt: new Date() } });
  return token;
}

/** The group whose SCIM token this is, or null. */
export async function groupOfScimToken(db: Db, token: string): Promise<number | null> {
  const [row] = await db.select({ groupId: groupScimTokens.groupId }).from(groupScimTokens).where(eq(groupScimTokens.tokenDigest, digestToken(token)));
  return row?.groupId ?? null;
}

/** SCIM is enabled for a group once it has a token. */
export async function hasScimToken(db: Db, groupId: number): Promise<boolean> {
  const [row] = await db.select({ id: groupScimTokens.id }).from(groupScimTokens).where(eq(groupScimTokens.groupId, groupId));
  return row !== undefined;
}
