import type { Db } from "@collab/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import { packageFiles, packages, protectionRules } from "../db/schema";
import { removeFiles } from "../storage/storage";

/** Packages (or files) one worker pass removes at most, each in its own transaction. */
const BATCH = 20;

/**
 * One pass of the destruction worker (GitLab's Packages::CleanupPackageRegistryWorker): packages
 * marked pending_destruction go with their files and bytes, then lone files marked so. Rows are
 * claimed with FOR UPDATE SKIP LOCKED, so replicas never work on the same one. Answers how many
 * packages and files went.
 */
export async function destroyPending(db: Db): Promise<{ packages: number; files: number }> {
  let removedPackages = 0;
  let removedFiles = 0;
  for (let i = 0; i < BATCH; i++) {
    const done = await db.transaction(async (tx) => {
      const [pkg] = await tx
        .select({ id: packages.id })
        .from(packages)
        .where(eq(packages.status, "pending_destruction"))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!pkg) return false;
      const files = await tx.select({ id: packageFiles.id }).from(packageFiles).where(eq(packageFiles.packageId, pkg.id));
      removedFiles += await removeFiles(tx as unknown as Db, files.map((f) => f.id));
      await tx.delete(packages).where(eq(packages.id, pkg.id));
      removedPackages += 1;
      return true;
    });
    if (!done) break;
  }
  for (let i = 0; i < BATCH; i++) {
    const done = await db.transaction(async (tx) => {
      const [file] = await tx
        .select({ id: packageFiles.id })
        .from(packageFiles)
        .where(eq(packageFiles.status, "pending_destruction"))
        .limit(1)
        .for("update", { skipLocked: true });
      if (!file) return false;
      removedFiles += await removeFiles(tx as unknown as Db, [file.id]);
      return true;
    });
    if (!done) break;
  }
  return { packages: removedPackages, files: removedFiles };
}

/** Marks a package for destruction (DELETE …/packages/:package_id answers before the bytes go). */
export async function markPackageForDestruction(db: Db, packageId: number) {
  await db.update(packages).set({ status: "pending_destruction", updatedAt: new Date() }).where(eq(packages.id, packageId));
}

export async function markFileForDestruction(db: Db, fileId: number) {
  await db.update(packageFiles).set({ status: "pending_destruction", updatedAt: new Date() }).where(eq(packageFiles.id, fileId));
}

/** A deleted project's packages go to the worker; its protection rules go at once (consumer's transaction). */
export async function removeProjectData(tx: Db, projectId: number): Promise<number> {
  const marked = await tx
    .update(packages)
    .set({ status: "pending_destruction", updatedAt: new Date() })
    .where(and(eq(packages.projectId, projectId), sql`${packages.status} <> 'pending_destruction'`))
    .returning({ id: packages.id });
  await tx.delete(protectionRules).where(eq(protectionRules.projectId, projectId));
  return marked.length;
}

export const pendingCounts = async (db: Db) => {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(packages).where(inArray(packages.status, ["pending_destruction"]));
  return row?.n ?? 0;
};
