import type { Db } from "@collab/db";
import { and, desc, eq, inArray, ne } from "drizzle-orm";
import { npmMetadata, packageBuildInfos, packageFileBuildInfos, packages, packageTags, type PackageRow } from "../db/schema";

/**
 * The package a generic upload goes into: the project's generic package of that name and version
 * (not being destroyed), created when missing. A `status` given with the upload is applied to it,
 * as GitLab's Packages::Generic::FindOrCreatePackageService does.
 */
export async function findOrCreateGenericPackage(tx: Db, p: { projectId: number; name: string; version: string; status?: "default" | "hidden"; creatorId: number | null }): Promise<PackageRow> {
  const [existing] = await tx
    .select()
    .from(packages)
    .where(and(eq(packages.projectId, p.projectId), eq(packages.packageType, "generic"), eq(packages.name, p.name), eq(packages.version, p.version), ne(packages.status, "pending_destruction")))
    .orderBy(desc(packages.id))
    .limit(1)
    .for("update");
  if (existing) {
    if (p.status && p.status !== existing.status) {
      const [updated] = await tx.update(packages).set({ status: p.status, updatedAt: new Date() }).where(eq(packages.id, existing.id)).returning();
      return updated;
    }
    return existing;
  }
  const [created] = await tx
    .insert(packages)
    .values({ projectId: p.projectId, name: p.name, version: p.version, packageType: "generic", status: p.status ?? "default", creatorId: p.creatorId })
    .returning();
  return created;
}

/** Links the package (and the file) to the pipeline of the job that published it. */
export async function recordBuildInfo(tx: Db, packageId: number, fileId: number, pipelineId: number | null) {
  if (pipelineId === null) return;
  await tx.insert(packageBuildInfos).values({ packageId, pipelineId }).onConflictDoNothing();
  await tx.insert(packageFileBuildInfos).values({ packageFileId: fileId, pipelineId });
}

/** Whether the project already has this npm version (one being destroyed does not count). */
export async function npmVersionExists(db: Db, projectId: number, name: string, version: string): Promise<boolean> {
  const rows = await db
    .select({ id: packages.id })
    .from(packages)
    .where(and(eq(packages.projectId, projectId), eq(packages.packageType, "npm"), eq(packages.name, name), eq(packages.version, version), ne(packages.status, "pending_destruction")))
    .limit(1);
  return rows.length > 0;
}

export async function createNpmPackage(tx: Db, p: { projectId: number; name: string; version: string; creatorId: number | null; packageJson: Record<string, unknown> }): Promise<PackageRow> {
  const [created] = await tx.insert(packages).values({ projectId: p.projectId, name: p.name, version: p.version, packageType: "npm", creatorId: p.creatorId }).returning();
  await tx.insert(npmMetadata).values({ packageId: created.id, packageJson: p.packageJson });
  return created;
}

/**
 * Points the dist-tag at this package: a tag names one version of a package name in a project, so
 * the tag leaves whichever version of the name held it (GitLab's Packages::Npm::CreateTagService).
 */
export async function setTag(tx: Db, pkg: PackageRow, tag: string) {
  const sameName = tx
    .select({ id: packages.id })
    .from(packages)
    .where(and(eq(packages.projectId, pkg.projectId), eq(packages.packageType, pkg.packageType), eq(packages.name, pkg.name)));
  const held = await tx.select().from(packageTags).where(and(eq(packageTags.name, tag), inArray(packageTags.packageId, sameName)));
  const own = held.find((t) => t.packageId === pkg.id);
  const others = held.filter((t) => t.packageId !== pkg.id).map((t) => t.id);
  if (others.length) await tx.delete(packageTags).where(inArray(packageTags.id, others));
  if (own) await tx.update(packageTags).set({ updatedAt: new Date() }).where(eq(packageTags.id, own.id));
  else await tx.insert(packageTags).values({ packageId: pkg.id, projectId: pkg.projectId, name: tag });
}
