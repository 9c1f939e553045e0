import type { Db } from "@collab/db";
import { eq } from "drizzle-orm";
import { approvalProjectRules, approvalProjectSettings } from "../db/schema";

/**
 * A deleted project's approval settings and project rules (their users, groups and branches
 * cascade), inside the caller's transaction. Merge-request rules and approvals go with the merge
 * requests themselves. Idempotent.
 */
export async function removeProjectApprovalData(tx: Db, projectId: number): Promise<number> {
  const rules = await tx.delete(approvalProjectRules).where(eq(approvalProjectRules.projectId, projectId)).returning({ id: approvalProjectRules.id });
  await tx.delete(approvalProjectSettings).where(eq(approvalProjectSettings.projectId, projectId));
  return rules.length;
}
