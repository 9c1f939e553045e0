import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { sql, type SQL } from "drizzle-orm";
import type { MemberRow } from "../db/schema";

/** Where memberships of a group or project come from. */
export interface MemberSource {
  type: "Namespace" | "Project";
  id: number;
  /** Groups whose members are inherited (ancestors; for projects in groups, the whole chain). */
  inheritedGroupIds: number[];
}

export interface MemberFilters {
  userIds?: number[];
  skipUsers?: number[];
  /** Pre-resolved ids of users matching `query` (user data lives in the accounts service). */
  matchingUserIds?: number[];
}

function filterSql(f: MemberFilters): SQL {
  const parts: SQL[] = [sql`TRUE`];
  if (f.userIds?.length) parts.push(sql`user_id = ANY(${sql.param(f.userIds)}::int[])`);
  if (f.skipUsers?.length) parts.push(sql`NOT (user_id = ANY(${sql.param(f.skipUsers)}::int[]))`);
  if (f.matchingUserIds) parts.push(f.matchingUserIds.length ? sql`user_id = ANY(${sql.param(f.matchingUserIds)}::int[])` : sql`FALSE`);
  return sql.join(parts, sql` AND `);
}

const active = sql`(expires_at IS NULL OR expires_at > current_date)`;

/** Rows of members in the scope: direct only, or with inherited ones at their highest level. */
function scopeSql(source: MemberSource, inherited: boolean): SQL {
  const direct = sql`(source_type = ${source.type} AND source_id = ${source.id})`;
  if (!inherited || source.inheritedGroupIds.length === 0) return direct;
  return sql`(${direct} OR (source_type = 'Namespace' AND source_id = ANY(${sql.param(source.inheritedGroupIds)}::int[])))`;
}

interface Raw {
  id: number;
  source_type: string;
  source_id: number;
  user_id: number;
  access_level: number;
  expires_at: string | null;
  created_by_id: number | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const toRow = (r: Raw): MemberRow => ({
  id: r.id,
  sourceType: r.source_type,
  sourceId: r.source_id,
  userId: r.user_id,
  accessLevel: r.access_level,
  expiresAt: r.expires_at === null ? null : String(r.expires_at).slice(0, 10),
  createdById: r.created_by_id,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/**
 * Members of a group or project. With `inherited`, one row per user at their highest level
 * (GitLab's /members/all), the direct membership winning ties.
 */
export async function findMembers(
  db: Db,
  source: MemberSource,
  inherited: boolean,
  filters: MemberFilters,
  page: { page: number; per_page: number } | null,
): Promise<{ rows: MemberRow[]; total: number }> {
  const ranked = sql`
    SELECT DISTINCT ON (user_id) * FROM namespaces.members
    WHERE ${scopeSql(source, inherited)} AND ${active} AND ${filterSql(filters)}
    ORDER BY user_id, access_level DESC, (source_type = ${source.type} AND source_id = ${source.id}) DESC, id`;
  const limit = page ? sql`LIMIT ${page.per_page} OFFSET ${offsetOf(page)}` : sql``;
  const [rows, counted] = await Promise.all([
    db.execute(sql`SELECT * FROM (${ranked}) ranked ORDER BY id ${limit}`),
    db.execute(sql`SELECT count(*)::int AS total FROM (${ranked}) ranked`),
  ]);
  return {
    rows: (rows as unknown as { rows: Raw[] }).rows.map(toRow),
    total: (counted as unknown as { rows: { total: number }[] }).rows[0].total,
  };
}

export async function findMember(db: Db, source: MemberSource, userId: number, inherited: boolean): Promise<MemberRow | undefined> {
  const { rows } = await findMembers(db, source, inherited, { userIds: [userId] }, null);
  return rows[0];
}

/** All member user ids of the scope, for resolving a `query` against the accounts service. */
export async function memberUserIds(db: Db, source: MemberSource, inherited: boolean): Promise<number[]> {
  const rows = await db.execute(sql`SELECT DISTINCT user_id FROM namespaces.members WHERE ${scopeSql(source, inherited)} AND ${active}`);
  return (rows as unknown as { rows: { user_id: number }[] }).rows.map((r) => r.user_id);
}
