import { announce, type PayloadOf } from "@collab/core";
import type { Announcement } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { sql, type SQL } from "drizzle-orm";
import { issues, type IssueRow } from "../db/schema";

/** What every issue event carries (Issues.events): the issue, and who acted. */
export type IssuePayload = PayloadOf<typeof Issues.events.issueClosed>;

/**
 * The issue's side of the payload: each field and the row property it is. The one definition of
 * the payload, read by both builders: issuePayload (from a row, in JS) and issuePayloadSql (from a
 * row being inserted, in the statement that creates an issue with its `opened` event).
 */
const FIELDS = { id: "id", iid: "iid", project_id: "projectId", title: "title", confidential: "confidential" } as const satisfies {
  [K in Exclude<keyof IssuePayload, "actor_id">]: keyof IssueRow & keyof typeof issues;
};

type IssueFacts = Pick<IssueRow, (typeof FIELDS)[keyof typeof FIELDS]>;

/** The payload of an issue's events from its row, `actorId` having acted. */
export function issuePayload(issue: IssueFacts, actorId: number): IssuePayload {
  const payload: Record<string, unknown> = { actor_id: actorId };
  for (const [field, prop] of Object.entries(FIELDS)) payload[field] = issue[prop];
  return payload as IssuePayload;
}

/** The same payload in SQL: from the columns of `row` (a CTE of inserted issues), `actorId` an int expression. Field names are constants (FIELDS). */
export function issuePayloadSql(row: string, actorId: SQL): SQL {
  const fields = Object.entries(FIELDS).map(([field, prop]) => sql`${sql.raw(`'${field}'`)}, ${sql.identifier(row)}.${sql.identifier(issues[prop].name)}`);
  return sql`jsonb_build_object(${sql.join(fields, sql`, `)}, 'actor_id', ${actorId})`;
}

type PlainIssueEvent = typeof Issues.events.issueOpened | typeof Issues.events.issueClosed | typeof Issues.events.issueReopened | typeof Issues.events.issueDeleted;

/** An issue event whose payload is the issue's alone. */
export const issueEvent = (event: PlainIssueEvent, issue: IssueFacts, actorId: number): Announcement => announce(event, issuePayload(issue, actorId));

/** An issue's fields an edit may change, by hook attribute name: their differences are its hook's `changes`. */
export const issueHookSnapshot = (i: IssueRow, labelIds: number[], assigneeIds: number[]) => ({
  title: i.title,
  description: i.description,
  confidential: i.confidential,
  discussion_locked: i.discussionLocked,
  due_date: i.dueDate,
  milestone_id: i.milestoneId,
  weight: i.weight,
  health_status: i.healthStatus,
  time_estimate: i.timeEstimate,
  label_ids: labelIds,
  assignee_ids: assigneeIds,
  updated_at: i.updatedAt,
  updated_by_id: i.updatedById,
});

/**
 * What the activity service makes to-dos of in an issue's `updated` event: the assignees added,
 * and the description with the one it replaced, when they changed.
 */
export function todoFacts(before: { issue: IssueRow; assigneeIds: number[] }, after: IssueRow, changes: string[], assigneeIds: number[] | undefined) {
  return {
    ...(changes.includes("assignees") && assigneeIds ? { assignee_ids: [...new Set(assigneeIds)].filter((id) => !before.assigneeIds.includes(id)) } : {}),
    ...(changes.includes("description") ? { description: after.description, previous_description: before.issue.description } : {}),
  };
}
