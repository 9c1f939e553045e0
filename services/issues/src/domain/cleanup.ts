import type { Db } from "@collab/db";
import { sql } from "drizzle-orm";
import { forgetDeletedLabels, removeConversation, removeMilestoneEvents, removeProjectNotes } from "@collab/notes";
import { clearDeletedMilestones, deleteLabelLinks } from "@collab/work-items";
import { epicLabels, epics, groupInternalIds, issueLabels, issues, noteTables, subscriptions } from "../db/schema";

/** A label's deletion in namespaces: every issue and epic loses its links to these labels (see deleteLabelLinks); their label events stay, without the label. */
export async function unlinkDeletedLabels(db: Db, labelIds: number[]) {
  await deleteLabelLinks(db, issueLabels, labelIds);
  await deleteLabelLinks(db, epicLabels, labelIds);
  await forgetDeletedLabels(db, noteTables, labelIds);
}

/** A milestone's deletion in namespaces: its issues lose it, updated by whoever deleted it (see clearDeletedMilestones). */
export async function unsetDeletedMilestones(db: Db, milestoneIds: number[], actorId: number | null): Promise<number> {
  // The milestones' events go with them, as GitLab's foreign key cascades (see removeMilestoneEvents).
  await removeMilestoneEvents(db, noteTables, milestoneIds);
  return clearDeletedMilestones(db, issues, milestoneIds, actorId);
}

/**
 * What follows a project's deletion in the namespaces service (GitLab's Projects::DestroyService
 * removing the project's issues and notes): its issues with their assignees, label links and
 * epic associations (cascades), subscriptions, state events, every note in the project and its iid sequences, in
 * one transaction. Repeating it removes nothing more. Answers how many issues went.
 */
export async function removeProjectData(db: Db, projectId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(issues).where(sql`${issues.projectId} = ${projectId}`).returning({ id: issues.id });
    const ids = gone.map((r) => r.id);
    if (ids.length) {
      await removeConversation(tx, noteTables, "Issue", ids);
      await tx.delete(subscriptions).where(sql`${subscriptions.subscribableType} = 'Issue' AND ${subscriptions.subscribableId} = ANY(${sql.param(ids)}::int[])`);
    }
    await removeProjectNotes(tx, noteTables, projectId);
    return ids.length;
  });
}

/**
 * What follows the deletion of groups in namespaces (their descendants listed too): their epics
 * with their label links and issue associations (cascades), notes, state events, subscriptions and iid sequences. Repeating it removes nothing
 * more. Answers how many epics went.
 */
export async function removeGroupData(db: Db, groupIds: number[]): Promise<number> {
  if (groupIds.length === 0) return 0;
  return db.transaction(async (tx) => {
    const gone = await tx.delete(epics).where(sql`${epics.groupId} = ANY(${sql.param(groupIds)}::int[])`).returning({ id: epics.id });
    const ids = gone.map((r) => r.id);
    if (ids.length) await tx.delete(subscriptions).where(sql`${subscriptions.subscribableType} = 'Epic' AND ${subscriptions.subscribableId} = ANY(${sql.param(ids)}::int[])`);
    await removeConversation(tx, noteTables, "Epic", ids);
    await tx.delete(groupInternalIds).where(sql`${groupInternalIds.projectId} = ANY(${sql.param(groupIds)}::int[])`);
    return ids.length;
  });
}
