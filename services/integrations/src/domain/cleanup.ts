import type { Db } from "@collab/db";
import { eq, inArray } from "drizzle-orm";
import { integrationDeliveries, integrations, webHooks } from "../db/schema";

/**
 * A deleted project's integrations and webhooks go, with their deliveries and logs (cascade), and so do the deliveries a
 * group integration queued for it. Runs in the consumer's transaction; answers how many rows went.
 */
export async function removeProjectData(tx: Db, projectId: number): Promise<number> {
  const deliveries = await tx.delete(integrationDeliveries).where(eq(integrationDeliveries.projectId, projectId)).returning({ id: integrationDeliveries.id });
  const rows = await tx.delete(integrations).where(eq(integrations.projectId, projectId)).returning({ id: integrations.id });
  const hooks = await tx.delete(webHooks).where(eq(webHooks.projectId, projectId)).returning({ id: webHooks.id });
  return deliveries.length + rows.length + hooks.length;
}

/** Deleted groups' (and subgroups') integrations and webhooks go, their deliveries with them. */
export async function removeGroupData(db: Db, groupIds: number[]): Promise<number> {
  if (!groupIds.length) return 0;
  const rows = await db.delete(integrations).where(inArray(integrations.groupId, groupIds)).returning({ id: integrations.id });
  const hooks = await db.delete(webHooks).where(inArray(webHooks.groupId, groupIds)).returning({ id: webHooks.id });
  return rows.length + hooks.length;
}
