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
  /** `query` itself: pending invitations match it on their e-mail address (part of it). */
  query?: string;
  /** `state=awaiting`: nobody here awaits a seat (there is no user cap), so nothing matches. */
  awaitingOnly?: boolean;
}

/** A row of a members list: a membership, or (in /members/all) a pending invitation without a user. */
export type ListedMember = MemberRow & { inviteEmail: string | null };

function filterSql(f: MemberFilters): SQL {
  const parts: SQL[] = [sql`TRUE`];
  if (f.userIds?.length) parts.push(sql`user_id = ANY(${sql.param(f.userIds)}::int[])`);
  if (f.skipUsers?.length) parts.push(sql`NOT (user_id = ANY(${sql.param(f.skipUsers)}::int[]))`);
  if (f.matchingUserIds) parts.push(f.matchingUserIds.length ? sql`user_id = ANY(${sql.param(f.matchingUserIds)}::int[])` : sql`FALSE`);
  if (f.awaitingOnly) parts.push(sql`FALSE`);
  return sql.join(parts, sql` AND `);
}

/** Invitations have no user: `user_ids` and `skip_users` name none of them; `query` matches the address. */
function invitationFilterSql(f: MemberFilters): SQL {
  const parts: SQL[] = [sql`TRUE`];
  if (f.userIds?.length || f.awaitingOnly) parts.push(sql`FALSE`);
  if (f.query !== undefined) parts.push(sql`invite_email ILIKE ${`%${f.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`);
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
  user_id: number | null;
  invite_email: string | null;
  access_level: number;
  expires_at: string | null;
  created_by_id: number | null;
  member_role_id: number | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const toRow = (r: Raw): ListedMember => ({
  id: r.id,
  sourceType: r.source_type,
  sourceId: r.source_id,
  userId: r.user_id as number,
  inviteEmail: r.invite_email,
  accessLevel: r.access_level,
  expiresAt: r.expires_at === null ? null : String(r.expires_at).slice(0, 10),
  createdById: r.created_by_id,
  memberRoleId: r.member_role_id,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const COLUMNS = sql`id, source_type, source_id, access_level, expires_at, created_by_id, member_role_id, created_at, updated_at`;

/**
 * Members of a group or project, ordered by membership id. With `inherited` (GitLab's
 * /members/all): one row per user at their highest level, the direct membership winning ties, then
 * the scope's pending invitations (one per address, at its highest level), which carry no user.
 */
export async function findMembers(
  db: Db,
  source: MemberSource,
  inherited: boolean,
  filters: MemberFilters,
  page: { page: number; per_page: number } | null,
): Promise<{ rows: ListedMember[]; total: number }> {
  const ranked = sql`
    SELECT DISTINCT ON (user_id) 0 AS kind, ${COLUMNS}, user_id, NULL::text AS invite_email FROM namespaces.members
    WHERE ${scopeSql(source, inherited)} AND ${active} AND ${filterSql(filters)}
    ORDER BY user_id, access_level DESC, (source_type = ${source.type} AND source_id = ${source.id}) DESC, id`;
  const invited = sql`
    SELECT DISTINCT ON (invite_email) 1 AS kind, ${COLUMNS}, NULL::int AS user_id, invite_email FROM namespaces.invitations
    WHERE ${scopeSql(source, inherited)} AND ${active} AND ${invitationFilterSql(filters)}
    ORDER BY invite_email, access_level DESC, (source_type = ${source.type} AND source_id = ${source.id}) DESC, id`;
  const all = inherited ? sql`(${ranked}) UNION ALL (${invited})` : ranked;
  const limit = page ? sql`LIMIT ${page.per_page} OFFSET ${offsetOf(page)}` : sql``;
  const [rows, counted] = await Promise.all([
    db.execute(sql`SELECT * FROM (${all}) listed ORDER BY kind, id ${limit}`),
    db.execute(sql`SELECT count(*)::int AS total FROM (${all}) listed`),
  ]);
  return {
    rows: (rows as unknown as { rows: Raw[] }).rows.map(toRow),
    total: (counted as unknown as { rows: { total: number }[] }).rows[0].total,
  };
}

/** One member (direct, or with `inherited` at their highest level); invitations never match a user id. */
export async function findMember(db: Db, source: MemberSource, userId: number, inherited: boolean): Promise<MemberRow | undefined> {
  const { rows } = await findMembers(db, source, inherited, { userIds: [userId] }, null);
  return rows.find((r) => r.inviteEmail === null);
}

/** All member user ids of the scope, for resolving a `query` against the accounts service. */
export async function memberUserIds(db: Db, source: MemberSource, inherited: boolean): Promise<number[]> {
  const rows = await db.execute(sql`SELECT DISTINCT user_id FROM namespaces.members WHERE ${scopeSql(source, inherited)} AND ${active}`);
  return (rows as unknown as { rows: { user_id: number }[] }).rows.map((r) => r.user_id);
}

/** Each user's highest active level anywhere in the instance (User#highest_role), for seat rules. */
export async function highestLevels(db: Db, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.execute(sql`
    SELECT user_id, max(access_level)::int AS level FROM namespaces.members
    WHERE user_id = ANY(${sql.param(userIds)}::int[]) AND ${active} GROUP BY user_id`);
  return new Map((rows as unknown as { rows: { user_id: number; level: number }[] }).rows.map((r) => [r.user_id, r.level]));
}
