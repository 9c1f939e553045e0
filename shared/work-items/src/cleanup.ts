import type { Db } from "@collab/db";
import { sql } from "drizzle-orm";
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";

/** What follows the deletion of labels and milestones in namespaces, for issues and merge requests alike. */

/**
 * A label's deletion (GitLab's `label_links` `dependent: :delete_all`): every issue or merge
 * request loses its links to these labels, in every project, whatever their state. One DELETE on
 * the label index; repeating it removes nothing more. The items keep their updated_at, as in
 * GitLab. Answers how many links went.
 */
export async function deleteLabelLinks<T extends PgTable & { labelId: AnyPgColumn }>(db: Db, links: T, labelIds: number[]): Promise<number> {
  if (labelIds.length === 0) return 0;
  const gone = await db
    .delete(links)
    .where(sql`${links.labelId} = ANY(${sql.param(labelIds)}::int[])`)
    .returning({ labelId: links.labelId });
  return gone.length;
}

/**
 * A milestone's deletion (GitLab's Milestones::DestroyService, which updates each of its issues
 * and merge requests with `milestone_id: nil`): the items lose the milestone and are updated by
 * whoever deleted it. The removals' milestone events would go with the milestone (GitLab's foreign
 * key cascades), so none is recorded: the services remove the milestone's events (removeMilestoneEvents of @collab/notes). One UPDATE on the milestone index; repeating it
 * matches nothing. Answers how many items changed.
 */
export async function clearDeletedMilestones<T extends PgTable & { id: AnyPgColumn; milestoneId: AnyPgColumn; updatedAt: AnyPgColumn; updatedById: AnyPgColumn }>(
  db: Db,
  items: T,
  milestoneIds: number[],
  actorId: number | null,
): Promise<number> {
  if (milestoneIds.length === 0) return 0;
  const changed = await db
    .update(items)
    .set({ milestoneId: null, updatedAt: new Date(), ...(actorId !== null ? { updatedById: actorId } : {}) } as PgUpdateSetSource<T>)
    .where(sql`${items.milestoneId} = ANY(${sql.param(milestoneIds)}::int[])`)
    .returning({ id: items.id });
  return changed.length;
}
