import { call, type Ctx } from "@collab/core";
import type { Todo } from "@collab/activity-contract";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { userMap } from "@collab/work-items";
import type { TodoRow } from "../db/schema";

type Target = NonNullable<Todo["target"]>;

/** The targets of these to-dos as the caller reads them now: one call per service, never per row; unreadable ones absent. */
async function currentTargets(ctx: Ctx<unknown>, rows: TodoRow[]): Promise<Map<string, Target>> {
  const idsOf = (type: string) => [...new Set(rows.filter((r) => r.targetType === type).map((r) => r.targetId))];
  const [issueIds, mrIds] = [idsOf("Issue"), idsOf("MergeRequest")];
  const [issues, mergeRequests] = await Promise.all([
    issueIds.length ? call(ctx, Issues.issues.byIds, { ids: issueIds }) : [],
    mrIds.length ? call(ctx, MergeRequests.mergeRequests.byIds, { ids: mrIds }) : [],
  ]);
  return new Map<string, Target>([...issues.map((i) => [`Issue:${i.id}`, i] as const), ...mergeRequests.map((m) => [`MergeRequest:${m.id}`, m] as const)]);
}

/**
 * Entities::Todo for a page of to-dos, in three batched calls besides the targets' (projects,
 * authors). With `hideUnreadable` (lists, as GitLab's AllowedTargetFilterService) a to-do whose
 * target the caller may no longer read is left out; otherwise it shows no target.
 */
export async function presentTodos(ctx: Ctx<unknown>, rows: TodoRow[], o: { hideUnreadable: boolean }): Promise<Todo[]> {
  if (!rows.length) return [];
  const [targets, projects, authors] = await Promise.all([
    currentTargets(ctx, rows),
    call(ctx, Namespaces.storage.containers, { kind: "project", ids: [...new Set(rows.map((r) => r.projectId))] }),
    userMap(ctx, rows.map((r) => r.authorId)),
  ]);
  const projectById = new Map(projects.map((p) => [p.id, p]));
  const out: Todo[] = [];
  for (const row of rows) {
    const target = targets.get(`${row.targetType}:${row.targetId}`) ?? null;
    const project = projectById.get(row.projectId);
    if ((!target && o.hideUnreadable) || !project || !("path_with_namespace" in project)) continue;
    out.push({
      id: row.id,
      project,
      author: authors.get(row.authorId) ?? null,
      action_name: row.action,
      target_type: row.targetType,
      target,
      target_url: target?.web_url ?? null,
      body: row.body ?? target?.title ?? "",
      state: row.state as Todo["state"],
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    });
  }
  return out;
}
