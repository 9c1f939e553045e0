import { badRequestMessage, type Config } from "@collab/core";
import type { Db, ServiceKit } from "@collab/db";
import { and, asc, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { namespaces, projects, type NamespaceRow, type ProjectRow } from "../db/schema";
import { removeGroupTree, removeProject } from "./removal";

/**
 * Adjourned (delayed) deletion of groups and projects, GitLab's Premium
 * `adjourned_deletion_for_projects_and_groups`: DELETE marks the group or project, which stays
 * readable and listed with its `marked_for_deletion_on` date; POST …/restore clears the mark; the
 * purge (a timer in the namespaces service, or `namespaces.deletions.purgeDue`) removes what was
 * marked `deletion_adjourned_period` days ago or more, exactly as an immediate DELETE would.
 * On the Free tier DELETE removes at once, as before.
 */
export const adjournedDeletionAvailable = (config: Pick<Config, "LICENSE_TIER">) => config.LICENSE_TIER !== "free";

/** The marked_for_deletion_on list filter is Premium (EE's finders ignore it otherwise). */
export const withTierFilters = <T extends { marked_for_deletion_on?: string }>(kit: ServiceKit, p: T): T =>
  adjournedDeletionAvailable(kit.config) ? p : { ...p, marked_for_deletion_on: undefined };

/** An EE-only route on the Free tier: not mounted, the catch-all 404. */
export { routeNotFound } from "@collab/core";

/** The calendar day (UTC, GitLab's default time zone) of an instant, as YYYY-MM-DD. */
export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

type Kind = "group" | "project";
const title = (kind: Kind) => (kind === "group" ? "Group" : "Project");

/** `permanently_remove=true` deletes at once only what is already marked, confirmed by its full path. */
export function assertPermanentRemoval(kind: Kind, markedOn: string | null, fullPath: string, given: string | undefined) {
  if (!markedOn) throw badRequestMessage(`${title(kind)} must be marked for deletion first.`);
  if (given !== fullPath) throw badRequestMessage(`\`full_path\` is incorrect. You must enter the complete path for the ${kind}.`);
}

const alreadyMarked = (kind: Kind) => badRequestMessage(`${title(kind)} has been already marked for deletion`);
const notMarked = (kind: Kind) => badRequestMessage(`${title(kind)} has not been marked for deletion`);

export async function markGroupForDeletion(db: Db, group: NamespaceRow, userId: number, today: string): Promise<NamespaceRow> {
  if (group.markedForDeletionOn) throw alreadyMarked("group");
  const [row] = await db
    .update(namespaces)
    .set({ markedForDeletionOn: today, deletingUserId: userId, updatedAt: new Date() })
    .where(and(eq(namespaces.id, group.id), isNull(namespaces.markedForDeletionOn)))
    .returning();
  if (!row) throw alreadyMarked("group"); // marked by a concurrent request
  return row;
}

export async function restoreGroup(db: Db, group: NamespaceRow): Promise<NamespaceRow> {
  if (!group.markedForDeletionOn) throw notMarked("group");
  const [row] = await db
    .update(namespaces)
    .set({ markedForDeletionOn: null, deletingUserId: null, updatedAt: new Date() })
    .where(and(eq(namespaces.id, group.id), isNotNull(namespaces.markedForDeletionOn)))
    .returning();
  if (!row) throw notMarked("group");
  return row;
}

export async function markProjectForDeletion(db: Db, project: ProjectRow, userId: number, today: string): Promise<ProjectRow> {
  if (project.markedForDeletionAt) throw alreadyMarked("project");
  const [row] = await db
    .update(projects)
    .set({ markedForDeletionAt: today, deletingUserId: userId, updatedAt: new Date() })
    .where(and(eq(projects.id, project.id), isNull(projects.markedForDeletionAt)))
    .returning();
  if (!row) throw alreadyMarked("project");
  return row;
}

export async function restoreProject(db: Db, project: ProjectRow): Promise<ProjectRow> {
  if (!project.markedForDeletionAt) throw notMarked("project");
  const [row] = await db
    .update(projects)
    .set({ markedForDeletionAt: null, deletingUserId: null, updatedAt: new Date() })
    .where(and(eq(projects.id, project.id), isNotNull(projects.markedForDeletionAt)))
    .returning();
  if (!row) throw notMarked("project");
  return row;
}

export interface PurgeResult {
  /** Groups removed because their own mark was due (their subgroups went with them). */
  groupIds: number[];
  /** Every project removed: those inside the removed groups and those whose own mark was due. */
  projectIds: number[];
  /** Every namespace removed: the due groups and their subgroups. */
  namespaceIds: number[];
}

/**
 * One purge pass: removes groups and projects marked on or before `now`'s day minus `periodDays`
 * (GitLab's AdjournedGroupDeletionWorker / AdjournedProjectsDeletionCronWorker). Due rows are
 * claimed with FOR UPDATE SKIP LOCKED in one transaction, so replicas ticking together never remove
 * the same row twice; groups go top-down (a due subgroup of a due group is already gone when its
 * turn comes), then the projects still due.
 */
export async function purgeDue(db: Db, now: Date, periodDays: number): Promise<PurgeResult> {
  const cutoff = utcDay(new Date(now.getTime() - periodDays * 86_400_000));
  return db.transaction(async (tx) => {
    const groupIds: number[] = [];
    const projectIds: number[] = [];
    const namespaceIds: number[] = [];
    const dueGroups = await tx
      .select({ id: namespaces.id })
      .from(namespaces)
      .where(and(eq(namespaces.kind, "group"), lte(namespaces.markedForDeletionOn, cutoff)))
      .orderBy(sql`cardinality(${namespaces.traversalIds})`, asc(namespaces.id))
      .for("update", { skipLocked: true });
    for (const g of dueGroups) {
      const removed = await removeGroupTree(tx, g.id);
      if (!removed.namespaceIds.length) continue;
      groupIds.push(g.id);
      projectIds.push(...removed.projectIds);
      namespaceIds.push(...removed.namespaceIds);
    }
    const dueProjects = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(lte(projects.markedForDeletionAt, cutoff))
      .orderBy(asc(projects.id))
      .for("update", { skipLocked: true });
    for (const p of dueProjects) {
      await removeProject(tx, p.id);
      projectIds.push(p.id);
    }
    return { groupIds, projectIds, namespaceIds };
  });
}
