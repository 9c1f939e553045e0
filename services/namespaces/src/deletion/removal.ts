import type { Db } from "@collab/db";
import { eq, inArray, sql } from "drizzle-orm";
import { namespaces, projects, type NamespaceRow, type ProjectRow } from "../db/schema";
import { dropSourceMemberships } from "../members/members";

/** Removes a group, its subgroups, their projects and every membership and invitation in them, in one transaction. */
export async function deleteGroup(db: Db, group: NamespaceRow): Promise<{ projectIds: number[]; namespaceIds: number[] }> {
  return db.transaction((tx) => removeGroupTree(tx, group.id));
}

/**
 * The removal itself, inside the caller's transaction (the immediate DELETE and the adjourned
 * deletion purge share it). A group already gone removes nothing.
 */
export async function removeGroupTree(tx: Db, groupId: number): Promise<{ projectIds: number[]; namespaceIds: number[] }> {
  const nsRows = await tx.select({ id: namespaces.id }).from(namespaces).where(sql`${namespaces.traversalIds} @> ARRAY[${groupId}]::int[]`);
  const namespaceIds = nsRows.map((r) => r.id);
  if (!namespaceIds.length) return { projectIds: [], namespaceIds };
  const projectRows = await tx.select({ id: projects.id }).from(projects).where(inArray(projects.namespaceId, namespaceIds));
  const projectIds = projectRows.map((r) => r.id);
  await dropSourceMemberships(tx, "Project", projectIds);
  await dropSourceMemberships(tx, "Namespace", namespaceIds);
  // Projects and subgroups go with their namespace rows (ON DELETE CASCADE on projects; children first here).
  await tx.execute(sql`DELETE FROM ${namespaces} WHERE traversal_ids @> ARRAY[${groupId}]::int[]`);
  return { projectIds, namespaceIds };
}

export async function deleteProject(db: Db, project: ProjectRow): Promise<void> {
  await db.transaction((tx) => removeProject(tx, project.id));
}

/** The removal itself, inside the caller's transaction (shared with the adjourned deletion purge). */
export async function removeProject(tx: Db, projectId: number): Promise<void> {
  await dropSourceMemberships(tx, "Project", [projectId]);
  await tx.delete(projects).where(eq(projects.id, projectId));
}
