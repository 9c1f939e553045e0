import { call, implement, notModified, page, recordNotFound, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Activity } from "@collab/activity-contract";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { readableProjects } from "@collab/work-items";
import { and, eq, sql } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { todos } from "../db/schema";
import { presentTodos } from "./todo.entity";
import { findTodos } from "./todos.finder";
import type { TodoTargetType } from "./todos.store";

/**
 * TodoService#mark_todo: a `marked` to-do of the caller's on a target they read (the target's
 * own GET answers 404 otherwise); 304 when they have a pending one already (a partial unique
 * index keeps it to one under concurrent requests).
 */
async function markTodo(kit: ServiceKit, ctx: Ctx<unknown>, target: { type: TodoTargetType; id: number; project_id: number }) {
  const caller = requireCaller(ctx);
  const [row] = await kit.db
    .insert(todos)
    .values({ userId: caller.id, authorId: caller.id, projectId: target.project_id, targetType: target.type, targetId: target.id, action: "marked" })
    .onConflictDoNothing()
    .returning();
  if (!row) throw notModified();
  const [todo] = await presentTodos(ctx, [row], { hideUnreadable: false });
  return todo;
}

export const todosActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** GET /todos: a page of the caller's own; those whose target they may no longer read are left out of it (X-Total counts them, as GitLab's). */
  "todos.list": implement(
    Activity.todos.list,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const f = ctx.params;
      const groupProjectIds = f.group_id !== undefined ? (await readableProjects(ctx, f.group_id)).projects.map((p) => p.id) : undefined;
      const { rows, total } = await findTodos(kit.db, caller.id, f, groupProjectIds);
      return page(await presentTodos(ctx, rows, { hideUnreadable: true }), total, f);
    },
    { visibility: "published" },
  ),

  "todos.markDone": implement(
    Activity.todos.markDone,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const [row] = await kit.db
        .update(todos)
        .set({ state: "done", updatedAt: sql`CASE WHEN ${todos.state} = 'done' THEN ${todos.updatedAt} ELSE now() END` })
        .where(and(eq(todos.id, ctx.params.id), eq(todos.userId, caller.id)))
        .returning();
      if (!row) throw recordNotFound();
      const [todo] = await presentTodos(ctx, [row], { hideUnreadable: false });
      if (!todo) throw recordNotFound();
      return todo;
    },
    { visibility: "published" },
  ),

  "todos.markAllDone": implement(
    Activity.todos.markAllDone,
    async (ctx) => {
      const caller = requireCaller(ctx);
      await kit.db.update(todos).set({ state: "done", updatedAt: sql`now()` }).where(and(eq(todos.userId, caller.id), eq(todos.state, "pending")));
      return null;
    },
    { visibility: "published" },
  ),

  "todos.createForIssue": implement(
    Activity.todos.createForIssue,
    async (ctx) => {
      requireCaller(ctx);
      const issue = await call(ctx, Issues.issues.get, { id: ctx.params.id, issue_iid: ctx.params.issue_iid });
      return markTodo(kit, ctx, { type: "Issue", id: issue.id, project_id: issue.project_id });
    },
    { visibility: "published" },
  ),

  "todos.createForMergeRequest": implement(
    Activity.todos.createForMergeRequest,
    async (ctx) => {
      requireCaller(ctx);
      const mr = await call(ctx, MergeRequests.mergeRequests.get, { id: ctx.params.id, merge_request_iid: ctx.params.merge_request_iid });
      return markTodo(kit, ctx, { type: "MergeRequest", id: mr.id, project_id: mr.project_id });
    },
    { visibility: "published" },
  ),
});
