import { AccessLevel, forbidden, notFound, type Caller } from "@collab/core";
import { preparedQuery, type Db } from "@collab/db";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { members, namespaces, projects, type NamespaceRow, type ProjectRow } from "../db/schema";

/** A membership counts until the day it expires. */
export const activeMember = sql`(${members.expiresAt} IS NULL OR ${members.expiresAt} > current_date)`;

export interface ProjectAccessDetail {
  /** Highest level from the project, its ancestor groups and personal-namespace ownership. */
  level: number;
  projectLevel: number | null;
  groupLevel: number | null;
}

/** A user's highest level from one kind of source (the project, or its groups). */
export interface MemberLevelRow {
  userId: number;
  sourceType: string;
  level: number;
}

/**
 * Several users' highest levels on a project and on its ancestor groups; placeholders userIds,
 * projectId and namespaceIds (the project namespace's traversal ids). Also a part of the work
 * item input statement, which reads its rows as JSON (user_id, source_type, level).
 */
export const usersMemberLevelsQuery = (db: Db) =>
  db
    .select({ userId: members.userId, sourceType: members.sourceType, level: sql<number>`max(${members.accessLevel})::int`.as("level") })
    .from(members)
    .where(
      and(
        sql`${members.userId} = ANY(${sql.placeholder("userIds")}::int[])`,
        activeMember,
        sql`((${members.sourceType} = 'Project' AND ${members.sourceId} = ${sql.placeholder("projectId")}) OR (${members.sourceType} = 'Namespace' AND ${members.sourceId} = ANY(${sql.placeholder("namespaceIds")}::int[])))`,
      ),
    )
    .groupBy(members.userId, members.sourceType);

const usersMemberLevels = preparedQuery((db: Db) => usersMemberLevelsQuery(db).prepare("namespaces_project_users_member_levels"));

/** The ids' access on the project from their member level rows (every id present). */
export function accessOfUsersFrom(ns: NamespaceRow, ids: number[], rows: MemberLevelRow[]): Map<number, ProjectAccessDetail> {
  const levelOf = (userId: number, source: string) => rows.find((r) => r.userId === userId && r.sourceType === source)?.level ?? null;
  return new Map(ids.map((id) => [id, accessDetail(ns, id, levelOf(id, "Project"), levelOf(id, "Namespace"))]));
}

/** What access users have on a project, keyed by user id (every requested id present): one query over the project and every ancestor group. */
export async function projectAccessOfUsers(db: Db, project: ProjectRow, ns: NamespaceRow, userIds: number[]): Promise<Map<number, ProjectAccessDetail>> {
  const ids = [...new Set(userIds)];
  const rows = ids.length ? await usersMemberLevels(db, { userIds: ids, projectId: project.id, namespaceIds: ns.traversalIds }) : [];
  return accessOfUsersFrom(ns, ids, rows);
}

/** What access user U has on a project (projectAccessOfUsers for one). */
export async function projectAccess(db: Db, project: ProjectRow, ns: NamespaceRow, userId: number): Promise<ProjectAccessDetail> {
  return (await projectAccessOfUsers(db, project, ns, [userId])).get(userId)!;
}

/** Users' levels on a project and whether they can read it (assignee checks): `{[id]: {access_level, can_read}}`. */
export function readAccessFrom(project: ProjectRow, access: Map<number, ProjectAccessDetail>) {
  const out: Record<number, { access_level: number; can_read: boolean }> = {};
  const publicish = project.visibility !== "private";
  for (const [userId, { level }] of access) out[userId] = { access_level: level, can_read: publicish || level >= AccessLevel.GUEST };
  return out;
}

export async function readAccessOfUsers(db: Db, project: ProjectRow, ns: NamespaceRow, userIds: number[]) {
  return readAccessFrom(project, await projectAccessOfUsers(db, project, ns, userIds));
}

/** The effective level from the direct project and inherited group levels, and personal-namespace ownership. */
function accessDetail(ns: Pick<NamespaceRow, "kind" | "ownerId">, userId: number, projectLevel: number | null, groupLevel: number | null): ProjectAccessDetail {
  let level = Math.max(projectLevel ?? 0, groupLevel ?? 0);
  if (ns.kind === "user" && ns.ownerId === userId) level = Math.max(level, AccessLevel.OWNER);
  return { level, projectLevel, groupLevel };
}

/**
 * A project by id with the user's levels on it and its ancestor groups: the one statement behind
 * every project-scoped request of another service (access.project).
 */
const projectWithLevels = preparedQuery((db: Db) =>
  db
    .select({
      project: projects,
      namespace: namespaces,
      projectLevel: sql<number | null>`(SELECT max(${members.accessLevel})::int FROM ${members} WHERE ${members.userId} = ${sql.placeholder("userId")}
        AND ${activeMember} AND ${members.sourceType} = 'Project' AND ${members.sourceId} = ${projects.id})`,
      groupLevel: sql<number | null>`(SELECT max(${members.accessLevel})::int FROM ${members} WHERE ${members.userId} = ${sql.placeholder("userId")}
        AND ${activeMember} AND ${members.sourceType} = 'Namespace' AND ${members.sourceId} = ANY(${namespaces.traversalIds}))`,
    })
    .from(projects)
    .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
    .where(eq(projects.id, sql.placeholder("id")))
    .prepare("namespaces_project_with_levels"),
);

