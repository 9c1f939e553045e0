/**
 * What the packages service's routes answer, field by field as its presenters build them
 * (src/api/package.entity.ts, src/npm.actions.ts). Timestamps are ISO strings already.
 */
import { UserRefSchema } from "@collab/accounts-contract";
import { PipelineBasicSchema } from "@collab/runners-contract";
import { z } from "zod";

const id = () => z.number().int();

/** GitLab's PipelineBasic, as runners presents it: what both pipeline presentations share. */
const pipelineBasic = PipelineBasicSchema.shape;

/** The pipeline reference embedded in packages and files: PipelineBasic with the user's name and avatar only. */
export const PackagePipelineRefSchema = z.object({
  ...pipelineBasic,
  user: z.object({ name: z.string(), avatar_url: z.string().nullable() }).nullable(),
});
export type PackagePipelineRef = z.output<typeof PackagePipelineRefSchema>;

/** An item of GET …/packages/:package_id/pipelines: PipelineBasic with the whole user reference. */
export const PackagePipelineSchema = z.object({ ...pipelineBasic, user: UserRefSchema.nullable() });
export type PackagePipeline = z.output<typeof PackagePipelineSchema>;

/** A tag of a package (npm dist-tags; GitLab's PackageTag). */
export const PackageTagSchema = z.object({ id: id(), package_id: id(), name: z.string(), created_at: z.string(), updated_at: z.string() });
export type PackageTag = z.output<typeof PackageTagSchema>;

/** `_links` of a package: each link only when it applies (web_path: a detailed status; delete_api_path: the caller may delete). */
export const PackageLinksSchema = z.object({ web_path: z.string().optional(), delete_api_path: z.string().optional() });
export type PackageLinks = z.output<typeof PackageLinksSchema>;

const packageHead = {
  id: id(),
  name: z.string(),
  version: z.string().nullable(),
  package_type: z.string(),
  status: z.string(),
  _links: PackageLinksSchema,
  created_at: z.string(),
  last_downloaded_at: z.string().nullable(),
};
const packageTail = {
  tags: z.array(PackageTagSchema),
  /** The pipeline the package was last published from; with `pipelines`, only when it has any. */
  pipeline: PackagePipelineRefSchema.optional(),
  /** Deprecated: the package's pipelines, newest first; only when it has any. */
  pipelines: z.array(PackagePipelineRefSchema).optional(),
};

/** GitLab's API::Entities::Package, as a project's list shows it. */
export const PackageSchema = z.object({ ...packageHead, ...packageTail });
export type Package = z.output<typeof PackageSchema>;

/** A package in a group's list: with its project's id and full path (null when unknown). */
export const GroupPackageSchema = z.object({ ...packageHead, project_id: id(), project_path: z.string().nullable(), ...packageTail });
export type GroupPackage = z.output<typeof GroupPackageSchema>;

/** Another version of a package's name (GitLab's PackageVersion); `pipelines` only when it has any. */
export const PackageVersionSchema = z.object({
  id: id(),
  version: z.string().nullable(),
  created_at: z.string(),
  tags: z.array(PackageTagSchema),
  pipelines: z.array(PackagePipelineRefSchema).optional(),
});

/** The single package: the list shape plus the other versions of its name. */
export const PackageDetailSchema = PackageSchema.extend({ versions: z.array(PackageVersionSchema) });
export type PackageDetail = z.output<typeof PackageDetailSchema>;

/** GitLab's API::Entities::PackageFile; `pipelines` (deprecated) only when the file has build info. */
export const PackageFileSchema = z.object({
  id: id(),
  package_id: id(),
  created_at: z.string(),
  file_name: z.string(),
  size: z.number().int(),
  file_md5: z.string().nullable(),
  file_sha1: z.string().nullable(),
  file_sha256: z.string().nullable(),
  pipelines: z.array(PackagePipelineRefSchema).optional(),
});
export type PackageFile = z.output<typeof PackageFileSchema>;

/** GitLab's Projects::Packages::Protection::Rule entity; a level is null when the rule does not restrict it. */
export const ProtectionRuleSchema = z.object({
  id: id(),
  project_id: id(),
  package_name_pattern: z.string(),
  package_type: z.string(),
  minimum_access_level_for_delete: z.string().nullable(),
  minimum_access_level_for_push: z.string().nullable(),
});
export type ProtectionRule = z.output<typeof ProtectionRuleSchema>;

/** `{"message": "…"}`, the body of a bare status answer ("201 Created", "200 OK"). */
export const MessageSchema = z.object({ message: z.string() });

/** An npm manifest's free-form object field as published (dependencies: a map; bundleDependencies may be a list). */
const manifestObject = () => z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);

/**
 * A version of the abbreviated package document `npm install` reads: the served fields of its
 * package.json that it has (free-form, as published), name, version, dist, and its dependency maps.
 */
export const NpmVersionSchema = z.object({
  deprecated: z.unknown().optional(),
  bin: z.unknown().optional(),
  directories: z.unknown().optional(),
  engines: z.unknown().optional(),
  _hasShrinkwrap: z.unknown().optional(),
  hasInstallScript: z.unknown().optional(),
  name: z.string(),
  version: z.string(),
  dist: z.object({ shasum: z.string().nullable(), tarball: z.string(), integrity: z.string().optional() }),
  dependencies: manifestObject().optional(),
  devDependencies: manifestObject().optional(),
  bundleDependencies: manifestObject().optional(),
  peerDependencies: manifestObject().optional(),
  optionalDependencies: manifestObject().optional(),
});
export type NpmVersion = z.output<typeof NpmVersionSchema>;

/** npm dist-tags: tag → version. */
export const NpmDistTagsSchema = z.record(z.string(), z.string());

/** GET …/npm/:package_name: the package document. */
export const NpmPackageDocumentSchema = z.object({ name: z.string(), versions: z.record(z.string(), NpmVersionSchema), "dist-tags": NpmDistTagsSchema });

/** What `npm publish` is answered: the package created. */
export const NpmPublishedSchema = z.object({ id: id(), name: z.string(), version: z.string().nullable(), package_type: z.string(), status: z.string(), created_at: z.string() });
