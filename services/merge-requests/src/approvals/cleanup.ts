import { handleEvent, type Db, type ServiceKit } from "@collab/db";
import type { Ctx } from "@collab/core";
import { eq } from "drizzle-orm";
import type { ServiceSchema } from "moleculer";
import { z } from "zod";
import { approvalProjectRules, approvalProjectSettings } from "../db/schema";

/**
 * A deleted project's approval settings and project rules (their users, groups and branches
 * cascade). Merge-request rules and approvals go with the merge requests themselves. Idempotent.
 */
export async function removeProjectApprovalData(db: Db, projectId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const rules = await tx.delete(approvalProjectRules).where(eq(approvalProjectRules.projectId, projectId)).returning({ id: approvalProjectRules.id });
    await tx.delete(approvalProjectSettings).where(eq(approvalProjectSettings.projectId, projectId));
    return rules.length;
  });
}

const ProjectDeleted = z.object({ projectId: z.number().int().positive() });

/**
 * MERGE-POINT(events): the merge requests core handles namespaces.project.deleted for its own
 * tables; at merge, call removeProjectApprovalData from that one handler and drop this one.
 */
export const approvalNamespacesEvents = (kit: ServiceKit): NonNullable<ServiceSchema["events"]> => ({
  async "namespaces.project.deleted"(ctx: Ctx<unknown>) {
    await handleEvent(kit, ctx, ProjectDeleted, (p) => removeProjectApprovalData(kit.db, p.projectId));
  },
});
