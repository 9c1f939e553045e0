import { AccessLevel, offsetOf, type Caller } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import type { ListProjectsParams } from "@collab/namespaces-contract";
import { namespaces, projects, type NamespaceRow, type ProjectRow } from "../db/schema";
import { projectsVisibleTo } from "../members/access";

export interface ProjectsScope {
  /** Only projects directly in these namespaces (a group's projects, with or without subgroups). */
  namespaceIds?: number[];
}

/**
 * The caller's membership on a project (direct or through an ancestor group), at least `min`.
 * Raw fragments with a top-level OR keep their own parentheses: drizzle's and() does not add them.
 */
const memberOf = (caller: Caller, min: number) => sql`((${namespaces.ownerId} = ${caller.id} AND ${min} <= ${AccessLevel.OWNER}) OR EXISTS (
  SELECT 1 FROM namespaces.members m WHERE m.user_id = ${caller.id} AND (m.expires_at IS NULL OR m.expires_at > current_date)
    AND m.access_level >= ${min}
    AND ((m.source_type = 'Project' AND m.source_id = ${projects.id}) OR (m.source_type = 'Namespace' AND m.source_id = ANY(${namespaces.traversalIds})))))`;

/** Projects the caller may read, one filter per step as GitLab's ProjectsFinder. */
export async function findProjects(
  db: Db,
  caller: Caller | null,
  p: ListProjectsParams,
  scope: ProjectsScope = {},
): Promise<{ rows: { project: ProjectRow; namespace: NamespaceRow }[]; total: number }> {
  const where: (SQL | undefined)[] = [projectsVisibleTo(caller)];
  if (scope.namespaceIds) where.push(scope.namespaceIds.length ? inArray(projects.namespaceId, scope.namespaceIds) : sql`FALSE`);
  if (p.archived !== undefined) where.push(eq(projects.archived, p.archived));
  if (p.visibility) where.push(eq(projects.visibility, p.visibility));
  if (p.marked_for_deletion_on) where.push(eq(projects.markedForDeletionAt, p.marked_for_deletion_on));
  if (p.search) {
    const term = `%${p.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      p.search_namespaces
        ? sql`((${namespaces.fullPath} || '/' || ${projects.path}) ILIKE ${term} OR (${namespaces.fullName} || ' / ' || ${projects.name}) ILIKE ${term})`
        : sql`(${projects.name} ILIKE ${term} OR ${projects.path} ILIKE ${term} OR ${projects.description} ILIKE ${term})`,
    );
  }
  // GitLab's owned_projects: the personal namespace's projects and those the caller has Owner on.
  if (caller && p.owned) where.push(memberOf(caller, AccessLevel.OWNER));
  if (caller && p.membership) where.push(memberOf(caller, AccessLevel.GUEST));
  if (caller && p.min_access_level !== undefined) where.push(memberOf(caller, p.min_access_level));
  if (p.id_after !== undefined) where.push(gt(projects.id, p.id_after));
  if (p.id_before !== undefined) where.push(lt(projects.id, p.id_before));
  if (p.last_activity_after) where.push(gte(projects.lastActivityAt, p.last_activity_after));
  if (p.last_activity_before) where.push(lte(projects.lastActivityAt, p.last_activity_before));
  if (p.topic?.length) where.push(sql`${projects.topics} @> ${sql.param(p.topic)}::text[]`);
  if (p.repository_storage && caller?.admin) where.push(eq(projects.repositoryStorage, p.repository_storage));
  if (p.with_issues_enabled) where.push(sql`${projects.issuesAccessLevel} <> 'disabled'`);
  if (p.with_merge_requests_enabled) where.push(sql`${projects.mergeRequestsAccessLevel} <> 'disabled'`);
  if (p.starred) where.push(sql`FALSE`); // stars are not modelled: nobody has starred anything
  const condition = and(...where.filter((w): w is SQL => w !== undefined));

  const dir = p.sort === "asc" ? asc : desc;
  const column =
    {
      id: projects.id,
      name: projects.name,
      path: projects.path,
      created_at: projects.createdAt,
      updated_at: projects.updatedAt,
      last_activity_at: projects.lastActivityAt,
    }[p.order_by as string] ?? projects.createdAt;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ project: projects, namespace: namespaces })
      .from(projects)
      .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
      .where(condition)
      .orderBy(dir(column), dir(projects.id))
      .limit(p.per_page)
      .offset(offsetOf(p)),
    db.select({ total: count() }).from(projects).innerJoin(namespaces, eq(namespaces.id, projects.namespaceId)).where(condition),
  ]);
  return { rows, total };
}
