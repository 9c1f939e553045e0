import type { Caller } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { namespaces, projects } from "../db/schema";
import { groupsVisibleTo, projectsVisibleTo } from "../members/access";

/** The group and its descendants that the caller may read (the group itself always, it was authorized). */
export async function visibleSelfAndDescendantGroupIds(db: Db, caller: Caller | null, groupId: number): Promise<number[]> {
  const where = [eq(namespaces.kind, "group"), sql`${namespaces.traversalIds} @> ARRAY[${groupId}]::int[]`, groupsVisibleTo(caller)];
  const rows = await db.select({ id: namespaces.id }).from(namespaces).where(and(...where.filter((w): w is SQL => w !== undefined)));
  return [...new Set([groupId, ...rows.map((r) => r.id)])];
}

/** Projects directly in these namespaces that the caller may read. */
export async function visibleProjectIdsIn(db: Db, caller: Caller | null, namespaceIds: number[]): Promise<number[]> {
  if (namespaceIds.length === 0) return [];
  const where = [inArray(projects.namespaceId, namespaceIds), projectsVisibleTo(caller)];
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(and(...where.filter((w): w is SQL => w !== undefined)));
  return rows.map((r) => r.id);
}
