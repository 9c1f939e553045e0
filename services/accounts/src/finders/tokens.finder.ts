import { MAX_INT, offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, desc, eq, gte, ilike, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { ListTokensParams } from "@collab/accounts-contract";
import { personalAccessTokens as pat, users, type TokenRow } from "../db/schema";

/** Filters and sorts some token lists take beyond ListTokensParams (access_token_params). */
export interface TokenListExtras {
  impersonation?: boolean;
  last_used_before?: Date;
  last_used_after?: Date;
  expires_before?: string;
  expires_after?: string;
  sort?: string;
  /** Only the tokens of that project's or group's bots (ResourceAccessTokens: `user: resource.bots`). */
  botOf?: { type: string; id: number };
}

/** PersonalAccessToken's sort orders (Sortable's and its own); anything else keeps the default. */
const SORTS: Record<string, (c: typeof pat) => SQL[]> = {
  id_asc: (c) => [asc(c.id)],
  id_desc: (c) => [desc(c.id)],
  created_asc: (c) => [asc(c.createdAt), asc(c.id)],
  created_at_asc: (c) => [asc(c.createdAt), asc(c.id)],
  created_desc: (c) => [desc(c.createdAt), desc(c.id)],
  created_at_desc: (c) => [desc(c.createdAt), desc(c.id)],
  name_asc: (c) => [asc(c.name), asc(c.id)],
  name_desc: (c) => [desc(c.name), desc(c.id)],
  expires_before_asc: (c) => [sql`${c.expiresAt} ASC NULLS LAST`, asc(c.id)],
  expires_after_desc: (c) => [sql`${c.expiresAt} DESC NULLS LAST`, desc(c.id)],
  last_used_before_asc: (c) => [sql`${c.lastUsedAt} ASC NULLS LAST`, asc(c.id)],
  last_used_after_desc: (c) => [sql`${c.lastUsedAt} DESC NULLS LAST`, desc(c.id)],
};

/** PersonalAccessTokensFinder; unsorted, so GitLab's paginate orders by id ascending. */
export async function findTokens(
  db: Db,
  p: ListTokensParams & TokenListExtras,
): Promise<{ rows: TokenRow[]; total: number }> {
  const where: SQL[] = [];
  if (p.user_id !== undefined) where.push(eq(pat.userId, p.user_id));
  if (p.botOf)
    where.push(inArray(pat.userId, db.select({ id: users.id }).from(users).where(and(eq(users.botResourceType, p.botOf.type), eq(users.botResourceId, p.botOf.id)))));
  if (p.impersonation !== undefined) where.push(eq(pat.impersonation, p.impersonation));
  if (p.revoked !== undefined) where.push(eq(pat.revoked, p.revoked));
  if (p.state === "active") where.push(and(eq(pat.revoked, false), or(sql`${pat.expiresAt} IS NULL`, sql`${pat.expiresAt} > current_date`))!);
  if (p.state === "inactive") where.push(or(eq(pat.revoked, true), sql`${pat.expiresAt} <= current_date`)!);
  if (p.search) where.push(ilike(pat.name, `%${p.search}%`));
  if (p.created_after) where.push(gte(pat.createdAt, p.created_after));
  if (p.created_before) where.push(lte(pat.createdAt, p.created_before));
  if (p.last_used_before) where.push(lte(pat.lastUsedAt, p.last_used_before));
  if (p.last_used_after) where.push(gte(pat.lastUsedAt, p.last_used_after));
  if (p.expires_before) where.push(lt(pat.expiresAt, p.expires_before));
  if (p.expires_after) where.push(gte(pat.expiresAt, p.expires_after));
  const condition = where.length ? and(...where) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(pat).where(condition).orderBy(...(SORTS[p.sort ?? ""]?.(pat) ?? [asc(pat.id)])).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(pat).where(condition),
  ]);
  return { rows, total };
}

export async function findTokenById(db: Db, id: number | undefined): Promise<TokenRow | undefined> {
  if (id === undefined || id > MAX_INT) return undefined;
  const [row] = await db.select().from(pat).where(eq(pat.id, id));
  return row;
}
