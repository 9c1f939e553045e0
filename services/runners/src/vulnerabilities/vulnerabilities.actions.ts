import { actionsOf, badRequest, badRequestMessage, callerOf, forbidden, implement, reply } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Runners } from "@collab/runners-contract";
import { eq } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { jobs } from "../db/schema";
import type { VulnerabilityRow } from "../db/vulnerabilities.schema";
import { parseReport, REPORT_TYPES, ReportError, type Finding, type ReportType } from "./report";
import { storeArtifact, vulnerabilitiesPage } from "./store";
import { expireAt, formatMatchesType } from "./artifact-types";

/** A vulnerability as other services read it (runners.vulnerabilities.list). */
export const presentVulnerability = (v: VulnerabilityRow) => ({
  id: v.id,
  project_id: v.projectId,
  uuid: v.uuid,
  report_type: v.reportType,
  name: v.name,
  description: v.description,
  solution: v.solution,
  severity: v.severity,
  confidence: v.confidence,
  state: v.state,
  identifiers: v.identifiers,
  location: v.location,
  file: v.file,
  start_line: v.startLine,
  end_line: v.endLine,
  package_name: v.packageName,
  package_version: v.packageVersion,
  cvss_vectors: v.cvssVectors,
  scanner: { external_id: v.scannerExternalId, name: v.scannerName },
  resolved_on_default_branch: v.resolvedOnDefaultBranch,
  pipeline_id: v.pipelineId,
  job_id: v.jobId,
  created_at: v.createdAt.toISOString(),
  detected_at: v.detectedAt.toISOString(),
  updated_at: v.updatedAt.toISOString(),
});
export type PresentedVulnerability = ReturnType<typeof presentVulnerability>;

const isReportType = (t: string): t is ReportType => (REPORT_TYPES as readonly string[]).includes(t);

export const vulnerabilitiesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /**
   * POST /jobs/:id/artifacts (runner API): a running job uploads an artifact with its own job token.
   * As GitLab's authenticate_job!, anything but the job's own token for a running job is 403: no
   * token, another job's, a personal token. SAST and dependency scanning reports are read at once
   * into the project's vulnerabilities (a report that cannot be read is 400 and nothing is kept);
   * other types are kept as they are. 201 with the body "201", as GitLab answers.
   */
  "jobs.artifacts.upload": implement(
    Runners.jobs.artifacts.upload,
    async (ctx) => {
      const p = ctx.params;
      // The job a CI/CD job token stands for (the gateway sets it on routes that take job tokens).
      const token = callerOf(ctx)?.job;
      if (!token || token.id !== p.id) throw forbidden();
      const [job] = await kit.db.select().from(jobs).where(eq(jobs.id, p.id));
      if (!job) throw forbidden();
      if (job.status !== "running") throw forbidden("Job is not running");
      if (!formatMatchesType(p.artifact_type, p.artifact_format)) throw badRequestMessage("Validation failed: Invalid file format with specified file type");
      const expires = expireAt(p.expire_in);
      if (expires === undefined) throw badRequest("expire_in is invalid");

      const bytes = Buffer.from(p.file.data, "base64");
      let findings: Finding[] = [];
      if (isReportType(p.artifact_type)) {
        try {
          findings = parseReport(p.artifact_type, bytes);
        } catch (err) {
          if (err instanceof ReportError) throw badRequestMessage(err.message);
          throw err;
        }
      }
      await storeArtifact(kit.db, job, { fileType: p.artifact_type, fileFormat: p.artifact_format, filename: p.file.filename, bytes, expireAt: expires }, findings);
      return reply(201, "201");
    },
    { visibility: "published" },
  ),

  ...actionsOf("runners", [
    /**
     * Bus only: the vulnerabilities of these projects after `after_id`, in id order, `limit` at a
     * time (keyset paging; an empty or short page is the last). Callers authorize the projects.
     */
    implement(Runners.vulnerabilities.list, async (ctx) => {
      const rows = await vulnerabilitiesPage(kit.db, [...new Set(ctx.params.project_ids)], ctx.params.after_id, ctx.params.limit);
      return rows.map(presentVulnerability);
    }),
  ]),
});
