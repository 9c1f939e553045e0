import type { Db } from "@collab/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import { todos, type NewTodo } from "../db/schema";

export type TodoTargetType = "Issue" | "MergeRequest";

/** A target's identity as the to-dos keep it. */
export interface TodoTarget {
  type: TodoTargetType;
  id: number;
  projectId: number;
}

const onTarget = (t: Pick<TodoTarget, "type" | "id">) => and(eq(todos.targetType, t.type), eq(todos.targetId, t.id));

/**
 * GitLab's TodoService#create_todos (multiple to-dos per target off): a user who has a pending
 * to-do of the same action on the target gets no second one.
 */
export async function createTodos(tx: Db, target: TodoTarget, rows: Pick<NewTodo, "userId" | "authorId" | "action" | "body" | "noteId">[], at: Date) {
  if (!rows.length) return;
  const pending = await tx
    .select({ userId: todos.userId, action: todos.action })
    .from(todos)
    .where(and(onTarget(target), eq(todos.state, "pending"), inArray(todos.userId, [...new Set(rows.map((r) => r.userId))])));
  const has = new Set(pending.map((p) => `${p.userId}:${p.action}`));
  const fresh = rows.filter((r) => !has.has(`${r.userId}:${r.action}`) && (has.add(`${r.userId}:${r.action}`), true));
  if (!fresh.length) return;
  await tx.insert(todos).values(fresh.map((r) => ({ ...r, projectId: target.projectId, targetType: target.type, targetId: target.id, createdAt: at, updatedAt: at })));
}

/** TodoService#resolve_todos_for_target: the user's pending to-dos on the target are done. */
export async function resolveTodosForTarget(tx: Db, target: Pick<TodoTarget, "type" | "id">, userId: number) {
  await tx
    .update(todos)
    .set({ state: "done", updatedAt: sql`now()` })
    .where(and(onTarget(target), eq(todos.userId, userId), eq(todos.state, "pending")));
}

/** A deleted target takes its to-dos with it (GitLab: dependent destroy). */
export async function removeTodosOfTarget(tx: Db, target: Pick<TodoTarget, "type" | "id">) {
  await tx.delete(todos).where(onTarget(target));
}

export async function removeTodosOfProject(tx: Db, projectId: number) {
  await tx.delete(todos).where(eq(todos.projectId, projectId));
}

export async function removeTodosOfUser(tx: Db, userId: number) {
  await tx.delete(todos).where(eq(todos.userId, userId));
}
