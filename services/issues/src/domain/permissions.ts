import { AccessLevel, type Caller } from "@collab/core";
import { canDestroy, isAuthor, type WorkItemActor } from "@collab/work-items";
import type { IssueRow } from "../db/schema";

export { canComment, canSetTimestamps } from "@collab/work-items";

/** The caller's standing on one issue, as GitLab's IssuePolicy sees it. */
export interface IssueActor extends WorkItemActor {
  /** Whether the caller is one of the issue's assignees. */
  assigned: boolean;
}

export function canReadIssue(a: IssueActor, issue: IssueRow): boolean {
  if (!issue.confidential) return true;
  return a.role >= AccessLevel.REPORTER || isAuthor(a, issue) || a.assigned;
}

/** Title, description and state: Reporter+ (Planner+), the author or an assignee. */
export const canUpdateIssue = (a: IssueActor, issue: IssueRow) =>
  a.caller !== null && (a.role >= AccessLevel.PLANNER || isAuthor(a, issue) || a.assigned);

/** Labels, milestone, assignees, due date, confidentiality and the like. */
export const canAdminIssue = (a: IssueActor) => a.role >= AccessLevel.PLANNER;

export const canDestroyIssue = canDestroy;

/** Public and internal projects accept issues from any signed-in user; private ones from Guests up. */
export const canCreateIssue = (caller: Caller | null, role: number, visibility: string) =>
  caller !== null && (role >= AccessLevel.GUEST || visibility !== "private");

/** Internal notes are for Reporters (Planners) and above. */
export const canSeeInternalNotes = (a: IssueActor) => a.role >= AccessLevel.PLANNER;
