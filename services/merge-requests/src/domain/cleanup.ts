import type { Db } from "@collab/db";
import { clearDeletedMilestones, deleteLabelLinks, removeSubscriptions } from "@collab/work-items";
import { and, eq, inArray, sql } from "drizzle-orm";
import { removeProjectApprovalData } from "../approvals/cleanup";
import { resetApprovalsOnPush } from "../approvals/on-push";
import { approvals } from "../db/approvals.schema";
import { notes, resourceStateEvents } from "../db/schema";
import { closingIssueRefs, internalIds, mergeRequestLabels, mergeRequests, noteTables, subscriptions } from "../db/schema";
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

/**
 * A push moved a branch head: the open merge requests whose source it is follow it, and lose
 * their approvals where the project resets approvals on push — one transaction. A late delivery
 * cannot move a head backwards past a newer push (only rows still at `before`, or unknown, move),
 * and one already at the new head is left as it is.
 */
export async function followPush(db: Db, p: { projectId: number; branch: string; before: string | null; after: string }): Promise<number> {
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(mergeRequests)
      .set({ sha: p.after, updatedAt: new Date() })
      .where(
        and(
          eq(mergeRequests.sourceProjectId, p.projectId),
          eq(mergeRequests.sourceBranch, p.branch),
          eq(mergeRequests.state, "opened"),
          p.before === null ? sql`TRUE` : sql`(${mergeRequests.sha} IS NULL OR ${mergeRequests.sha} = ${p.before})`,
          // Already at that head (a merge request opened on the pushed commit): nothing moves, updated_at stays.
          sql`${mergeRequests.sha} IS DISTINCT FROM ${p.after}`,
        ),
      )
      .returning({ id: mergeRequests.id, projectId: mergeRequests.projectId });
    await resetApprovalsOnPush(tx, moved.map((m) => m.id), [...new Set(moved.map((m) => m.projectId))]);
    return moved.length;
  });
}
