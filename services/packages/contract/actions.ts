/** Actions of the packages service: its routes' and those other services call (see index.ts). */
import { actionContract, cursorPageOf, fileOf, noContent, pageOf, replyOf } from "@collab/core";
import { z } from "zod";
import {
  GroupPackageSchema,
  MessageSchema,
  NpmDistTagsSchema,
  NpmPackageDocumentSchema,
  NpmPublishedSchema,
  PackageDetailSchema,
  PackageFileSchema,
  PackagePipelineSchema,
  PackageSchema,
  ProtectionRuleSchema,
} from "./entities";
import { GenericFileRef, GenericUpload, NpmPackageRef, NpmPublish, NpmTagRef, NpmTagSet, NpmTarballRef } from "./params/formats";
import { GroupPackagesQuery, PackageFileRef, PackageFilesQuery, PackagePipelinesQuery, PackageRef, ProjectPackagesQuery } from "./params/packages";
import { CreateRule, ProjectRuleListParams, RuleRef, UpdateRule } from "./params/protection";

export const PackagesActions = {
  project: {
    /** GET /projects/:id/packages. */
    list: actionContract("packages.project.list", { input: () => ProjectPackagesQuery, output: () => pageOf(PackageSchema), idempotent: true }),
    /** GET /projects/:id/packages/:package_id: the package with its other versions. */
    get: actionContract("packages.project.get", { input: () => PackageRef, output: () => PackageDetailSchema, idempotent: true }),
    /** DELETE /projects/:id/packages/:package_id: 204, the package marked for the destruction worker. */
    delete: actionContract("packages.project.delete", { input: () => PackageRef, output: () => noContent() }),
  },
  group: {
    /** GET /groups/:id/packages: packages of the group's projects the caller may read. */
    list: actionContract("packages.group.list", { input: () => GroupPackagesQuery, output: () => pageOf(GroupPackageSchema), idempotent: true }),
  },
  files: {
    /** GET /projects/:id/packages/:package_id/package_files. */
    list: actionContract("packages.files.list", { input: () => PackageFilesQuery, output: () => pageOf(PackageFileSchema), idempotent: true }),
    /** DELETE /projects/:id/packages/:package_id/package_files/:package_file_id: 204. */
    delete: actionContract("packages.files.delete", { input: () => PackageFileRef, output: () => noContent() }),
  },
  pipelines: {
    /** GET /projects/:id/packages/:package_id/pipelines: keyset pages (only a Link rel="next" header). */
    list: actionContract("packages.pipelines.list", { input: () => PackagePipelinesQuery, output: () => cursorPageOf(PackagePipelineSchema), idempotent: true }),
  },
  protection: {
    /** GET /projects/:id/packages/protection/rules. */
    list: actionContract("packages.protection.list", { input: () => ProjectRuleListParams, output: () => z.array(ProtectionRuleSchema), idempotent: true }),
    /** POST /projects/:id/packages/protection/rules. */
    create: actionContract("packages.protection.create", { input: () => CreateRule, output: () => ProtectionRuleSchema }),
    /** PATCH /projects/:id/packages/protection/rules/:package_protection_rule_id. */
    update: actionContract("packages.protection.update", { input: () => UpdateRule, output: () => ProtectionRuleSchema }),
    /** DELETE /projects/:id/packages/protection/rules/:package_protection_rule_id: 204. */
    delete: actionContract("packages.protection.delete", { input: () => RuleRef, output: () => noContent() }),
  },
  generic: {
    /** PUT …/generic/:package_name/:package_version/*file_name: 201 `{"message":"201 Created"}`, or the file record with select=package_file. */
    upload: actionContract("packages.generic.upload", { input: () => GenericUpload, output: () => z.union([PackageFileSchema, replyOf(MessageSchema, 201)]) }),
    /** GET …/generic/:package_name/:package_version/*file_name: the file's bytes. */
    download: actionContract("packages.generic.download", { input: () => GenericFileRef, output: () => fileOf(), idempotent: true }),
  },
  npm: {
    /** PUT …/npm/:package_name: `npm publish` answers the package; `npm deprecate` 200 `{"message":"200 OK"}`. */
    publish: actionContract("packages.npm.publish", { input: () => NpmPublish, output: () => z.union([NpmPublishedSchema, replyOf(MessageSchema, 200)]) }),
    /** GET …/npm/:package_name: the package document `npm install` reads. */
    metadata: actionContract("packages.npm.metadata", { input: () => NpmPackageRef, output: () => NpmPackageDocumentSchema, idempotent: true }),
    /** GET …/npm/*package_name/-/*file_name: a tarball's bytes. */
    tarball: actionContract("packages.npm.tarball", { input: () => NpmTarballRef, output: () => fileOf(), idempotent: true }),
    distTags: {
      /** GET …/npm/-/package/:package_name/dist-tags: tag → version. */
      list: actionContract("packages.npm.distTags.list", { input: () => NpmPackageRef, output: () => NpmDistTagsSchema, idempotent: true }),
      /** PUT …/dist-tags/:tag (the version as the body): 204. */
      set: actionContract("packages.npm.distTags.set", { input: () => NpmTagSet, output: () => noContent() }),
      /** DELETE …/dist-tags/:tag: 204. */
      remove: actionContract("packages.npm.distTags.remove", { input: () => NpmTagRef, output: () => noContent() }),
    },
  },
  destruction: {
    /** Bus only: one pass of the destruction worker now (tests tick deterministically): the packages and files it removed. */
    tick: actionContract("packages.destruction.tick", {
      input: () => z.object({}),
      output: () => z.object({ packages: z.number().int(), files: z.number().int() }),
    }),
  },
};
