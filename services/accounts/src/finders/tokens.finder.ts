import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, eq, gte, ilike, lte, or, sql, type SQL } from "drizzle-orm";
import type { ListTokensParams } from "../api/tokens.params";
import { personalAccessTokens as pat, type TokenRow } from "../db/schema";

/** personal_access_tokens.id is a PostgreSQL integer. */
const MAX_ID = 2_147_483_647;

/** PersonalAccessTokensFinder; unsorted, so GitLab's paginate orders by id ascending. */
export async function findTokens(
  db: Db,
  p: ListTokensParams & { impersonation?: boolean },
): Promise<{ rows: TokenRow[]; total: number }> {
  const where: SQL[] = [];
  if (p.user_id !== undefined) where.push(eq(pat.userId, p.user_id));
  if (p.impersonation !== undefined) where.push(eq(pat.impersonation, p.impersonation));
  if (p.revoked !== undefined) where.push(eq(pat.revoked, p.revoked));
  if (p.state === "active") where.push(and(eq(pat.revoked, false), or(sql`${pat.expiresAt} IS NULL`, sql`${pat.expiresAt} > current_date`))!);
  if (p.state === "inactive") where.push(or(eq(pat.revoked, true), sql`${pat.expiresAt} <= current_date`)!);
  if (p.search) where.push(ilike(pat.name, `%${p.search}%`));
  if (p.created_after) where.push(gte(pat.createdAt, p.created_after));
  if (p.created_before) where.push(lte(pat.createdAt, p.created_before));
  const condition = where.length ? and(...where) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(pat).where(condition).orderBy(asc(pat.id)).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(pat).where(condition),
  ]);
  return { rows, total };
}

export async function findTokenById(db: Db, id: number | undefined): Promise<TokenRow | undefined> {
  if (id === undefined || id > MAX_ID) return undefined;
  const [row] = await db.select().from(pat).where(eq(pat.id, id));
  return row;
}
