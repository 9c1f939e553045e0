import { badRequestMessage, offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, inArray, sql, type SQL } from "drizzle-orm";
import type { RunnerFilters } from "@collab/runners-contract";
import { runnerProjects, runners, type RunnerRow } from "../db/schema";

const ONLINE = sql`now() - interval '2 hours'`;
const STALE = sql`now() - interval '7 days'`;

/** Scopes and statuses as SQL (GitLab's Ci::Runner scopes); offline includes stale runners that once contacted. */
function scopeCondition(scope: string): SQL {
  switch (scope) {
    case "specific":
      return sql`${runners.runnerType} IN ('group_type', 'project_type')`;
    case "shared":
      return sql`${runners.runnerType} = 'instance_type'`;
    case "instance_type":
    case "group_type":
    case "project_type":
      return sql`${runners.runnerType} = ${scope}`;
    case "active":
      return sql`${runners.active}`;
    case "paused":
      return sql`NOT ${runners.active}`;
    case "online":
      return sql`${runners.contactedAt} > ${ONLINE}`;
    case "offline":
      return sql`${runners.contactedAt} <= ${ONLINE}`;
    case "never_contacted":
      return sql`${runners.contactedAt} IS NULL`;
    case "stale":
      return sql`((${runners.contactedAt} IS NULL AND ${runners.createdAt} <= ${STALE}) OR ${runners.contactedAt} <= ${STALE})`;
  }
  throw badRequestMessage("Scope contains invalid value");
}

export type RunnerSet =
  | { all: true }
  /** Owned by a user: project runners of these projects and group runners of these groups. */
  | { all: false; projectIds: number[]; groupIds: number[]; instance?: boolean };

function setCondition(set: RunnerSet): SQL | undefined {
  if (set.all) return undefined;
  const parts: SQL[] = [];
  if (set.projectIds.length)
    parts.push(sql`(${runners.runnerType} = 'project_type' AND ${runners.id} IN (SELECT ${runnerProjects.runnerId} FROM ${runnerProjects} WHERE ${inArray(runnerProjects.projectId, set.projectIds)}))`);
  if (set.groupIds.length) parts.push(sql`(${runners.runnerType} = 'group_type' AND ${inArray(runners.groupId, set.groupIds)})`);
  if (set.instance) parts.push(sql`${runners.runnerType} = 'instance_type'`);
  return parts.length ? sql`(${sql.join(parts, sql` OR `)})` : sql`FALSE`;
}

/**
 * Runners of a set matching the list filters. `allowedScopes` is what the list accepts for the
 * deprecated `scope` (GitLab answers 400 "Scope contains invalid value" for the others).
 */
export async function findRunners(
  db: Db,
  set: RunnerSet,
  p: Omit<RunnerFilters, "all">,
  allowedScopes: readonly string[],
): Promise<{ rows: RunnerRow[]; total: number }> {
  const where: (SQL | undefined)[] = [setCondition(set)];
  if (p.scope !== undefined) {
    if (!allowedScopes.includes(p.scope)) throw badRequestMessage("Scope contains invalid value");
    where.push(scopeCondition(p.scope));
  }
  if (p.type !== undefined) where.push(scopeCondition(p.type));
  if (p.status !== undefined) where.push(scopeCondition(p.status));
  if (p.paused !== undefined) where.push(scopeCondition(p.paused ? "paused" : "active"));
  if (p.tag_list?.length) where.push(sql`${runners.tagList} @> ${sql.param(p.tag_list)}::text[]`);
  if (p.version_prefix !== undefined) where.push(sql`${runners.version} LIKE ${p.version_prefix.replace(/[\\%_]/g, (c) => "\\" + c) + "%"}`);
  const condition = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(runners).where(condition).orderBy(asc(runners.id)).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(runners).where(condition),
  ]);
  return { rows, total };
}
