import { preparedQuery, type Db } from "@collab/db";
import { alias } from "drizzle-orm/pg-core";
import { and, asc, eq, getTableColumns, inArray, or, sql } from "drizzle-orm";
import { issueLinks, issues, type IssueLinkRow, type IssueRow } from "../db/schema";
import { linkColumns, type IssueWithLinks } from "../finders/issues.finder";

/** A linked issue with its links, and the link as seen from the issue it was asked for. */
export type LinkedIssue = IssueWithLinks & { issueLinkId: number; linkType: string; linkCreatedAt: Date; linkUpdatedAt: Date };

/** The type of a stored link seen from its target: the reverse of `blocks` is `is_blocked_by`. */
export const linkTypeFrom = (link: Pick<IssueLinkRow, "sourceId" | "linkType">, issueId: number) =>
  link.sourceId === issueId || link.linkType !== "blocks" ? link.linkType : "is_blocked_by";

const linked = preparedQuery((db: Db) =>
  db
    .select({
      ...getTableColumns(issues),
      ...linkColumns,
      issueLinkId: issueLinks.id,
      linkSourceId: issueLinks.sourceId,
      storedLinkType: issueLinks.linkType,
      linkCreatedAt: issueLinks.createdAt,
      linkUpdatedAt: issueLinks.updatedAt,
    })
    .from(issueLinks)
    .innerJoin(
      issues,
      sql`${issues.id} = CASE WHEN ${issueLinks.sourceId} = ${sql.placeholder("issueId")} THEN ${issueLinks.targetId} ELSE ${issueLinks.sourceId} END`,
    )
    .where(or(eq(issueLinks.sourceId, sql.placeholder("issueId")), eq(issueLinks.targetId, sql.placeholder("issueId"))))
    .orderBy(asc(issueLinks.createdAt), asc(issueLinks.id))
    .prepare("issues_linked_issues"),
);

/** Every issue linked to `issueId`, oldest link first, with its labels and assignees, each link seen from `issueId`: one statement. */
export async function findLinkedIssues(db: Db, issueId: number): Promise<LinkedIssue[]> {
  const rows = await linked(db, { issueId });
  return rows.map(({ linkSourceId, storedLinkType, ...row }) => ({ ...row, linkType: linkTypeFrom({ sourceId: linkSourceId, linkType: storedLinkType }, issueId) }));
}

const source = alias(issues, "source");
const target = alias(issues, "target");

const linkOf = preparedQuery((db: Db) =>
  db
    .select({ link: getTableColumns(issueLinks), source: getTableColumns(source), target: getTableColumns(target) })
    .from(issueLinks)
    .innerJoin(source, eq(source.id, issueLinks.sourceId))
    .innerJoin(target, eq(target.id, issueLinks.targetId))
    .where(
      and(
        eq(issueLinks.id, sql.placeholder("linkId")),
        or(eq(issueLinks.sourceId, sql.placeholder("issueId")), eq(issueLinks.targetId, sql.placeholder("issueId"))),
      ),
    )
    .prepare("issues_issue_link_of"),
);

/** A link of `issueId` by its id, with both issues (GitLab's for_source_or_target(issue).find). */
export async function findLinkOf(db: Db, issueId: number, linkId: number): Promise<{ link: IssueLinkRow; source: IssueRow; target: IssueRow } | undefined> {
  const [row] = await linkOf(db, { issueId, linkId });
  return row;
}

/** The link between two issues, in either direction (GitLab's for_items). */
export async function findLinkBetween(db: Db, a: number, b: number): Promise<IssueLinkRow | undefined> {
  const [row] = await db
    .select()
    .from(issueLinks)
    .where(or(and(eq(issueLinks.sourceId, a), eq(issueLinks.targetId, b)), and(eq(issueLinks.sourceId, b), eq(issueLinks.targetId, a))));
  return row;
}

/** How many links each of these issues has (GitLab's linked_items_count): their links, counted here. */
export async function linkCounts(db: Db, ids: number[]): Promise<Map<number, number>> {
  const rows = await db
    .select({ sourceId: issueLinks.sourceId, targetId: issueLinks.targetId })
    .from(issueLinks)
    .where(or(inArray(issueLinks.sourceId, ids), inArray(issueLinks.targetId, ids)));
  const out = new Map(ids.map((id) => [id, 0]));
  for (const r of rows) for (const id of new Set([r.sourceId, r.targetId])) if (out.has(id)) out.set(id, out.get(id)! + 1);
  return out;
}
