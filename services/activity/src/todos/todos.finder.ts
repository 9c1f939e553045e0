import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { TodoFilters } from "@collab/activity-contract";
import { todos, type TodoRow } from "../db/schema";

/** GitLab's TodosFinder over one user's to-dos: one filter per param, pending unless `state` says otherwise, newest first. */
export function todoConditions(userId: number, f: TodoFilters, groupProjectIds?: number[]): SQL[] {
  const where: (SQL | undefined)[] = [
    eq(todos.userId, userId),
    eq(todos.state, f.state ?? "pending"),
    f.action ? eq(todos.action, f.action) : undefined,
    f.author_id !== undefined ? eq(todos.authorId, f.author_id) : undefined,
    f.project_id !== undefined ? eq(todos.projectId, f.project_id) : undefined,
    groupProjectIds ? (groupProjectIds.length ? inArray(todos.projectId, groupProjectIds) : sql`false`) : undefined,
    f.type ? eq(todos.targetType, f.type) : undefined,
  ];
  return where.filter((c): c is SQL => c !== undefined);
}

/** One page of the user's to-dos and the number of them all. */
export async function findTodos(db: Db, userId: number, f: TodoFilters, groupProjectIds?: number[]): Promise<{ rows: TodoRow[]; total: number }> {
  const where = and(...todoConditions(userId, f, groupProjectIds));
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(todos).where(where).orderBy(desc(todos.id)).limit(f.per_page).offset(offsetOf(f)),
    db.select({ total: count() }).from(todos).where(where),
  ]);
  return { rows, total };
}