/** A project by id with `userId`'s access on it, in one statement; undefined when there is none. */
export async function findProjectWithAccess(db: Db, id: number, userId: number) {
  const [row] = await projectWithLevels(db, { id, userId });
  return row && { project: row.project, namespace: row.namespace, access: accessDetail(row.namespace, userId, row.projectLevel, row.groupLevel) };
}

/** What access user U has on a group, inherited from its ancestors. */
export async function groupAccessLevel(db: Db, group: NamespaceRow, userId: number): Promise<number> {
  const [row] = await db
    .select({ level: sql<number | null>`max(${members.accessLevel})::int` })
    .from(members)
    .where(
      and(
        eq(members.userId, userId),
        activeMember,
        eq(members.sourceType, "Namespace"),
        sql`${members.sourceId} = ANY(${sql.param(group.traversalIds)}::int[])`,
      ),
    );
  return row?.level ?? 0;
}

/** Whether the user belongs to anything below the group (a subgroup or one of its projects). */
export async function hasDescendantMembership(db: Db, group: NamespaceRow, userId: number): Promise<boolean> {
  const rows = await db.execute(sql`
    SELECT 1 FROM ${members} m
    WHERE m.user_id = ${userId} AND (m.expires_at IS NULL OR m.expires_at > current_date) AND m.access_level >= ${AccessLevel.GUEST} AND (
      (m.source_type = 'Namespace' AND m.source_id IN (SELECT id FROM ${namespaces} WHERE traversal_ids @> ARRAY[${group.id}]::int[]))
      OR (m.source_type = 'Project' AND m.source_id IN (SELECT p.id FROM ${projects} p JOIN ${namespaces} n ON n.id = p.namespace_id WHERE n.traversal_ids @> ARRAY[${group.id}]::int[])))
    LIMIT 1`);
  return (rows as unknown as { rows: unknown[] }).rows.length > 0;
}

/** Visibility rule shared by projects and groups: public to all, internal to signed-in non-external users. */
export function visibleByLevel(visibility: string, caller: Caller | null): boolean {
  if (visibility === "public") return true;
  return visibility === "internal" && caller !== null && !caller.external;
}

export const canReadProject = (project: ProjectRow, caller: Caller | null, level: number) =>
  caller?.admin === true || level >= AccessLevel.GUEST || visibleByLevel(project.visibility, caller);

/** The caller's effective role for permission checks: administrators act above Owner. */
export const roleOf = (caller: Caller | null, level: number) => (caller?.admin ? AccessLevel.ADMIN : level);

export function requireRole(role: number, min: number, reason?: string) {
  if (role < min) throw forbidden(reason);
}

/**
 * SQL condition for "projects this caller may read", on a query joining projects and namespaces.
 * Undefined for administrators (everything).
 */
export function projectsVisibleTo(caller: Caller | null): SQL | undefined {
  if (caller?.admin) return undefined;
  if (!caller) return sql`${projects.visibility} = 'public'`;
  const internal = caller.external ? sql`FALSE` : sql`${projects.visibility} = 'internal'`;
  return sql`(${projects.visibility} = 'public' OR ${internal} OR ${namespaces.ownerId} = ${caller.id} OR EXISTS (
    SELECT 1 FROM ${members} m WHERE m.user_id = ${caller.id} AND (m.expires_at IS NULL OR m.expires_at > current_date)
      AND m.access_level >= ${AccessLevel.GUEST}
      AND ((m.source_type = 'Project' AND m.source_id = ${projects.id}) OR (m.source_type = 'Namespace' AND m.source_id = ANY(${namespaces.traversalIds})))))`;
}

/** SQL condition for "groups this caller may read" on a query over namespaces. */
export function groupsVisibleTo(caller: Caller | null): SQL | undefined {
  if (caller?.admin) return undefined;
  if (!caller) return sql`${namespaces.visibility} = 'public'`;
  const internal = caller.external ? sql`FALSE` : sql`${namespaces.visibility} = 'internal'`;
  return sql`(${namespaces.visibility} = 'public' OR ${internal} OR EXISTS (
    SELECT 1 FROM ${members} m WHERE m.user_id = ${caller.id} AND (m.expires_at IS NULL OR m.expires_at > current_date)
      AND m.access_level >= ${AccessLevel.GUEST} AND (
        (m.source_type = 'Namespace' AND (m.source_id = ANY(${namespaces.traversalIds})
          OR m.source_id IN (SELECT d.id FROM ${namespaces} d WHERE d.traversal_ids @> ARRAY[${namespaces.id}]::int[])))
        OR (m.source_type = 'Project' AND m.source_id IN (SELECT p.id FROM ${projects} p JOIN ${namespaces} d ON d.id = p.namespace_id
          WHERE d.traversal_ids @> ARRAY[${namespaces.id}]::int[])))))`;
}

export { notFound };
