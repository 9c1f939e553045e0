import type { Db } from "@collab/db";
import { clearDeletedMilestones, deleteLabelLinks, removeSubscriptions } from "@collab/work-items";
import type { MergeRequestGitState } from "@collab/repositories-contract";
import { and, eq, inArray, or } from "drizzle-orm";
import { gitStateColumns } from "../merge-requests/branches";
import { recordStateEvent } from "./activity";
import { removeProjectApprovalData } from "../approvals/cleanup";
import { resetApprovalsOnPush } from "../approvals/on-push";
import { approvals } from "../db/approvals.schema";
import { notes, resourceStateEvents } from "../db/schema";
import { closingIssueRefs, internalIds, mergeRequestLabels, mergeRequests, noteTables, subscriptions, type MergeRequestRow } from "../db/schema";
import { forgetDeletedLabels, removeMilestoneEvents, removeResourceEvents } from "@collab/notes";

/** A label's deletion in namespaces: every merge request loses its links to these labels (see deleteLabelLinks). */
export async function unlinkDeletedLabels(db: Db, labelIds: number[]): Promise<number> {
  // Their label events stay, without the label.
  await forgetDeletedLabels(db, noteTables, labelIds);
  return deleteLabelLinks(db, mergeRequestLabels, labelIds);
}

/** A milestone's deletion in namespaces: its merge requests lose it, updated by whoever deleted it (see clearDeletedMilestones). */
export async function unsetDeletedMilestones(db: Db, milestoneIds: number[], actorId: number | null): Promise<number> {
  // The milestones' events go with them, as GitLab's foreign key cascades (see removeMilestoneEvents).
  await removeMilestoneEvents(db, noteTables, milestoneIds);
  return clearDeletedMilestones(db, mergeRequests, milestoneIds, actorId);
}

/**
 * A project's removal: its merge requests with their links (cascades), notes, state, label and milestone events,
 * approvals, iid sequence, and the closing references other merge requests held to its issues.
 */
export async function removeProjectData(db: Db, projectId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(mergeRequests).where(eq(mergeRequests.projectId, projectId)).returning({ id: mergeRequests.id });
    const ids = gone.map((r) => r.id);
    if (ids.length) {
      await tx.delete(resourceStateEvents).where(inArray(resourceStateEvents.mergeRequestId, ids));
      await removeResourceEvents(tx, noteTables, "MergeRequest", ids);
      await tx.delete(approvals).where(inArray(approvals.mergeRequestId, ids));
      await removeSubscriptions(tx, subscriptions, "MergeRequest", ids);
    }
    await tx.delete(notes).where(eq(notes.projectId, projectId));
    await tx.delete(internalIds).where(eq(internalIds.projectId, projectId));
    await tx.delete(closingIssueRefs).where(eq(closingIssueRefs.issueProjectId, projectId));
    await removeProjectApprovalData(tx, projectId);
    return ids.length;
  });
}

/** What a push refresh reads of an open merge request. */
export type PushedMergeRequest = Pick<MergeRequestRow, "id" | "iid" | "projectId" | "sourceBranch" | "targetBranch" | "sha" | "baseSha">;

/** The open merge requests of a project whose source or target is the pushed branch. */
export async function mergeRequestsOnBranch(db: Db, projectId: number, branch: string): Promise<PushedMergeRequest[]> {
  return db
    .select({ id: mergeRequests.id, iid: mergeRequests.iid, projectId: mergeRequests.projectId, sourceBranch: mergeRequests.sourceBranch, targetBranch: mergeRequests.targetBranch, sha: mergeRequests.sha, baseSha: mergeRequests.baseSha })
    .from(mergeRequests)
    .where(and(eq(mergeRequests.projectId, projectId), eq(mergeRequests.state, "opened"), or(eq(mergeRequests.sourceBranch, branch), eq(mergeRequests.targetBranch, branch))));
}

/**
 * A push moved `branch` (GitLab's MergeRequests::RefreshService), with the git state of each
 * open merge request on it read after the push, in one transaction: each row takes its new state
 * (sha, diff refs, changes_count, merge status); those whose source head moved lose their
 * approvals where the project resets approvals on push; those whose source head the push brought
 * into their target (merged outside the merge request) become merged. The state is read from git,
 * not from the event: a late or repeated delivery writes the same values and resets nothing twice.
 */
export async function refreshAfterPush(
  db: Db,
  p: { projectId: number; branch: string; after: string; userId: number },
  rows: PushedMergeRequest[],
  states: MergeRequestGitState[],
): Promise<{ moved: number[]; merged: number[] }> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const moved: number[] = [];
    const merged: number[] = [];
    for (const [i, mr] of rows.entries()) {
      const state = states[i];
      const columns = gitStateColumns(state);
      const headMoved = state.source_sha !== null && state.source_sha !== mr.sha;
      // Merged by a push to the target: its head (unchanged) is now in the target and was not before.
      const mergedByPush = mr.targetBranch === p.branch && !headMoved && state.source_merged && mr.baseSha !== mr.sha;
      if (mergedByPush) {
        await tx
          .update(mergeRequests)
          .set({ ...columns, state: "merged", mergedAt: now, mergeCommitSha: p.after, updatedAt: now })
          .where(and(eq(mergeRequests.id, mr.id), eq(mergeRequests.state, "opened")));
        await recordStateEvent(tx, mr.id, p.userId, "merged", now);
        merged.push(mr.id);
        continue;
      }
      await tx
        .update(mergeRequests)
        .set({ ...columns, ...(headMoved ? { updatedAt: now } : {}) })
        .where(eq(mergeRequests.id, mr.id));
      if (headMoved) moved.push(mr.id);
    }
    await resetApprovalsOnPush(tx, moved, moved.length ? [p.projectId] : []);
    return { moved, merged };
  });
}
