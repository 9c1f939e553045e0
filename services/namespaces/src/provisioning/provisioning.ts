import { AccessLevel } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import { members, namespaces, projects, type NamespaceRow } from "../db/schema";

/**
 * Memberships an identity provider manages (SCIM provisioning in the accounts service): granted
 * and taken away by the system, not by a member of the group, so no caller's role is checked. The
 * members API's own rules that still hold for the system — a group keeps its last Owner — are here.
 */

/**
 * Makes the user a direct member of the group at `accessLevel` unless they already are one, at any
 * level (GitLab's provisioning adds a member only when `member_of_group?` is false). Idempotent.
 */
export async function grantMembership(db: Db, groupId: number, userId: number, accessLevel: number): Promise<boolean> {
  const rows = await db
    .insert(members)
    .values({ sourceType: "Namespace", sourceId: groupId, userId, accessLevel, createdById: null })
    .onConflictDoNothing()
    .returning({ id: members.id });
  return rows.length > 0;
}

export type RevokeOutcome = "removed" | "not_member" | "last_owner";

/**
 * Members::DestroyService as SCIM deprovisioning runs it: the user's membership of the group goes,
 * with their memberships of its subgroups and their projects, in one transaction — unless they are
 * the group's last Owner (its only active direct Owner, the group being top-level). Idempotent.
 */
export async function revokeMembership(db: Db, group: NamespaceRow, userId: number): Promise<RevokeOutcome> {
  return db.transaction(async (tx) => {
    // The group's Owners, locked so that two deprovisionings cannot each remove "the other" last Owner.
    const owners = await tx
      .select({ userId: members.userId })
      .from(members)
      .where(
        and(
          eq(members.sourceType, "Namespace"),
          eq(members.sourceId, group.id),
          eq(members.accessLevel, AccessLevel.OWNER),
          sql`(${members.expiresAt} IS NULL OR ${members.expiresAt} > current_date)`,
        ),
      )
      .for("update");
    if (owners.some((o) => o.userId === userId) && new Set(owners.map((o) => o.userId)).size <= 1) return "last_owner";
    const removed = await tx
      .delete(members)
      .where(
        and(
          eq(members.userId, userId),
          sql`(
            (${members.sourceType} = 'Namespace' AND ${members.sourceId} IN (SELECT id FROM ${namespaces} WHERE ${namespaces.traversalIds} @> ARRAY[${group.id}]::int[]))
            OR (${members.sourceType} = 'Project' AND ${members.sourceId} IN (
              SELECT p.id FROM ${projects} p JOIN ${namespaces} n ON n.id = p.namespace_id WHERE n.traversal_ids @> ARRAY[${group.id}]::int[])))`,
        ),
      )
      .returning({ id: members.id });
    return removed.length > 0 ? "removed" : "not_member";
  });
}
