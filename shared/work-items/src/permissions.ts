import { AccessLevel, type Caller } from "@collab/core";

/** What GitLab's IssuePolicy and MergeRequestPolicy have in common. */

/** The caller's standing on a project's issues or merge requests. */
export interface WorkItemActor {
  caller: Caller | null;
  /** Effective role on the project (60 for administrators, 0 for non-members). */
  role: number;
}

/** Whether the caller wrote the issue or merge request. */
export const isAuthor = (a: WorkItemActor, item: { authorId: number }) => a.caller !== null && a.caller.id === item.authorId;

/** A locked discussion accepts comments from project members only. */
export const canComment = (a: WorkItemActor, item: { discussionLocked: boolean | null }) =>
  a.caller !== null && (item.discussionLocked !== true || a.role >= AccessLevel.GUEST);

/** Deleting an issue or merge request: Owners (administrators too). */
export const canDestroy = (a: WorkItemActor) => a.role >= AccessLevel.OWNER;

/** Setting timestamps (created_at, and an issue's iid and updated_at): administrators and project owners only. */
export const canSetTimestamps = (a: WorkItemActor) => a.role >= AccessLevel.OWNER;
