import { pickFields } from "@collab/core";
import { on, type Db, type Subscription } from "@collab/db";
import { Repositories, ZERO_SHA } from "@collab/repositories-contract";
import { and, eq, isNull, or, sql } from "drizzle-orm";
import { projects } from "../db/schema";

/** A project whose repository facts a branch push may still change: empty, or without a default branch. */
const stillChanging = (projectId: number) => and(eq(projects.id, projectId), or(eq(projects.emptyRepo, true), isNull(projects.defaultBranch)));

/**
 * A project's repository facts follow its pushes (durable event, applied once): the first branch
 * pushed makes the repository non-empty and, when the project had no default branch, becomes it
 * (GitLab's first push). A removed branch changes neither. Later pushes find nothing to change
 * and are done without a transaction (`wanted`).
 */
export async function followBranchPush(p: { projectId: number; branch: string; after: string }, tx: Db): Promise<number> {
  if (p.after === ZERO_SHA) return 0;
  const changed = await tx
    .update(projects)
    .set({ emptyRepo: false, defaultBranch: sql`coalesce(${projects.defaultBranch}, ${p.branch})` })
    .where(stillChanging(p.projectId))
    .returning({ id: projects.id });
  return changed.length;
}

export const repositoriesSubscriptions = (): Subscription[] => [
  on(Repositories.events.branchPushed, pickFields("projectId", "branch", "after"), followBranchPush, async (p, db) => {
    if (p.after === ZERO_SHA) return false;
    const [row] = await db.select({ id: projects.id }).from(projects).where(stillChanging(p.projectId));
    return row !== undefined;
  }),
];
