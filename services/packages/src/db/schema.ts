import { bytea, eventTables } from "@collab/db";
import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgSchema, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const packagesSchema = pgSchema("packages");

/** Durable domain events: this service consumes project deletions (processed_events); its outbox stays empty. */
export const { outbox, processedEvents } = eventTables(packagesSchema);

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * A package of a project: one name and version of one format (GitLab's packages_packages).
 * status: default | hidden | processing | error | pending_destruction | deprecated. A package
 * marked pending_destruction is gone for the API; the destruction worker removes it, its files and
 * their bytes later.
 */
export const packages = packagesSchema.table(
  "packages",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").notNull(),
    name: text("name").notNull(),
    version: text("version"),
    packageType: text("package_type").notNull(),
    status: text("status").notNull().default("default"),
    creatorId: integer("creator_id"),
    lastDownloadedAt: ts("last_downloaded_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("packages_project_type_name_idx").on(t.projectId, t.packageType, t.name, t.version),
    index("packages_pending_destruction_idx").on(t.id).where(sql`${t.status} = 'pending_destruction'`),
  ],
);

/**
 * A file of a package. Its bytes live in file_chunks, written while the upload streams in; size
 * and digests are computed on the way. status: default | pending_destruction.
 */
export const packageFiles = packagesSchema.table(
  "package_files",
  {
    id: serial("id").primaryKey(),
    packageId: integer("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    size: bigint("size", { mode: "number" }).notNull().default(0),
    fileMd5: text("file_md5"),
    fileSha1: text("file_sha1"),
    fileSha256: text("file_sha256"),
    status: text("status").notNull().default("default"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("package_files_package_idx").on(t.packageId, t.fileName),
    index("package_files_pending_destruction_idx").on(t.id).where(sql`${t.status} = 'pending_destruction'`),
  ],
);

/** The bytes of a file, in order: ~256 KiB a row, so that no read or write holds a whole file. */
export const fileChunks = packagesSchema.table(
  "file_chunks",
  {
    fileId: integer("file_id")
      .notNull()
      .references(() => packageFiles.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    data: bytea("data").notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

/** npm dist-tags (GitLab's packages_tags): a tag names one package (version) of a name in a project. */
export const packageTags = packagesSchema.table(
  "package_tags",
  {
    id: serial("id").primaryKey(),
    packageId: integer("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    projectId: integer("project_id").notNull(),
    name: text("name").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("package_tags_package_idx").on(t.packageId), index("package_tags_project_name_idx").on(t.projectId, t.name)],
);

/** The package.json of an npm version, as published (GitLab's packages_npm_metadata). */
export const npmMetadata = packagesSchema.table("npm_metadata", {
  packageId: integer("package_id")
    .primaryKey()
    .references(() => packages.id, { onDelete: "cascade" }),
  packageJson: jsonb("package_json").$type<Record<string, unknown>>().notNull(),
});

/** Pipelines a package was published from (a job token's pipeline): GitLab's packages_build_infos. */
export const packageBuildInfos = packagesSchema.table(
  "package_build_infos",
  {
    id: serial("id").primaryKey(),
    packageId: integer("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    pipelineId: integer("pipeline_id").notNull(),
  },
  (t) => [uniqueIndex("package_build_infos_package_pipeline_idx").on(t.packageId, t.pipelineId)],
);

/** The pipeline a file was uploaded from (GitLab's packages_package_file_build_infos). */
export const packageFileBuildInfos = packagesSchema.table(
  "package_file_build_infos",
  {
    id: serial("id").primaryKey(),
    packageFileId: integer("package_file_id")
      .notNull()
      .references(() => packageFiles.id, { onDelete: "cascade" }),
    pipelineId: integer("pipeline_id").notNull(),
  },
  (t) => [index("package_file_build_infos_file_idx").on(t.packageFileId)],
);

/**
 * A package protection rule of a project: packages of the type whose name matches the pattern
 * (`*` wildcards, case-insensitive) can be pushed only from the push level up and deleted only
 * from the delete level up (maintainer, owner, admin; null: not restricted).
 */
export const protectionRules = packagesSchema.table(
  "protection_rules",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").notNull(),
    packageNamePattern: text("package_name_pattern").notNull(),
    packageType: text("package_type").notNull(),
    minimumAccessLevelForPush: text("minimum_access_level_for_push"),
    minimumAccessLevelForDelete: text("minimum_access_level_for_delete"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("protection_rules_project_type_pattern_idx").on(t.projectId, t.packageType, t.packageNamePattern)],
);

export type PackageRow = typeof packages.$inferSelect;
export type PackageFileRow = typeof packageFiles.$inferSelect;
export type ProtectionRuleRow = typeof protectionRules.$inferSelect;
export type TagRow = typeof packageTags.$inferSelect;
