import { gBool, gEnum, gId, gString, paginationParams } from "@collab/core";
import { z } from "zod";

/** Package formats (GitLab's Packages::Package.package_types), as the list filters name them. */
export const PACKAGE_TYPES = ["composer", "conan", "generic", "golang", "helm", "maven", "npm", "nuget", "pypi", "terraform_module"] as const;
/** The group list accepts every type but terraform_module (spec: Packages table). */
export const GROUP_PACKAGE_TYPES = PACKAGE_TYPES.filter((t) => t !== "terraform_module") as unknown as readonly [string, ...string[]];
export const PACKAGE_STATUSES = ["default", "hidden", "processing", "error", "pending_destruction", "deprecated"] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];
/** Listed when no status is asked for. */
export const DEFAULT_LIST_STATUSES: readonly PackageStatus[] = ["default", "deprecated", "error"];
/** What GET /projects/:id/packages/:package_id shows (GitLab's DETAILED_INFO_STATUSES); others are 404. */
export const DETAILED_STATUSES: readonly PackageStatus[] = ["default", "deprecated"];
/** What can be installed or downloaded (GitLab's INSTALLABLE_STATUSES). */
export const INSTALLABLE_STATUSES: readonly PackageStatus[] = ["default", "hidden", "deprecated"];

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

/** A cursor as GitLab's keyset paginator writes it: base64 of {"id": N, "_kd": "n"}; a bad one is 400. */
export function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64").toString("utf8")) as { id?: unknown };
    const id = Number(parsed.id);
    if (Number.isInteger(id) && id > 0 && id <= 2_147_483_647) return id;
  } catch {
    /* below */
  }
  return Number.NaN;
}

export const encodeCursor = (id: number) => Buffer.from(JSON.stringify({ id: String(id), _kd: "n" })).toString("base64");
