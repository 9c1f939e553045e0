import { offsetOf, recordId, type Pagination } from "@collab/core";
import { preparedQuery, type Db } from "@collab/db";
import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { labels, type LabelRow } from "../db/schema";
import { fuzzySearch } from "../shared/fuzzy-search";

/** Which labels a list or lookup sees: those of these projects and of these groups. */
export interface LabelScope {
  projectIds: number[];
  groupIds: number[];
}

export function labelScopeSql(scope: LabelScope): SQL {
  const parts: SQL[] = [];
  if (scope.projectIds.length) parts.push(inArray(labels.projectId, scope.projectIds));
  if (scope.groupIds.length) parts.push(inArray(labels.groupId, scope.groupIds));
  return parts.length ? or(...parts)! : sql`FALSE`;
}

/** GET .../labels, as GitLab's LabelsFinder: ordered by title; `search` is fuzzy over title and description. */
export async function findLabels(db: Db, scope: LabelScope, filters: { search?: string }, p: Pagination): Promise<{ rows: LabelRow[]; total: number }> {
  // Label queries are never global, so GitLab lets even one character match partially.
  const condition = and(labelScopeSql(scope), filters.search !== undefined ? fuzzySearch([sql`${labels.title}`, sql`${labels.description}`], filters.search, 1) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(labels).where(condition).orderBy(asc(labels.title), asc(labels.id)).limit(p.per_page).offset(offsetOf(p)),
    db.select({ total: count() }).from(labels).where(condition),
  ]);
  return { rows, total };
}

/**
 * A label by id or, failing that, by exact title, among the scope (GitLab's find_label).
 * When a title exists at several levels the project's own label wins, then the nearest group's.
 */
export async function findLabelByRef(db: Db, scope: LabelScope, ref: string): Promise<LabelRow | undefined> {
  const text = ref.trim();
  const id = recordId(text);
  if (id) {
    const [byId] = await db.select().from(labels).where(and(labelScopeSql(scope), eq(labels.id, id)));
    if (byId) return byId;
  }
  const rows = await db.select().from(labels).where(and(labelScopeSql(scope), eq(labels.title, ref)));
  return rows.sort((a, b) => rank(scope, a) - rank(scope, b) || a.id - b.id)[0];
}

/** Project labels first, then groups from the nearest (last in traversal order) upwards. */
const rank = (scope: LabelScope, l: LabelRow) => (l.projectId !== null ? -1 : scope.groupIds.length - scope.groupIds.indexOf(l.groupId!));

/**
 * Labels with these exact titles in the scope (one query for a whole set of names); placeholders
 * titles, projectIds and groupIds. Also a part of the work item input statement.
 */
export const labelsWithTitlesQuery = (db: Db) =>
  db
    .select()
    .from(labels)
    .where(
      and(
        sql`${labels.title} = ANY(${sql.placeholder("titles")}::text[])`,
        sql`(${labels.projectId} = ANY(${sql.placeholder("projectIds")}::int[]) OR ${labels.groupId} = ANY(${sql.placeholder("groupIds")}::int[]))`,
      ),
    )
    .orderBy(asc(labels.title), asc(labels.id));

const labelsWithTitles = preparedQuery((db: Db) => labelsWithTitlesQuery(db).prepare("namespaces_labels_by_titles"));

export async function labelsByTitles(db: Db, scope: LabelScope, titles: string[]): Promise<LabelRow[]> {
  if (titles.length === 0) return [];
  return labelsWithTitles(db, { titles, projectIds: scope.projectIds, groupIds: scope.groupIds });
}

const labelsWithIds = preparedQuery((db: Db) =>
  db.select().from(labels).where(sql`${labels.id} = ANY(${sql.placeholder("ids")}::int[])`).orderBy(asc(labels.title), asc(labels.id)).prepare("namespaces_labels_by_ids"),
);

export async function labelsByIds(db: Db, ids: number[]): Promise<LabelRow[]> {
  if (ids.length === 0) return [];
  return labelsWithIds(db, { ids });
}
