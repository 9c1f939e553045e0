import { ApiError } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, eq, gt, lt, desc, ne, sql } from "drizzle-orm";
import { issues, type IssueRow } from "../db/schema";

const GAP = 1024;
const unprocessable = () => new ApiError(422, { message: { error: "Unprocessable Entity" } }, "UNPROCESSABLE");

/** Spreads a project's positions evenly (keeping their order) when two neighbours leave no room. */
async function rebalance(db: Db, projectId: number) {
  await db.execute(sql`
    UPDATE issues.issues i SET relative_position = r.pos FROM (
      SELECT id, (row_number() OVER (ORDER BY relative_position NULLS LAST, id)) * ${GAP} AS pos
      FROM issues.issues WHERE project_id = ${projectId}) r
    WHERE i.id = r.id`);
}

/**
 * Places an issue after `move_after_id` and/or before `move_before_id` (global ids of issues in the
 * same project) in relative_position order.
 */
export async function reorderIssue(db: Db, issue: IssueRow, afterId?: number, beforeId?: number): Promise<IssueRow> {
  return db.transaction(async (tx) => {
    const load = async (id?: number) => {
      if (id === undefined) return undefined;
      const [row] = await tx.select().from(issues).where(and(eq(issues.id, id), eq(issues.projectId, issue.projectId)));
      return row;
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      const [after, before] = await Promise.all([load(afterId), load(beforeId)]);
      if (!after && !before) throw unprocessable();
      let low: number | null;
      let high: number | null;
      if (after && before) {
        low = after.relativePosition;
        high = before.relativePosition;
      } else if (after) {
        low = after.relativePosition;
        const [next] = await tx
          .select({ p: issues.relativePosition })
          .from(issues)
          .where(and(eq(issues.projectId, issue.projectId), ne(issues.id, issue.id), gt(issues.relativePosition, low ?? 0)))
          .orderBy(asc(issues.relativePosition))
          .limit(1);
        high = next?.p ?? (low ?? 0) + 2 * GAP;
      } else {
        high = before!.relativePosition;
        const [prev] = await tx
          .select({ p: issues.relativePosition })
          .from(issues)
          .where(and(eq(issues.projectId, issue.projectId), ne(issues.id, issue.id), lt(issues.relativePosition, high ?? 0)))
          .orderBy(desc(issues.relativePosition))
          .limit(1);
        low = prev?.p ?? (high ?? 0) - 2 * GAP;
      }
      if (low !== null && high !== null && Math.abs(high - low) >= 2) {
        const [row] = await tx.update(issues).set({ relativePosition: Math.floor((low + high) / 2) }).where(eq(issues.id, issue.id)).returning();
        return row;
      }
      await rebalance(tx, issue.projectId);
    }
    throw unprocessable();
  });
}
