import type { Db } from "@collab/db";
import { sql } from "drizzle-orm";
import { removeConversation, removeProjectNotes } from "@collab/notes";
import { clearDeletedMilestones, deleteLabelLinks } from "@collab/work-items";
import { issueLabels, issues, noteTables, subscriptions } from "../db/schema";

/** A label's deletion in namespaces: every issue loses its links to these labels (see deleteLabelLinks). */
export const unlinkDeletedLabels = (db: Db, labelIds: number[]) => deleteLabelLinks(db, issueLabels, labelIds);

/** A milestone's deletion in namespaces: its issues lose it, updated by whoever deleted it (see clearDeletedMilestones). */
export const unsetDeletedMilestones = (db: Db, milestoneIds: number[], actorId: number | null) => clearDeletedMilestones(db, issues, milestoneIds, actorId);

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
