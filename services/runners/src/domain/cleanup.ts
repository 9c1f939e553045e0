import type { Db } from "@collab/db";
import { sql } from "drizzle-orm";
import { removeProjectVulnerabilities } from "../vulnerabilities/store";
import { internalIds, pipelineSchedules, pipelines, protectedEnvironmentEntries, protectedEnvironments, registrationTokens, runnerProjects, runners } from "../db/schema";

/**
 * What follows a project's deletion in the namespaces service: its pipelines (with their jobs and
 * job artifacts), vulnerabilities,
 * schedules (with their variables), registration token and iid sequences go, the project leaves
 * every runner's project list, and project runners left with no project are deleted, as GitLab's
 * Projects::DestroyService does. One transaction; repeating it removes nothing more.
 * Answers how many rows went.
 */
export async function removeProjectData(db: Db, projectId: number): Promise<number> {
  return db.transaction(async (tx) => {
    let count = 0;
    count += (await tx.delete(pipelines).where(sql`${pipelines.projectId} = ${projectId}`).returning({ id: pipelines.id })).length;
    count += await removeProjectVulnerabilities(tx, projectId);
    count += (await tx.delete(pipelineSchedules).where(sql`${pipelineSchedules.projectId} = ${projectId}`).returning({ id: pipelineSchedules.id })).length;
    await tx.delete(registrationTokens).where(sql`${registrationTokens.scope} = 'project' AND ${registrationTokens.scopeId} = ${projectId}`);
    await tx.delete(internalIds).where(sql`${internalIds.projectId} = ${projectId}`);
    const unlinked = await tx.delete(runnerProjects).where(sql`${runnerProjects.projectId} = ${projectId}`).returning({ runnerId: runnerProjects.runnerId });
    if (unlinked.length) {
      const ids = unlinked.map((r) => r.runnerId);
      const orphans = await tx
        .delete(runners)
        .where(
          sql`${runners.id} = ANY(${sql.param(ids)}::int[]) AND ${runners.runnerType} = 'project_type'
              AND NOT EXISTS (SELECT 1 FROM ${runnerProjects} WHERE ${runnerProjects.runnerId} = ${runners.id})`,
        )
        .returning({ id: runners.id });
      count += orphans.length;
    }
    return count;
  });
}

/**
 * What follows a group's deletion (the group and its subgroups; their projects each had their own
 * event): the groups' runners, registration tokens and protected environments go, and deploy
 * access or approval entries granted to those groups elsewhere are removed.
 */
export async function removeGroupData(db: Db, groupIds: number[]): Promise<number> {
  if (groupIds.length === 0) return 0;
  const ids = sql.param(groupIds);
  return db.transaction(async (tx) => {
    let count = 0;
    count += (await tx.delete(runners).where(sql`${runners.runnerType} = 'group_type' AND ${runners.groupId} = ANY(${ids}::int[])`).returning({ id: runners.id })).length;
    await tx.delete(registrationTokens).where(sql`${registrationTokens.scope} = 'group' AND ${registrationTokens.scopeId} = ANY(${ids}::int[])`);
    count += (await tx.delete(protectedEnvironments).where(sql`${protectedEnvironments.groupId} = ANY(${ids}::int[])`).returning({ id: protectedEnvironments.id })).length;
    await tx.delete(protectedEnvironmentEntries).where(sql`${protectedEnvironmentEntries.groupId} = ANY(${ids}::int[])`);
    return count;
  });
}
