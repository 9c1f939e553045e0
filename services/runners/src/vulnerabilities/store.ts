import { badRequestMessage } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { createHash } from "node:crypto";
import type { JobRow } from "../db/schema";
import { jobArtifacts, vulnerabilities, type VulnerabilityRow } from "../db/vulnerabilities.schema";
import { findingUuid, type Finding } from "./report";

/** Rows per INSERT of findings (a statement's parameters stay far below PostgreSQL's 65535). */
const INSERT_BATCH = 200;

export interface UploadedArtifact {
  fileType: string;
  fileFormat: string;
  filename: string;
  bytes: Buffer;
  expireAt: Date | null;
}

/**
 * Stores a job's artifact and, for a security report, its findings, in one transaction: all or
 * nothing. As GitLab's Ci::JobArtifacts::CreateService, the same file uploaded again for the job is
 * accepted and changes nothing, another file of a type the job already has is refused. A finding
 * already known in the project (same UUID) is updated, keeping when it was first seen.
 * Answers whether anything was written.
 */
export async function storeArtifact(db: Db, job: Pick<JobRow, "id" | "projectId" | "pipelineId">, artifact: UploadedArtifact, findings: Finding[]): Promise<boolean> {
  const sha256 = createHash("sha256").update(artifact.bytes).digest("hex");
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ sha256: jobArtifacts.fileSha256 })
      .from(jobArtifacts)
      .where(and(eq(jobArtifacts.jobId, job.id), eq(jobArtifacts.fileType, artifact.fileType)))
      .for("update");
    if (existing) {
      if (existing.sha256 === sha256) return false;
      throw badRequestMessage("another artifact of the same type already exists");
    }
    const inserted = await tx
      .insert(jobArtifacts)
      .values({
        jobId: job.id,
        projectId: job.projectId,
        fileType: artifact.fileType,
        fileFormat: artifact.fileFormat,
        filename: artifact.filename,
        size: artifact.bytes.length,
        fileSha256: sha256,
        file: artifact.bytes,
        expireAt: artifact.expireAt,
      })
      .onConflictDoNothing()
      .returning({ id: jobArtifacts.id });
    // A concurrent upload of the same type won the race: the unique index decided, as in GitLab.
    if (!inserted.length) throw badRequestMessage("another artifact of the same type already exists");

    // One row per UUID: a report naming a finding twice keeps its last entry.
    const byUuid = new Map(findings.map((f) => [findingUuid(f, job.projectId), f]));
    const rows = [...byUuid].map(([uuid, f]) => ({
      projectId: job.projectId,
      uuid,
      reportType: f.reportType,
      name: f.name,
      description: f.description,
      solution: f.solution,
      severity: f.severity,
      confidence: f.confidence,
      identifiers: f.identifiers,
      location: f.location,
      file: f.file,
      startLine: f.startLine,
      endLine: f.endLine,
      packageName: f.packageName,
      packageVersion: f.packageVersion,
      cvssVectors: f.cvssVectors,
      scannerExternalId: f.scanner.id,
      scannerName: f.scanner.name,
      pipelineId: job.pipelineId,
      jobId: job.id,
    }));
    const replaced = (column: string) => sql.raw(`excluded.${column}`);
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await tx
        .insert(vulnerabilities)
        .values(rows.slice(i, i + INSERT_BATCH))
        .onConflictDoUpdate({
          target: [vulnerabilities.projectId, vulnerabilities.uuid],
          set: {
            name: replaced("name"),
            description: replaced("description"),
            solution: replaced("solution"),
            severity: replaced("severity"),
            confidence: replaced("confidence"),
            identifiers: replaced("identifiers"),
            location: replaced("location"),
            file: replaced("file"),
            startLine: replaced("start_line"),
            endLine: replaced("end_line"),
            packageName: replaced("package_name"),
            packageVersion: replaced("package_version"),
            cvssVectors: replaced("cvss_vectors"),
            scannerExternalId: replaced("scanner_external_id"),
            scannerName: replaced("scanner_name"),
            pipelineId: replaced("pipeline_id"),
            jobId: replaced("job_id"),
            detectedAt: sql`now()`,
            updatedAt: sql`now()`,
          },
        });
    }
    return true;
  });
}

/** A page of the projects' vulnerabilities after `afterId`, in id order (keyset paging). */
export async function vulnerabilitiesPage(db: Db, projectIds: number[], afterId: number, limit: number): Promise<VulnerabilityRow[]> {
  if (!projectIds.length) return [];
  return db
    .select()
    .from(vulnerabilities)
    .where(and(inArray(vulnerabilities.projectId, projectIds), gt(vulnerabilities.id, afterId)))
    .orderBy(asc(vulnerabilities.id))
    .limit(limit);
}

/** Everything a project's deletion takes with it here (the artifacts go with the jobs). */
export async function removeProjectVulnerabilities(tx: Db, projectId: number): Promise<number> {
  return (await tx.delete(vulnerabilities).where(eq(vulnerabilities.projectId, projectId)).returning({ id: vulnerabilities.id })).length;
}
