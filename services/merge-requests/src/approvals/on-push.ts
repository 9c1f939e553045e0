import type { Db } from "@collab/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import { approvalProjectSettings, approvals, mergeRequests } from "../db/schema";

/**
 * Called by the merge requests core inside its transaction when the source branch head of these
 * merge requests moved: removes their approvals where the project resets approvals on push
 * (GitLab's default, also when the project never saved settings). Returns the ids reset.
 */
export async function resetApprovalsOnPush(tx: Db, mergeRequestIds: number[], projectIds: number[]): Promise<number[]> {
  if (!mergeRequestIds.length || !projectIds.length) return [];
  const kept = await tx
    .select({ projectId: approvalProjectSettings.projectId })
    .from(approvalProjectSettings)
    .where(and(inArray(approvalProjectSettings.projectId, projectIds), eq(approvalProjectSettings.resetApprovalsOnPush, false)));
  const resetting = projectIds.filter((p) => !kept.some((k) => k.projectId === p));
  if (!resetting.length) return [];
  const deleted = await tx
    .delete(approvals)
    .where(
      and(
        inArray(approvals.mergeRequestId, mergeRequestIds),
        sql`${approvals.mergeRequestId} IN (SELECT ${mergeRequests.id} FROM ${mergeRequests} WHERE ${inArray(mergeRequests.projectId, resetting)})`,
      ),
    )
    .returning({ mergeRequestId: approvals.mergeRequestId });
  return [...new Set(deleted.map((d) => d.mergeRequestId))].sort((a, b) => a - b);
}
