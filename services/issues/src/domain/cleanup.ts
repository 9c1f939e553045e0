import type { Db } from "@collab/db";
import { sql } from "drizzle-orm";
import { removeConversation, removeProjectNotes } from "@collab/notes";
import { issueLabels, issues, noteTables, subscriptions } from "../db/schema";

/**
 * What follows a label's deletion in the namespaces service (GitLab's `label_links`
 * `dependent: :delete_all`): every issue loses its links to these labels, in every project,
 * whatever their state. One DELETE on the label index; repeating it removes nothing more.
 * The issues keep their updated_at, as in GitLab. Answers how many links went.
 */
export async function unlinkDeletedLabels(db: Db, labelIds: number[]): Promise<number> {
  if (labelIds.length === 0) return 0;
  const gone = await db
    .delete(issueLabels)
    .where(sql`${issueLabels.labelId} = ANY(${sql.param(labelIds)}::int[])`)
    .returning({ issueId: issueLabels.issueId });
  return gone.length;
}

/**
 * What follows a milestone's deletion (GitLab's Milestones::DestroyService, which runs
 * Issues::UpdateService with `milestone_id: nil` on each of its issues): the issues lose the
 * milestone and are updated by whoever deleted it. This service records no resource milestone
 * events (nor system notes for milestone changes), so there is nothing more to write. One UPDATE
 * on the milestone index; repeating it matches nothing. Answers how many issues changed.
 */
export async function unsetDeletedMilestones(db: Db, milestoneIds: number[], actorId: number | null): Promise<number> {
  if (milestoneIds.length === 0) return 0;
  const changed = await db
    .update(issues)
    .set({ milestoneId: null, updatedAt: new Date(), ...(actorId !== null ? { updatedById: actorId } : {}) })
    .where(sql`${issues.milestoneId} = ANY(${sql.param(milestoneIds)}::int[])`)
    .returning({ id: issues.id });
  return changed.length;
}

/**
 * What follows a project's deletion in the namespaces service (GitLab's Projects::DestroyService
 * removing the project's issues and notes): its issues with their assignees and label links
 * (cascades), subscriptions, state events, every note in the project and its iid sequences, in
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
