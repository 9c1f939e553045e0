import { AccessLevel, offsetOf, type Config } from "@collab/core";
import type { Db } from "@collab/db";
import { sql, type SQL } from "drizzle-orm";
import type { BillableSort } from "@collab/namespaces-contract";
import { billableLevel, seatHolder, type MemberDetails } from "./seats";

/** Memberships anywhere in a top-level group's hierarchy: the group, its subgroups, their projects. */
const inHierarchy = (groupId: number): SQL => sql`(
  (m.source_type = 'Namespace' AND m.source_id IN (SELECT id FROM namespaces.namespaces WHERE traversal_ids @> ARRAY[${groupId}]::int[]))
  OR (m.source_type = 'Project' AND m.source_id IN (SELECT p.id FROM namespaces.projects p JOIN namespaces.namespaces n ON n.id = p.namespace_id
      WHERE n.traversal_ids @> ARRAY[${groupId}]::int[])))`;

const activeM = sql`(m.expires_at IS NULL OR m.expires_at > current_date)`;

/** One user's standing in the hierarchy: highest level, first join, whether through a group. */
export interface HierarchyMember {
  userId: number;
  level: number;
  joinedAt: Date;
  groupMember: boolean;
}

export async function hierarchyMembers(db: Db, groupId: number): Promise<HierarchyMember[]> {
  const rows = await db.execute(sql`
    SELECT m.user_id, max(m.access_level)::int AS level, min(m.created_at) AS joined_at, bool_or(m.source_type = 'Namespace') AS group_member
    FROM namespaces.members m WHERE ${inHierarchy(groupId)} AND ${activeM} GROUP BY m.user_id`);
  return (rows as unknown as { rows: { user_id: number; level: number; joined_at: Date | string; group_member: boolean }[] }).rows.map((r) => ({
    userId: r.user_id,
    level: r.level,
    joinedAt: new Date(r.joined_at),
    groupMember: r.group_member,
  }));
}

export interface BillableMember extends HierarchyMember {
  user: MemberDetails;
}

/**
 * Group#billed_user_ids: the people (active, not bots) of the hierarchy whose highest role there
 * takes a seat on this tier (on Ultimate, Guests and Minimal Access do not).
 */
export function billableOf(tier: Config["LICENSE_TIER"], members: HierarchyMember[], details: MemberDetails[]): BillableMember[] {
  const byId = new Map(details.map((d) => [d.id, d]));
  return members.flatMap((m) => {
    const user = byId.get(m.userId);
    return user && seatHolder(user) && billableLevel(tier, m.level) ? [{ ...m, user }] : [];
  });
}

const byId = (a: BillableMember, b: BillableMember) => a.userId - b.userId;
const nullsLast = (get: (m: BillableMember) => string | null, dir: 1 | -1) => (a: BillableMember, b: BillableMember) => {
  const x = get(a);
  const y = get(b);
  if (x === y) return byId(a, b);
  if (x === null) return 1;
  if (y === null) return -1;
  return (x < y ? -1 : 1) * dir || byId(a, b);
};

/**
 * The billable members list's sorts (default: id). Sign-ins are not recorded here, so
 * recent_sign_in and oldest_sign_in keep the id order, every user's last sign-in being unknown.
 */
export function sortBillable(list: BillableMember[], sort: BillableSort | undefined): BillableMember[] {
  const name = (m: BillableMember) => m.user.name.toLowerCase();
  const compare: Record<BillableSort, (a: BillableMember, b: BillableMember) => number> = {
    access_level_asc: (a, b) => a.level - b.level || byId(a, b),
    access_level_desc: (a, b) => b.level - a.level || byId(a, b),
    last_joined: (a, b) => b.joinedAt.getTime() - a.joinedAt.getTime() || byId(a, b),
    oldest_joined: (a, b) => a.joinedAt.getTime() - b.joinedAt.getTime() || byId(a, b),
    name_asc: (a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : byId(a, b)),
    name_desc: (a, b) => (name(a) > name(b) ? -1 : name(a) < name(b) ? 1 : byId(a, b)),
    recent_sign_in: byId,
    oldest_sign_in: byId,
    last_activity_on_asc: nullsLast((m) => m.user.last_activity_on, 1),
    last_activity_on_desc: nullsLast((m) => m.user.last_activity_on, -1),
  };
  return [...list].sort(sort ? compare[sort] : byId);
}

export const pageOf = <T>(list: T[], p: { page: number; per_page: number }) => list.slice(offsetOf(p), offsetOf(p) + p.per_page);

/** The direct Owners of a top-level group (is_last_owner compares against them). */
export async function directOwnerIds(db: Db, groupId: number): Promise<number[]> {
  const rows = await db.execute(sql`
    SELECT user_id FROM namespaces.members m
    WHERE m.source_type = 'Namespace' AND m.source_id = ${groupId} AND m.access_level = ${AccessLevel.OWNER} AND ${activeM}`);
  return (rows as unknown as { rows: { user_id: number }[] }).rows.map((r) => r.user_id);
}

export interface HierarchyMembership {
  id: number;
  sourceType: "Namespace" | "Project";
  sourceId: number;
  sourceFullName: string;
  sourceFullPath: string;
  accessLevel: number;
  expiresAt: string | null;
  memberRoleId: number | null;
  createdAt: Date;
}

/** A user's direct memberships in the hierarchy, by id (the memberships endpoint pages them). */
export async function userHierarchyMemberships(db: Db, groupId: number, userId: number): Promise<HierarchyMembership[]> {
  const rows = await db.execute(sql`
    SELECT m.id, m.source_type, m.source_id, m.access_level, m.expires_at, m.member_role_id, m.created_at,
      CASE WHEN m.source_type = 'Namespace' THEN g.full_name ELSE pn.full_name || ' / ' || p.name END AS source_full_name,
      CASE WHEN m.source_type = 'Namespace' THEN g.full_path ELSE pn.full_path || '/' || p.path END AS source_full_path
    FROM namespaces.members m
    LEFT JOIN namespaces.namespaces g ON m.source_type = 'Namespace' AND g.id = m.source_id
    LEFT JOIN namespaces.projects p ON m.source_type = 'Project' AND p.id = m.source_id
    LEFT JOIN namespaces.namespaces pn ON pn.id = p.namespace_id
    WHERE m.user_id = ${userId} AND ${inHierarchy(groupId)}
    ORDER BY m.id`);
  type Raw = { id: number; source_type: "Namespace" | "Project"; source_id: number; access_level: number; expires_at: string | null; member_role_id: number | null; created_at: Date | string; source_full_name: string; source_full_path: string };
  return (rows as unknown as { rows: Raw[] }).rows.map((r) => ({
    id: r.id,
    sourceType: r.source_type,
    sourceId: r.source_id,
    sourceFullName: r.source_full_name,
    sourceFullPath: r.source_full_path,
    accessLevel: r.access_level,
    expiresAt: r.expires_at === null ? null : String(r.expires_at).slice(0, 10),
    memberRoleId: r.member_role_id,
    createdAt: new Date(r.created_at),
  }));
}

/** DELETE billable_members/:user_id: every membership of the user in the hierarchy, in one transaction. */
export async function removeFromHierarchy(db: Db, groupId: number, userId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const gone = await tx.execute(sql`DELETE FROM namespaces.members m WHERE m.user_id = ${userId} AND ${inHierarchy(groupId)} RETURNING m.id`);
    await tx.execute(sql`DELETE FROM namespaces.member_approvals m WHERE m.user_id = ${userId} AND ${inHierarchy(groupId)}`);
    return (gone as unknown as { rows: unknown[] }).rows.length;
  });
}
