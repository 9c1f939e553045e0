import { AccessLevel, type Caller } from "@collab/core";
import type { IssueRow } from "../db/schema";

/** The caller's standing on one issue, as GitLab's IssuePolicy sees it. */
export interface IssueActor {
  caller: Caller | null;
  /** Effective role on the project (60 for administrators, 0 for non-members). */
  role: number;
  /** Whether the caller is one of the issue's assignees. */
  assigned: boolean;
}

const isAuthor = (a: IssueActor, issue: IssueRow) => a.caller !== null && a.caller.id === issue.authorId;

export function canReadIssue(a: IssueActor, issue: IssueRow): boolean {
  if (!issue.confidential) return true;
  return a.role >= AccessLevel.REPORTER || isAuthor(a, issue) || a.assigned;
}

/** Title, description and state: Reporter+ (Planner+), the author or an assignee. */
export const canUpdateIssue = (a: IssueActor, issue: IssueRow) =>
  a.caller !== null && (a.role >= AccessLevel.PLANNER || isAuthor(a, issue) || a.assigned);

/** Labels, milestone, assignees, due date, confidentiality and the like. */
export const canAdminIssue = (a: IssueActor) => a.role >= AccessLevel.PLANNER;

export const canDestroyIssue = (a: IssueActor) => a.role >= AccessLevel.OWNER;

/** created_at, iid and updated_at may be set by administrators and project owners only. */
export const canSetTimestamps = (a: IssueActor) => a.role >= AccessLevel.OWNER;

/** Public and internal projects accept issues from any signed-in user; private ones from Guests up. */
export const canCreateIssue = (caller: Caller | null, role: number, visibility: string) =>
  caller !== null && (role >= AccessLevel.GUEST || visibility !== "private");

/** A locked discussion accepts comments from project members only. */
export const canComment = (a: IssueActor, issue: IssueRow) =>
  a.caller !== null && (issue.discussionLocked !== true || a.role >= AccessLevel.GUEST);

/** Internal notes are for Reporters (Planners) and above. */
export const canSeeInternalNotes = (a: IssueActor) => a.role >= AccessLevel.PLANNER;
