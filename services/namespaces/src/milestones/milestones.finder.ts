import { offsetOf, type Pagination } from "@collab/core";
import { preparedQuery, type Db } from "@collab/db";
import { and, count, desc, eq, gt, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { MilestoneContainerPaths } from "./milestone.entity";
import { milestones, namespaces, projects, type MilestoneRow } from "../db/schema";
import { fuzzySearch } from "../shared/fuzzy-search";

/** Which milestones a list or lookup sees: those of these projects and of these groups. */
export interface MilestoneScope {
  projectIds: number[];
  groupIds: number[];
}

export interface MilestoneFilters {
  state?: "active" | "closed" | "all";
  iids?: number[];
  title?: string;
  search?: string;
  updatedBefore?: Date;
  updatedAfter?: Date;
}

export type MilestoneWithPaths = { milestone: MilestoneRow } & MilestoneContainerPaths;

function scopeSql(scope: MilestoneScope): SQL {
  const parts: SQL[] = [];
  if (scope.projectIds.length) parts.push(inArray(milestones.projectId, scope.projectIds));
  if (scope.groupIds.length) parts.push(inArray(milestones.groupId, scope.groupIds));
  return parts.length ? or(...parts)! : sql`FALSE`;
}

function filterSql(f: MilestoneFilters): (SQL | undefined)[] {
  return [
    f.state === "active" || f.state === "closed" ? eq(milestones.state, f.state) : undefined,
    f.iids?.length ? inArray(milestones.iid, f.iids) : undefined,
    f.title !== undefined ? eq(milestones.title, f.title) : undefined,
    // Milestone search keeps GitLab's default minimum of 3 characters for partial matches.
    f.search ? fuzzySearch([sql`${milestones.title}`, sql`${milestones.description}`], f.search, 3) : undefined,
    f.updatedBefore ? lt(milestones.updatedAt, f.updatedBefore) : undefined,
    f.updatedAfter ? gt(milestones.updatedAt, f.updatedAfter) : undefined,
  ];
}

const projectNs = alias(namespaces, "project_ns");
const groupNs = alias(namespaces, "group_ns");

/** Milestones with the paths of their project or group, for web_url. */
const selectWithPaths = (db: Db) =>
  db
    .select({
      milestone: milestones,
      projectPath: sql<string | null>`${projectNs.fullPath} || '/' || ${projects.path}`.as("project_path"),
      groupPath: sql<string | null>`${groupNs.fullPath}`.as("group_path"),
    })
    .from(milestones)
    .leftJoin(projects, eq(projects.id, milestones.projectId))
    .leftJoin(projectNs, eq(projectNs.id, projects.namespaceId))
    .leftJoin(groupNs, eq(groupNs.id, milestones.groupId));

/** GET .../milestones, as GitLab's MilestonesFinder: due date ascending (none last), then newest first. */
export async function findMilestones(db: Db, scope: MilestoneScope, filters: MilestoneFilters, p: Pagination): Promise<{ rows: MilestoneWithPaths[]; total: number }> {
  const condition = and(scopeSql(scope), ...filterSql(filters));
  const [rows, [{ total }]] = await Promise.all([
    selectWithPaths(db).where(condition).orderBy(sql`${milestones.dueDate} ASC NULLS LAST`, desc(milestones.id)).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(milestones).where(condition),
  ]);
  return { rows, total };
}

/**
 * One milestone by global id, only if it belongs to the scope; placeholders milestoneId,
 * projectIds and groupIds. Also a part of the work item input statement, which reads it as JSON
 * (the milestone's columns, project_path, group_path).
 */
export const milestoneInScopeQuery = (db: Db) =>
  selectWithPaths(db).where(
    and(
      eq(milestones.id, sql.placeholder("milestoneId")),
      sql`(${milestones.projectId} = ANY(${sql.placeholder("projectIds")}::int[]) OR ${milestones.groupId} = ANY(${sql.placeholder("groupIds")}::int[]))`,
    ),
  );

const milestoneInScope = preparedQuery((db: Db) => milestoneInScopeQuery(db).prepare("namespaces_milestone_in_scope"));

/** One milestone by global id, only if it belongs to the scope: a prepared statement (work item writes check one each). */
export async function findMilestoneInScope(db: Db, scope: MilestoneScope, id: number): Promise<MilestoneWithPaths | undefined> {
  const [row] = await milestoneInScope(db, { milestoneId: id, projectIds: scope.projectIds, groupIds: scope.groupIds });
  return row;
}

/** A milestone by exact title in the scope; the project's own wins over a group's, then the nearest group's. */
export async function findMilestoneByTitle(db: Db, scope: MilestoneScope, title: string): Promise<MilestoneWithPaths | undefined> {
  const rows = await selectWithPaths(db).where(and(scopeSql(scope), eq(milestones.title, title)));
  const rank = (m: MilestoneRow) => (m.projectId !== null ? -1 : scope.groupIds.length - scope.groupIds.indexOf(m.groupId!));
  return rows.sort((a, b) => rank(a.milestone) - rank(b.milestone) || a.milestone.id - b.milestone.id)[0];
}

const milestonesWithIds = preparedQuery((db: Db) =>
  selectWithPaths(db).where(sql`${milestones.id} = ANY(${sql.placeholder("ids")}::int[])`).orderBy(desc(milestones.id)).prepare("namespaces_milestones_by_ids"),
);

export async function milestonesByIds(db: Db, ids: number[]): Promise<MilestoneWithPaths[]> {
  if (ids.length === 0) return [];
  return milestonesWithIds(db, { ids });
}
