import { AccessLevel, type Caller } from "@collab/core";
import type { MergeRequestRow } from "../db/schema";

/** The caller's standing on a project's merge requests, as GitLab's MergeRequestPolicy sees it. */
export interface MergeRequestActor {
  caller: Caller | null;
  /** Effective role on the project (60 for administrators, 0 for non-members). */
  role: number;
}

const isAuthor = (a: MergeRequestActor, mr: Pick<MergeRequestRow, "authorId">) => a.caller !== null && a.caller.id === mr.authorId;

/**
 * Merge requests are readable by everyone who sees a public or internal project whose merge
 * request feature is enabled; otherwise (private project, or feature limited to members) from
 * Reporter up: Guests never see the merge requests of a private project.
 */
export function canReadMergeRequests(project: { visibility: string; merge_requests_access_level: string }, role: number): boolean {
  const feature = project.merge_requests_access_level;
  if (feature === "disabled") return false;
  if (project.visibility === "private" || feature === "private") return role >= AccessLevel.REPORTER;
  return true;
}

/** Opening a merge request needs push access to the source branch: Developer up. */
export const canCreateMergeRequest = (a: MergeRequestActor) => a.caller !== null && a.role >= AccessLevel.DEVELOPER;

/** Title, description, state and the like: the author or Developer up. */
export const canUpdateMergeRequest = (a: MergeRequestActor, mr: MergeRequestRow) => a.caller !== null && (a.role >= AccessLevel.DEVELOPER || isAuthor(a, mr));

/** Labels, assignees, reviewers, milestone and the discussion lock: Developer up. */
export const canAdminMergeRequest = (a: MergeRequestActor) => a.role >= AccessLevel.DEVELOPER;

export const canDestroyMergeRequest = (a: MergeRequestActor) => a.role >= AccessLevel.OWNER;

/** A locked discussion accepts comments from project members only. */
export const canComment = (a: MergeRequestActor, mr: Pick<MergeRequestRow, "discussionLocked">) =>
  a.caller !== null && (mr.discussionLocked !== true || a.role >= AccessLevel.GUEST);

/** Internal notes are for Reporters and above. */
export const canSeeInternalNotes = (a: MergeRequestActor) => a.role >= AccessLevel.REPORTER;

/** created_at on notes: administrators and project owners only. */
export const canSetTimestamps = (a: MergeRequestActor) => a.role >= AccessLevel.OWNER;
