import { AccessLevel } from "@collab/core";
import { canDestroy, isAuthor, type WorkItemActor } from "@collab/work-items";
import type { MergeRequestRow } from "../db/schema";

export { canComment, canSetTimestamps } from "@collab/work-items";

/** The caller's standing on a project's merge requests, as GitLab's MergeRequestPolicy sees it. */
export type MergeRequestActor = WorkItemActor;

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

export const canDestroyMergeRequest = canDestroy;

/** Internal notes are for Reporters and above. */
export const canSeeInternalNotes = (a: MergeRequestActor) => a.role >= AccessLevel.REPORTER;
