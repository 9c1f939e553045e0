/** Actions of the import-export service: the routes' actions and those other services call (see index.ts). */
import { actionContract, fileOf, replyOf } from "@collab/core";
import { z } from "zod";
import { GroupRefParams, ImportParams } from "./params/groups";
import { ExportIdParams, GroupExportParams, InstanceExportParams, ProjectExportParams } from "./params/vulnerability-exports";

const int = () => z.number().int();

/** `accepted()`: 202 with GitLab's `{"message": "202 Accepted"}`. */
const AcceptedSchema = z.object({ message: z.string() });

/** The states of a vulnerability export, created → running → finished or failed. */
export const VULNERABILITY_EXPORT_STATUSES = ["created", "running", "finished", "failed"] as const;
export type VulnerabilityExportStatus = (typeof VULNERABILITY_EXPORT_STATUSES)[number];

/**
 * API::Entities::VulnerabilityExport. `send_email` is shown for project exports only; `_links`
 * are absolute, on the external URL.
 */
export const VulnerabilityExportSchema = z.object({
  id: int(),
  created_at: z.string(),
  project_id: int().nullable(),
  group_id: int().nullable(),
  format: z.string(),
  status: z.enum(VULNERABILITY_EXPORT_STATUSES),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  send_email: z.boolean().optional(),
  expires_at: z.string(),
  _links: z.object({ self: z.string(), download: z.string() }),
});
export type VulnerabilityExportEntity = z.output<typeof VulnerabilityExportSchema>;

export const ImportExportActions = {
  groups: {
    /** POST /groups/:id/export: queues the caller's export; 202. */
    export: actionContract("import-export.groups.export", { input: () => GroupRefParams, output: () => replyOf(AcceptedSchema, 202) }),
    /** GET /groups/:id/export/download: the caller's finished archive (application/gzip). */
    download: actionContract("import-export.groups.download", { input: () => GroupRefParams, output: () => fileOf() }),
    /** POST /groups/import (multipart): creates the group and queues the import; 202. */
    import: actionContract("import-export.groups.import", { input: () => ImportParams, output: () => replyOf(AcceptedSchema, 202) }),
  },
  worker: {
    /** Bus only: one step of the group import/export worker now (tests tick deterministically): the jobs it ran. */
    tick: actionContract("import-export.worker.tick", {
      input: () => z.object({}),
      output: () => z.object({ exports: int(), imports: int() }),
    }),
  },
  vulnerabilityExports: {
    /** POST /security/projects/:id/vulnerability_exports: the export, 201. */
    createForProject: actionContract("import-export.vulnerabilityExports.createForProject", {
      input: () => ProjectExportParams,
      output: () => replyOf(VulnerabilityExportSchema, 201),
    }),
    /** POST /security/groups/:id/vulnerability_exports: the export, 201. */
    createForGroup: actionContract("import-export.vulnerabilityExports.createForGroup", {
      input: () => GroupExportParams,
      output: () => replyOf(VulnerabilityExportSchema, 201),
    }),
    /** POST /security/vulnerability_exports: the instance export, 201. */
    createForInstance: actionContract("import-export.vulnerabilityExports.createForInstance", {
      input: () => InstanceExportParams,
      output: () => replyOf(VulnerabilityExportSchema, 201),
    }),
    /** GET /security/vulnerability_exports/:id: the export, 200 once finished or failed, else 202. */
    get: actionContract("import-export.vulnerabilityExports.get", {
      input: () => ExportIdParams,
      output: () => z.union([VulnerabilityExportSchema, replyOf(VulnerabilityExportSchema, 202)]),
    }),
    /** GET /security/vulnerability_exports/:id/download: the CSV (text/csv). */
    download: actionContract("import-export.vulnerabilityExports.download", { input: () => ExportIdParams, output: () => fileOf() }),
    /**
     * Bus only: one step of the vulnerability export worker now; `now` moves the expiry clock
     * (tests). Answers the exports it finished, failed and expired.
     */
    tick: actionContract("import-export.vulnerabilityExports.tick", {
      input: () => z.object({ now: z.iso.datetime().optional() }),
      output: () => z.object({ finished: int(), failed: int(), expired: int() }),
    }),
  },
};
