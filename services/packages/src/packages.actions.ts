import { implement, AccessLevel, badRequest, cursorPage, notFound, page, recordNotFound, type Ctx } from "@collab/core";
import { groupOf, projectMap, readableProjects } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { and, eq, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { Packages, GroupPackagesQuery, PackageFileRef, PackageFilesQuery, PackagePipelinesQuery, PackageRef, ProjectPackagesQuery } from "@collab/packages-contract";
import { presentGroupPackage, presentPackage, presentPackageDetail, presentPackageFile, presentPackagePipeline, presentPipelineRef, type PackageContext } from "./api/package.entity";
import { decodeCursor, encodeCursor } from "./api/packages.params";
import { packageFileBuildInfos, packageFiles, type PackageRow } from "./db/schema";
import { allows, registryAccess, type RegistryAccess } from "./domain/access";
import { markFileForDestruction, markPackageForDestruction } from "./domain/destruction";
import { loadPipelines } from "./domain/pipelines";
import { assertDeleteAllowed } from "./domain/protection";
import { findDetailedPackage, listFiles, listPackages, otherVersions, pipelineIdPage, pipelineIdsOf, tagsOf } from "./finders/packages.finder";

/** The package pipelines list's page size: GitLab's keyset paginator serves at most 20. */
const PIPELINES_PER_PAGE = 20;

/**
 * The Packages API (GitLab's lib/api/project_packages.rb, group_packages.rb, package_files.rb):
 * lists of a project's or a group's packages, one package, its files and pipelines, and deletion
 * of a package or a file (marked here, removed with its bytes by the destruction worker).
 */
export function packagesActions(kit: ServiceKit): Record<string, ActionSchema> {
  /** Tags, pipelines and links of a page of packages, in one query or call each. */
  async function contextFor(ctx: Ctx<unknown>, rows: PackageRow[], paths: (id: number) => string | undefined, canDelete: (projectId: number) => boolean): Promise<PackageContext> {
    const ids = rows.map((r) => r.id);
    const [tags, pipelineIds] = await Promise.all([tagsOf(kit.db, ids), pipelineIdsOf(kit.db, ids)]);
    const { pipelines, users } = await loadPipelines(ctx, [...pipelineIds.values()].flat());
    const refs = new Map(
      [...pipelineIds].map(([pkg, pids]) => [pkg, pids.flatMap((id) => (pipelines.has(id) ? [presentPipelineRef(pipelines.get(id)!, users)] : []))]),
    );
    return { baseUrl: kit.baseUrl, projectPath: paths, canDelete, tags, pipelines: refs };
  }

  const detailed = async (access: RegistryAccess, packageId: number) => {
    const pkg = await findDetailedPackage(kit.db, access.project.id, packageId);
    if (!pkg) throw recordNotFound();
    return pkg;
  };

  return {
    "project.list": implement(
      Packages.project.list,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "read");
        const { rows, total } = await listPackages(kit.db, [access.project.id], ctx.params);
        const c = await contextFor(ctx, rows, () => access.project.path_with_namespace, () => allows(access, "delete"));
        return page(rows.map((r) => presentPackage(r, c)), total, ctx.params);
      },
      { visibility: "published" },
    ),

    /**
     * Packages of the group's projects (and its subgroups' unless exclude_subgroups) that the
     * caller may read: public ones for anonymous callers, the projects namespaces says they see.
     */
    "group.list": implement(
      Packages.group.list,
      async (ctx) => {
        const { group } = await groupOf(ctx, ctx.params.id);
        const readable = await readableProjects(ctx, group.id);
        const levels = new Map(readable.projects.map((p) => [p.id, p.access_level]));
        // namespaces.projects.summaries takes at most 1000 ids a call.
        const ids = [...levels.keys()];
        const summaries = new Map<number, Awaited<ReturnType<typeof projectMap>> extends Map<number, infer V> ? V : never>();
        for (let i = 0; i < ids.length; i += 1000) for (const [id, p] of await projectMap(ctx, ids.slice(i, i + 1000))) summaries.set(id, p);
        const inScope = [...summaries.values()].filter((p) => !ctx.params.exclude_subgroups || p.namespace_id === group.id);
        const byPath = [...inScope].sort((a, b) => (a.path_with_namespace < b.path_with_namespace ? -1 : a.path_with_namespace > b.path_with_namespace ? 1 : 0)).map((p) => p.id);
        const { rows, total } = await listPackages(kit.db, inScope.map((p) => p.id), ctx.params, byPath);
        const c = await contextFor(
          ctx,
          rows,
          (id) => summaries.get(id)?.path_with_namespace,
          (id) => (levels.get(id) ?? 0) >= AccessLevel.MAINTAINER,
        );
        return page(rows.map((r) => presentGroupPackage(r, c)), total, ctx.params);
      },
      { visibility: "published" },
    ),

    "project.get": implement(
      Packages.project.get,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "read");
        const pkg = await detailed(access, ctx.params.package_id);
        const versions = await otherVersions(kit.db, pkg);
        const c = await contextFor(ctx, [pkg, ...versions], () => access.project.path_with_namespace, () => allows(access, "delete"));
        return presentPackageDetail(pkg, versions, c);
      },
      { visibility: "published" },
    ),

    "files.list": implement(
      Packages.files.list,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "read");
        const pkg = await detailed(access, ctx.params.package_id);
        const { rows, total } = await listFiles(kit.db, pkg.id, ctx.params);
        const infos = rows.length
          ? await kit.db.select().from(packageFileBuildInfos).where(inArray(packageFileBuildInfos.packageFileId, rows.map((r) => r.id)))
          : [];
        const { pipelines, users } = await loadPipelines(ctx, infos.map((i) => i.pipelineId));
        return page(
          rows.map((f) =>
            presentPackageFile(
              f,
              infos.filter((i) => i.packageFileId === f.id && pipelines.has(i.pipelineId)).map((i) => presentPipelineRef(pipelines.get(i.pipelineId)!, users)),
            ),
          ),
          total,
          ctx.params,
        );
      },
      { visibility: "published" },
    ),

    /** Keyset-paginated (cursor, id desc, at most 20 a page): only a Link rel="next" header. */
    "pipelines.list": implement(
      Packages.pipelines.list,
      async (ctx) => {
        const before = decodeCursor(ctx.params.cursor);
        if (Number.isNaN(before)) throw badRequest("Invalid cursor");
        const access = await registryAccess(ctx, ctx.params.id, "read");
        const pkg = await detailed(access, ctx.params.package_id);
        const limit = Math.min(ctx.params.per_page, PIPELINES_PER_PAGE);
        const { ids, more } = await pipelineIdPage(kit.db, pkg.id, before, limit);
        const { pipelines, users } = await loadPipelines(ctx, ids);
        const items = ids.flatMap((id) => (pipelines.has(id) ? [presentPackagePipeline(pipelines.get(id)!, users)] : []));
        const next = more && ids.length ? { cursor: encodeCursor(ids[ids.length - 1]), per_page: String(limit) } : null;
        return cursorPage(items, next);
      },
      { visibility: "published" },
    ),

    /** 204; the package is marked pending_destruction at once and its files go with the worker. */
    "project.delete": implement(
      Packages.project.delete,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "delete");
        const pkg = await detailed(access, ctx.params.package_id);
        await assertDeleteAllowed(kit.db, access, pkg.packageType, pkg.name);
        await markPackageForDestruction(kit.db, pkg.id);
        return null;
      },
      { visibility: "published" },
    ),

    "files.delete": implement(
      Packages.files.delete,
      async (ctx) => {
        const access = await registryAccess(ctx, ctx.params.id, "delete");
        const pkg = await findDetailedPackage(kit.db, access.project.id, ctx.params.package_id);
        if (!pkg) throw notFound();
        await assertDeleteAllowed(kit.db, access, pkg.packageType, pkg.name);
        const [file] = await kit.db
          .select({ id: packageFiles.id })
          .from(packageFiles)
          .where(and(eq(packageFiles.id, ctx.params.package_file_id), eq(packageFiles.packageId, pkg.id), eq(packageFiles.status, "default")));
        if (!file) throw notFound();
        await markFileForDestruction(kit.db, file.id);
        return null;
      },
      { visibility: "published" },
    ),
  };
}
