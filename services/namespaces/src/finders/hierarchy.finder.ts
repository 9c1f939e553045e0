import type { Caller } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { namespaces, projects } from "../db/schema";
import { groupsVisibleTo, projectsVisibleTo } from "../domain/access";

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

/**
 * GitLab's fuzzy_search over some columns: every word of at least `minChars` characters must
 * appear (ILIKE %word%) in one column; a query with no such word matches a column exactly,
 * case-insensitively. Quoted phrases count as one word.
 */
export function fuzzySearch(columns: SQL[], query: string, minChars: number): SQL | undefined {
  const squished = query.trim().replace(/\s+/g, " ");
  if (squished === "") return undefined;
  const escape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
  const words = [...squished.matchAll(/"[^"]+"|[^\s"]+/g)].map((m) => m[0].replace(/"/g, "")).filter((w) => w.length >= minChars);
  const perColumn = columns.map((col) =>
    words.length ? sql.join(words.map((w) => sql`${col} ILIKE ${`%${escape(w)}%`}`), sql` AND `) : sql`${col} ILIKE ${escape(squished)}`,
  );
  return sql`(${sql.join(perColumn.map((c) => sql`(${c})`), sql` OR `)})`;
}
