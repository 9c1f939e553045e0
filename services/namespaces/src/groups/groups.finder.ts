import { AccessLevel, offsetOf, type Caller } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, desc, eq, ilike, isNull, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { ListGroupsParams } from "@collab/namespaces-contract";
import { namespaces, type NamespaceRow } from "../db/schema";
import { groupsVisibleTo } from "../members/access";

export interface GroupsScope {
  parentId?: number;
  /** All descendants of this group. */
  descendantsOf?: number;
}

/** Groups where the caller holds a membership (on the group or an ancestor) of at least `min`. */
const memberOfGroup = (caller: Caller, min: number) => sql`EXISTS (
  SELECT 1 FROM namespaces.members m WHERE m.user_id = ${caller.id} AND m.source_type = 'Namespace'
    AND (m.expires_at IS NULL OR m.expires_at > current_date) AND m.access_level >= ${min}
    AND m.source_id = ANY(${namespaces.traversalIds}))`;

/**
 * GitLab's `authorized_groups`: groups the caller belongs to (directly or through an ancestor) and
 * every group above a project the caller is a member of.
 */
const authorizedGroup = (caller: Caller) => sql`(${memberOfGroup(caller, AccessLevel.GUEST)} OR EXISTS (
  SELECT 1 FROM namespaces.members m JOIN namespaces.projects p ON p.id = m.source_id JOIN namespaces.namespaces pn ON pn.id = p.namespace_id
  WHERE m.user_id = ${caller.id} AND m.source_type = 'Project' AND (m.expires_at IS NULL OR m.expires_at > current_date)
    AND m.access_level >= ${AccessLevel.GUEST} AND ${namespaces.id} = ANY(pn.traversal_ids)))`;

/** GET /groups and /groups/:id/subgroups, as GitLab's GroupsFinder. */
export async function findGroups(db: Db, caller: Caller | null, p: ListGroupsParams, scope: GroupsScope = {}): Promise<{ rows: NamespaceRow[]; total: number }> {
  const where: (SQL | undefined)[] = [eq(namespaces.kind, "group"), groupsVisibleTo(caller)];
  // Signed-in non-admins see their own groups unless they ask for all available ones.
  const allAvailable = p.all_available ?? (caller === null || caller.admin || scope.parentId !== undefined || scope.descendantsOf !== undefined);
  if (caller && !allAvailable && !caller.admin) where.push(authorizedGroup(caller));
  if (scope.parentId !== undefined) where.push(eq(namespaces.parentId, scope.parentId));
  if (scope.descendantsOf !== undefined) where.push(sql`${namespaces.traversalIds} @> ARRAY[${scope.descendantsOf}]::int[] AND ${namespaces.id} <> ${scope.descendantsOf}`);
  if (p.top_level_only) where.push(isNull(namespaces.parentId));
  if (p.skip_groups?.length) where.push(notInArray(namespaces.id, p.skip_groups));
  if (p.visibility) where.push(eq(namespaces.visibility, p.visibility));
  if (p.marked_for_deletion_on) where.push(eq(namespaces.markedForDeletionOn, p.marked_for_deletion_on));
  if (p.search) {
    const term = `%${p.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(or(ilike(namespaces.name, term), ilike(namespaces.path, term)));
  }
  if (caller && p.owned) where.push(memberOfGroup(caller, AccessLevel.OWNER));
  if (caller && p.min_access_level !== undefined) where.push(memberOfGroup(caller, p.min_access_level));
  const condition = and(...where.filter((w): w is SQL => w !== undefined));

  const dir = p.sort === "desc" ? desc : asc;
  const column = { name: namespaces.name, path: namespaces.path, id: namespaces.id, similarity: namespaces.name }[p.order_by];
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(namespaces).where(condition).orderBy(dir(column), dir(namespaces.id)).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(namespaces).where(condition),
  ]);
  return { rows, total };
}

export async function descendantNamespaceIds(db: Db, groupId: number): Promise<number[]> {
  const rows = await db.select({ id: namespaces.id }).from(namespaces).where(sql`${namespaces.traversalIds} @> ARRAY[${groupId}]::int[]`);
  return rows.map((r) => r.id);
}

