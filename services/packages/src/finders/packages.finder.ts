import type { Db } from "@collab/db";
import { and, asc, desc, eq, ilike, inArray, isNotNull, ne, sql, type SQL } from "drizzle-orm";
import { packageBuildInfos, packageFiles, packages, packageTags, type PackageFileRow, type PackageRow, type TagRow } from "../db/schema";
import type { ListFilters } from "@collab/packages-contract";
import { DEFAULT_LIST_STATUSES, DETAILED_STATUSES, INSTALLABLE_STATUSES } from "../api/packages.params";

/** `%` and `_` stand for themselves in a fuzzy name search (GitLab sanitizes the LIKE pattern). */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * GitLab's PackagesFinder / GroupPackagesFinder, one filter per step, over the given projects:
 * versionless packages only with include_versionless, type, fuzzy name, exact version, and the
 * status asked for (else default, deprecated and error).
 */
export function packageFilters(projectIds: number[], f: ListFilters): SQL[] {
  const where: SQL[] = [inArray(packages.projectId, projectIds.length ? projectIds : [-1])];
  if (!f.include_versionless || f.package_version !== undefined) where.push(isNotNull(packages.version));
  if (f.package_type) where.push(eq(packages.packageType, f.package_type));
  if (f.package_name) where.push(ilike(packages.name, `%${likeEscape(f.package_name)}%`));
  if (f.package_version !== undefined) where.push(eq(packages.version, f.package_version));
  where.push(f.status ? eq(packages.status, f.status) : inArray(packages.status, [...DEFAULT_LIST_STATUSES]));
  return where;
}

/** ORDER BY of a list: the column asked for, then id in the same direction. project_path follows `projectOrder`. */
export function packageOrder(f: ListFilters, projectOrder?: number[]): SQL[] {
  const dir = f.sort === "desc" ? desc : asc;
  const byId = dir(packages.id);
  switch (f.order_by) {
    case "name":
      return [dir(packages.name), byId];
    case "version":
      return [dir(packages.version), byId];
    case "type":
      return [dir(packages.packageType), byId];
    case "project_path":
      return [dir(sql`array_position(${sql.param(projectOrder ?? [])}::int[], ${packages.projectId})`), byId];
    default:
      return [dir(packages.createdAt), byId];
  }
}

export async function listPackages(db: Db, projectIds: number[], f: ListFilters, projectOrder?: number[]): Promise<{ rows: PackageRow[]; total: number }> {
  const where = and(...packageFilters(projectIds, f));
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(packages)
      .where(where)
      .orderBy(...packageOrder(f, projectOrder))
      .limit(f.per_page)
      .offset((f.page - 1) * f.per_page),
    db.select({ n: sql<number>`count(*)::int` }).from(packages).where(where),
  ]);
  return { rows, total: count?.n ?? 0 };
}

/** A package of the project the API shows (default or deprecated), or undefined. */
export async function findDetailedPackage(db: Db, projectId: number, packageId: number): Promise<PackageRow | undefined> {
  const [row] = await db
    .select()
    .from(packages)
    .where(and(eq(packages.id, packageId), eq(packages.projectId, projectId), inArray(packages.status, [...DETAILED_STATUSES])));
  return row;
}

/** The other versions of a package's name and type in its project (GitLab's Package#versions), by version. */
export async function otherVersions(db: Db, p: PackageRow): Promise<PackageRow[]> {
  return db
    .select()
    .from(packages)
    .where(
      and(
        eq(packages.projectId, p.projectId),
        eq(packages.name, p.name),
        eq(packages.packageType, p.packageType),
        ne(packages.id, p.id),
        isNotNull(packages.version),
        inArray(packages.status, [...DETAILED_STATUSES]),
      ),
    )
    .orderBy(asc(packages.version), asc(packages.id));
}

export async function tagsOf(db: Db, packageIds: number[]): Promise<Map<number, TagRow[]>> {
  const out = new Map<number, TagRow[]>();
  if (!packageIds.length) return out;
  const rows = await db.select().from(packageTags).where(inArray(packageTags.packageId, packageIds)).orderBy(asc(packageTags.id));
  for (const r of rows) out.set(r.packageId, [...(out.get(r.packageId) ?? []), r]);
  return out;
}

/** Pipeline ids of each package, newest first. */
export async function pipelineIdsOf(db: Db, packageIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!packageIds.length) return out;
  const rows = await db.select().from(packageBuildInfos).where(inArray(packageBuildInfos.packageId, packageIds)).orderBy(desc(packageBuildInfos.pipelineId));
  for (const r of rows) out.set(r.packageId, [...(out.get(r.packageId) ?? []), r.pipelineId]);
  return out;
}

/** One keyset page of a package's pipeline ids, id desc, below `before` when given; one extra tells whether more follow. */
export async function pipelineIdPage(db: Db, packageId: number, before: number | undefined, limit: number): Promise<{ ids: number[]; more: boolean }> {
  const where = [eq(packageBuildInfos.packageId, packageId)];
  if (before !== undefined) where.push(sql`${packageBuildInfos.pipelineId} < ${before}`);
  const rows = await db
    .select({ id: packageBuildInfos.pipelineId })
    .from(packageBuildInfos)
    .where(and(...where))
    .orderBy(desc(packageBuildInfos.pipelineId))
    .limit(limit + 1);
  return { ids: rows.slice(0, limit).map((r) => r.id), more: rows.length > limit };
}

const fileOrderColumns = { id: packageFiles.id, file_name: packageFiles.fileName, created_at: packageFiles.createdAt } as const;

/** A package's installable files (not pending destruction), ordered as asked, a page of them. */
export async function listFiles(db: Db, packageId: number, q: { order_by: keyof typeof fileOrderColumns; sort: "asc" | "desc"; page: number; per_page: number }): Promise<{ rows: PackageFileRow[]; total: number }> {
  const dir = q.sort === "desc" ? desc : asc;
  const where = and(eq(packageFiles.packageId, packageId), eq(packageFiles.status, "default"));
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(packageFiles)
      .where(where)
      .orderBy(dir(fileOrderColumns[q.order_by]), dir(packageFiles.id))
      .limit(q.per_page)
      .offset((q.page - 1) * q.per_page),
    db.select({ n: sql<number>`count(*)::int` }).from(packageFiles).where(where),
  ]);
  return { rows, total: count?.n ?? 0 };
}

/** The newest installable file of that name in an installable package of the project. */
export async function findInstallableFile(db: Db, where: { projectId: number; packageType: string; name: string; version?: string | null; fileName: string }): Promise<{ pkg: PackageRow; file: PackageFileRow } | undefined> {
  const conditions = [
    eq(packages.projectId, where.projectId),
    eq(packages.packageType, where.packageType),
    eq(packages.name, where.name),
    inArray(packages.status, [...INSTALLABLE_STATUSES]),
    eq(packageFiles.fileName, where.fileName),
    eq(packageFiles.status, "default"),
  ];
  if (where.version !== undefined) conditions.push(where.version === null ? sql`${packages.version} IS NULL` : eq(packages.version, where.version));
  const [row] = await db
    .select({ pkg: packages, file: packageFiles })
    .from(packageFiles)
    .innerJoin(packages, eq(packages.id, packageFiles.packageId))
    .where(and(...conditions))
    .orderBy(desc(packageFiles.id))
    .limit(1);
  return row;
}
