import { offsetOf } from "@collab/core";
import { preparedQuery, type Db } from "@collab/db";
import { and, asc, count, eq, getTableColumns, inArray, sql, type SQL } from "drizzle-orm";
import { epicIssues, epics, issues, type EpicIssueRow, type EpicRow } from "../db/schema";
import { linkColumns, readableIssueConditions, type IssueScope, type IssueWithLinks } from "../finders/issues.finder";

/** An issue of an epic with its association: the association's id and place in the epic. */
export type IssueInEpic = IssueWithLinks & { epicIssueId: number; epicIssuePosition: number | null };

/**
 * One page of the epic's issues the caller may read (`scope`), in the epic's order (relative
 * position, the oldest association first among equals), with the number matching.
 */
export async function findEpicIssues(db: Db, epicId: number, scope: IssueScope, page: { page: number; per_page: number }): Promise<{ rows: IssueInEpic[]; total: number }> {
  const where = and(eq(epicIssues.epicId, epicId), ...readableIssueConditions(scope));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ ...getTableColumns(issues), ...linkColumns, epicIssueId: epicIssues.id, epicIssuePosition: epicIssues.relativePosition })
      .from(epicIssues)
      .innerJoin(issues, eq(issues.id, epicIssues.issueId))
      .where(where)
      .orderBy(sql`${epicIssues.relativePosition} ASC NULLS LAST`, asc(epicIssues.id))
      .limit(page.per_page)
      .offset(offsetOf(page)),
    db.select({ total: count() }).from(epicIssues).innerJoin(issues, eq(issues.id, epicIssues.issueId)).where(where),
  ]);
  return { rows, total };
}

/** The association with this id, only when it belongs to `epicId` (a nested id is looked up inside its parent). */
export async function findEpicIssue(db: Db, epicId: number, linkId: number): Promise<EpicIssueRow | undefined> {
  const [row] = await db.select().from(epicIssues).where(and(eq(epicIssues.id, linkId), eq(epicIssues.epicId, epicId)));
  return row;
}

/** The association of an issue and its epic, if it has one. */
export async function findIssueEpic(db: Db, issueId: number): Promise<{ link: EpicIssueRow; epic: EpicRow } | undefined> {
  const [row] = await db.select({ link: epicIssues, epic: epics }).from(epicIssues).innerJoin(epics, eq(epics.id, epicIssues.epicId)).where(eq(epicIssues.issueId, issueId));
  return row;
}

/** The page's epics: prepared once per database, as every issue list of Premium and up runs it. */
const epicsOfPage = preparedQuery((db: Db) =>
  db
    .select({ issueId: epicIssues.issueId, epic: epics })
    .from(epicIssues)
    .innerJoin(epics, eq(epics.id, epicIssues.epicId))
    .where(sql`${epicIssues.issueId} = ANY(${sql.placeholder("ids")}::int[])`)
    .prepare("issues_epics_of_page"),
);

/** The epics of a page of issues, by issue id: one query whatever the page holds. */
export async function epicsOfIssues(db: Db, issueIds: number[]): Promise<Map<number, EpicRow>> {
  if (issueIds.length === 0) return new Map();
  const rows = await epicsOfPage(db, { ids: issueIds });
  return new Map(rows.map((r) => [r.issueId, r.epic]));
}

/** The epic matching `where` (an id, or an iid) among the groups given: an issue's project's group and those above it. */
export async function epicInGroups(db: Db, where: SQL, groupIds: number[]): Promise<EpicRow | undefined> {
  if (groupIds.length === 0) return undefined;
  const [row] = await db.select().from(epics).where(and(where, inArray(epics.groupId, groupIds)));
  return row;
}
