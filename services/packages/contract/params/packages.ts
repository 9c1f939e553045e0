import { gBool, gEnum, gId, gString, paginationParams } from "@collab/core";
import { z } from "zod";

/** Package formats (GitLab's Packages::Package.package_types), as the list filters name them. */
export const PACKAGE_TYPES = ["composer", "conan", "generic", "golang", "helm", "maven", "npm", "nuget", "pypi", "terraform_module"] as const;
/** The group list accepts every type but terraform_module (spec: Packages table). */
export const GROUP_PACKAGE_TYPES = PACKAGE_TYPES.filter((t) => t !== "terraform_module") as unknown as readonly [string, ...string[]];
export const PACKAGE_STATUSES = ["default", "hidden", "processing", "error", "pending_destruction", "deprecated"] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

const projectRef = z.union([z.string(), z.number()]);

const listFilters = {
  ...paginationParams,
  sort: gEnum(["asc", "desc"] as const).default("asc"),
  package_name: gString().optional(),
  package_version: gString().optional(),
  include_versionless: gBool().optional(),
  status: gEnum(PACKAGE_STATUSES).optional(),
};

export const ProjectPackagesQuery = z.object({
  id: projectRef,
  ...listFilters,
  order_by: gEnum(["created_at", "name", "version", "type"] as const).default("created_at"),
  package_type: gEnum(PACKAGE_TYPES).optional(),
});

export const GroupPackagesQuery = z.object({
  id: projectRef,
  ...listFilters,
  exclude_subgroups: gBool().default(false),
  order_by: gEnum(["created_at", "name", "version", "type", "project_path"] as const).default("created_at"),
  package_type: gEnum(GROUP_PACKAGE_TYPES).optional(),
});

export type ListFilters = z.output<typeof ProjectPackagesQuery> | z.output<typeof GroupPackagesQuery>;

export const PackageRef = z.object({ id: projectRef, package_id: gId() });

export const PackageFilesQuery = PackageRef.extend({
  ...paginationParams,
  order_by: gEnum(["id", "file_name", "created_at"] as const).default("id"),
  sort: gEnum(["asc", "desc"] as const).default("asc"),
});

export const PackageFileRef = PackageRef.extend({ package_file_id: gId() });

/** Keyset: `cursor` is the id the next page starts below (opaque to clients: they follow Link). */
export const PackagePipelinesQuery = PackageRef.extend({
  per_page: paginationParams.per_page,
  cursor: gString().optional(),
});
