import type { UserRef } from "@collab/core";
import type {
  GroupPackage,
  Package,
  PackageDetail,
  PackageFile,
  PackageLinks,
  PackagePipeline,
  PackagePipelineRef,
  PackageStatus,
  PackageTag,
  ProtectionRule,
} from "@collab/packages-contract";
import type { PackageFileRow, PackageRow, ProtectionRuleRow, TagRow } from "../db/schema";
import { DETAILED_STATUSES } from "./packages.params";

function iso(d: Date | string): string;
function iso(d: Date | string | null | undefined): string | null;
function iso(d: Date | string | null | undefined) {
  return d ? new Date(d).toISOString() : null;
}

/** A pipeline as runners.pipelines.byIds answers it (PipelineBasic plus the user's id). */
export interface PipelineInfo {
  id: number;
  iid: number;
  project_id: number;
  sha: string;
  ref: string;
  status: string;
  source: string;
  created_at: string;
  updated_at: string;
  web_url: string;
  user_id: number | null;
}

/** PipelineBasic: what both pipeline presentations share. */
const pipelineBasic = (p: PipelineInfo) => ({
  id: p.id,
  iid: p.iid,
  project_id: p.project_id,
  sha: p.sha,
  ref: p.ref,
  status: p.status,
  source: p.source,
  created_at: p.created_at,
  updated_at: p.updated_at,
  web_url: p.web_url,
});

/** The pipeline reference embedded in packages: PipelineBasic with the user's name and avatar only. */
export function presentPipelineRef(p: PipelineInfo, users: Map<number, UserRef>): PackagePipelineRef {
  const user = p.user_id !== null ? users.get(p.user_id) : undefined;
  return { ...pipelineBasic(p), user: user ? { name: user.name, avatar_url: user.avatar_url } : null };
}

/** An item of GET …/packages/:package_id/pipelines: PipelineBasic with the whole user reference. */
export function presentPackagePipeline(p: PipelineInfo, users: Map<number, UserRef>): PackagePipeline {
  return { ...pipelineBasic(p), user: p.user_id !== null ? (users.get(p.user_id) ?? null) : null };
}

export const presentTag = (t: TagRow): PackageTag => ({ id: t.id, package_id: t.packageId, name: t.name, created_at: iso(t.createdAt), updated_at: iso(t.updatedAt) });

/** Everything a package's presentation needs besides the row, loaded once per page. */
export interface PackageContext {
  baseUrl: string;
  /** The project's full path, for `_links.web_path` (and `project_path` in group lists). */
  projectPath: (projectId: number) => string | undefined;
  /** Whether the requester may delete packages of that project (`_links.delete_api_path`). */
  canDelete: (projectId: number) => boolean;
  tags: Map<number, TagRow[]>;
  /** Pipeline references of each package, newest first. */
  pipelines: Map<number, PackagePipelineRef[]>;
}

/**
 * GitLab's API::Entities::Package, with `extra` (a group list's project fields) after
 * last_downloaded_at. `pipeline` is the pipeline the package was last published from; `pipelines`
 * (deprecated) lists its pipelines and is left out when it has none.
 */
function packageEntity<E extends object>(p: PackageRow, c: PackageContext, extra: E) {
  const path = c.projectPath(p.projectId);
  const links: PackageLinks = {};
  if (DETAILED_STATUSES.includes(p.status as PackageStatus) && path) links.web_path = `/${path}/-/packages/${p.id}`;
  if (c.canDelete(p.projectId)) links.delete_api_path = `${c.baseUrl}/api/v4/projects/${p.projectId}/packages/${p.id}`;
  const pipelines = c.pipelines.get(p.id) ?? [];
  return {
    id: p.id,
    name: p.name,
    version: p.version,
    package_type: p.packageType,
    status: p.status,
    _links: links,
    created_at: iso(p.createdAt),
    last_downloaded_at: iso(p.lastDownloadedAt),
    ...extra,
    tags: (c.tags.get(p.id) ?? []).map(presentTag),
    ...(pipelines.length ? { pipeline: pipelines[0], pipelines } : {}),
  };
}

/** A package of a project's list (and the head of the single package). */
export const presentPackage = (p: PackageRow, c: PackageContext): Package => packageEntity(p, c, {});

/** A package of a group's list: with its project's id and full path. */
export const presentGroupPackage = (p: PackageRow, c: PackageContext): GroupPackage => packageEntity(p, c, { project_id: p.projectId, project_path: c.projectPath(p.projectId) ?? null });

/** The single package: the list shape plus `versions` (the other versions of the name, GitLab's PackageVersion). */
export function presentPackageDetail(p: PackageRow, versions: PackageRow[], c: PackageContext): PackageDetail {
  return {
    ...presentPackage(p, c),
    versions: versions.map((v) => {
      const pipelines = c.pipelines.get(v.id) ?? [];
      return {
        id: v.id,
        version: v.version,
        created_at: iso(v.createdAt),
        tags: (c.tags.get(v.id) ?? []).map(presentTag),
        ...(pipelines.length ? { pipelines } : {}),
      };
    }),
  };
}

/** GitLab's API::Entities::PackageFile; `pipelines` (deprecated) only when the file has build info. */
export function presentPackageFile(f: PackageFileRow, pipelines: PackagePipelineRef[] = []): PackageFile {
  return {
    id: f.id,
    package_id: f.packageId,
    created_at: iso(f.createdAt),
    file_name: f.fileName,
    size: f.size,
    file_md5: f.fileMd5,
    file_sha1: f.fileSha1,
    file_sha256: f.fileSha256,
    ...(pipelines.length ? { pipelines } : {}),
  };
}

/** GitLab's Projects::Packages::Protection::Rule entity. */
export const presentRule = (r: ProtectionRuleRow): ProtectionRule => ({
  id: r.id,
  project_id: r.projectId,
  package_name_pattern: r.packageNamePattern,
  package_type: r.packageType,
  minimum_access_level_for_delete: r.minimumAccessLevelForDelete,
  minimum_access_level_for_push: r.minimumAccessLevelForPush,
});
