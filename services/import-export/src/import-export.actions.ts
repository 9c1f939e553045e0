import { call, AccessLevel, accepted, ApiError, assertCanCreateTopLevelGroup, currentSettings, fileResponse, forbidden, recordNotFound, requireCaller, visibilityLevel, VISIBILITIES, type Ctx, type Visibility, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { ImportExport } from "@collab/import-export-contract";
import type { ActionSchema } from "moleculer";
import { findArchive, recordImport, requestExport } from "./domain/jobs";
import { tick } from "./domain/worker";
import { Namespaces } from "@collab/namespaces-contract";

/** The group as the caller sees it (404 "Group Not Found" when hidden, as the group API answers). */
const groupAccess = (ctx: Ctx<unknown>, ref: string | number) => call(ctx, Namespaces.access.group, { group: ref });

/** Export and download: Owners of the group (administrators too); other members get 403. */
async function ownedGroup(ctx: Ctx<unknown>, ref: string) {
  requireCaller(ctx);
  const access = await groupAccess(ctx, ref);
  if (access.role < AccessLevel.OWNER) throw forbidden();
  return access.group;
}

export const tooLarge = () => new ApiError(413, { message: "413 Request Entity Too Large" }, "PAYLOAD_TOO_LARGE");

/** Grape's (project) import validate_file!: the upload must be a .gz archive. */
export const notAnArchive = () => new ApiError(422, { message: { error: "You need to upload a GitLab project export archive (ending in .gz)." } }, "UNPROCESSABLE");

/**
 * Gitlab::VisibilityLevel.closest_allowed_level of the parent's level: the most open level up to it
 * that restricted_visibility_levels leaves to this caller (administrators: all), else private.
 */
export function closestAllowedVisibility(max: Visibility, admin: boolean): Visibility {
  const restricted = admin ? [] : (currentSettings().restricted_visibility_levels as string[]);
  return [...VISIBILITIES].reverse().find((v) => visibilityLevel(v) <= visibilityLevel(max) && !restricted.includes(v)) ?? "private";
}

/** subgroup_creation_level as the role it asks for (namespaces' assertCanCreateIn, before the file is looked at). */
const subgroupRole = (level: string) => (level === "owner" ? AccessLevel.OWNER : AccessLevel.MAINTAINER);

export const importExportActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** POST /groups/:id/export: queues the caller's export; 202. */
  "groups.export": implement(
    ImportExport.groups.export,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const group = await ownedGroup(ctx, ctx.params.id);
      await requestExport(kit.db, group.id, caller.id);
      return accepted();
    },
    { visibility: "published" },
  ),

  /** GET /groups/:id/export/download: the caller's finished archive, else 404 "404 Not found". */
  "groups.download": implement(
    ImportExport.groups.download,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const group = await ownedGroup(ctx, ctx.params.id);
      const found = await findArchive(kit.db, group.id, caller.id);
      if (!found?.archive) throw recordNotFound();
      return fileResponse(ctx, found.archive, { filename: found.filename ?? "export.tar.gz", contentType: "application/gzip" });
    },
    { visibility: "published" },
  ),

  /**
   * POST /groups/import (multipart): GitLab's order — the upload's size (max_import_size, which
   * Workhorse enforces first), then who may create the group, then the file's extension; then the
   * group is created exactly as POST /groups does (its 400 "Failed to save group {…}" included),
   * private at the top level or at the closest level the parent allows, the importer its Owner.
   * The archive itself is read later by the worker: a bad one fails the import, the group stays.
   */
  "groups.import": implement(
    ImportExport.groups.import,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { file, parent_id } = ctx.params;
      const bytes = Buffer.from(file.data, "base64");
      const maxMb = currentSettings().max_import_size;
      if (maxMb > 0 && bytes.length > maxMb * 1024 * 1024) throw tooLarge();

      let visibility: Visibility = "private";
      if (parent_id !== undefined) {
        const parent = await groupAccess(ctx, parent_id);
        if (parent.role < subgroupRole(parent.group.subgroup_creation_level)) throw forbidden();
        visibility = closestAllowedVisibility(parent.group.visibility as Visibility, caller.admin);
      } else {
        await assertCanCreateTopLevelGroup(ctx);
      }
      if (!/\.gz$/.test(file.filename)) throw notAnArchive();

      const group = await call(ctx, Namespaces.groups.create, {
        name: ctx.params.name,
        path: ctx.params.path,
        visibility,
        ...(parent_id !== undefined ? { parent_id } : {}),
      });
      await recordImport(kit.db, { groupId: group.id, importer: { id: caller.id, username: caller.username, admin: caller.admin }, archive: bytes, filename: file.filename });
      return accepted();
    },
    { visibility: "published" },
  ),

  ...actionsOf("import-export", [
    /** Bus only: one worker step now (tests tick deterministically; the timer runs the same code). */
    implement(ImportExport.worker.tick, (ctx) => tick(kit.db, (name, params) => ctx.call(name, params))),
  ]),
});
