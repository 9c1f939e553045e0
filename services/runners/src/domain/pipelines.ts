import { announce, type PayloadOf } from "@collab/core";
import { nextIid, type Announcement, type Db } from "@collab/db";
import { Runners } from "@collab/runners-contract";
import { and, asc, eq, inArray } from "drizzle-orm";
import { digest, jobToken } from "./tokens";
import { internalIds, jobs, pipelines, runnerProjects, runners, type JobRow, type PipelineRow } from "../db/schema";

export interface NewPipeline {
  projectId: number;
  /** Short ref name: main, v1.0. */
  ref: string;
  tag: boolean;
  sha: string;
  source: string;
  userId: number | null;
  scheduleId?: number | null;
}

/**
 * A pipeline with its one job, pending until a runner picks it. There is no CI configuration
 * here: every pipeline runs a single `build` job.
 */
export async function createPipeline(db: Db, p: NewPipeline): Promise<PipelineRow> {
  const iid = await nextIid(db, internalIds, p.projectId, "ci_pipelines");
  const [pipeline] = await db
    .insert(pipelines)
    .values({ projectId: p.projectId, iid, status: "pending", source: p.source, ref: p.ref, tag: p.tag, sha: p.sha, userId: p.userId, scheduleId: p.scheduleId ?? null })
    .returning();
  await db.insert(jobs).values({ pipelineId: pipeline.id, projectId: p.projectId, name: "build", stage: "build", status: "pending", ref: p.ref, tag: p.tag, userId: p.userId });
  return pipeline;
}

/**
 * The oldest pending job a runner may run (its own projects' for project runners, any project's
 * otherwise), now running with a fresh job token: the clear token is returned once, to the runner.
 */
export async function pickJob(db: Db, runnerId: number): Promise<{ job: JobRow; token: string } | null> {
  return db.transaction(async (tx) => {
    const [runner] = await tx.select().from(runners).where(eq(runners.id, runnerId));
    if (!runner || !runner.active) return null;
    const projectScope =
      runner.runnerType === "project_type" ? inArray(jobs.projectId, tx.select({ id: runnerProjects.projectId }).from(runnerProjects).where(eq(runnerProjects.runnerId, runnerId))) : undefined;
    const [job] = await tx.select().from(jobs).where(and(eq(jobs.status, "pending"), projectScope)).orderBy(asc(jobs.id)).limit(1).for("update", { skipLocked: true });
    if (!job) return null;
    const now = new Date();
    const token = jobToken();
    const [row] = await tx.update(jobs).set({ status: "running", runnerId, startedAt: now, tokenDigest: digest(token) }).where(eq(jobs.id, job.id)).returning();
    await tx.update(pipelines).set({ status: "running", updatedAt: now }).where(eq(pipelines.id, job.pipelineId));
    await tx.update(runners).set({ contactedAt: now }).where(eq(runners.id, runnerId));
    return { job: row, token };
  });
}

/** `runners.pipeline.finished` (Runners.events.pipelineFinished): a pipeline reached a final status (success, failed, canceled). */
export const pipelineFinished = (p: PipelineRow): Announcement => announce(Runners.events.pipelineFinished, pipelineFinishedPayload(p));

const pipelineFinishedPayload = (p: PipelineRow): PayloadOf<typeof Runners.events.pipelineFinished> => ({
  pipeline_id: p.id,
  iid: p.iid,
  project_id: p.projectId,
  ref: p.ref,
  tag: p.tag,
  sha: p.sha,
  status: p.status,
  source: p.source,
  user_id: p.userId,
  finished_at: p.updatedAt.toISOString(),
});

/** Finishes a running job of a runner; the pipeline takes the job's final status. Run it in the caller's transaction. */
export async function finishJob(tx: Db, runnerId: number, jobId: number, status: "success" | "failed" | "canceled"): Promise<{ job: JobRow; pipeline: PipelineRow } | null> {
  const now = new Date();
  const [job] = await tx
    .update(jobs)
    .set({ status, finishedAt: now, tokenDigest: null })
    .where(and(eq(jobs.id, jobId), eq(jobs.runnerId, runnerId), eq(jobs.status, "running")))
    .returning();
  if (!job) return null;
  const [pipeline] = await tx.update(pipelines).set({ status, updatedAt: now }).where(eq(pipelines.id, job.pipelineId)).returning();
  return { job, pipeline };
}

/** The running job a job token belongs to; null for an unknown token or a job no longer running. */
export async function runningJobOfToken(db: Db, token: string): Promise<JobRow | null> {
  const [job] = await db.select().from(jobs).where(and(eq(jobs.tokenDigest, digest(token)), eq(jobs.status, "running")));
  return job ?? null;
}

/** Finishes a running job by its own token (the runner's `PUT /jobs/:id`). */
export async function finishJobByToken(tx: Db, jobId: number, token: string, status: "success" | "failed" | "canceled") {
  const [job] = await tx.select().from(jobs).where(and(eq(jobs.id, jobId), eq(jobs.tokenDigest, digest(token)), eq(jobs.status, "running")));
  if (!job || job.runnerId === null) return null;
  return finishJob(tx, job.runnerId, jobId, status);
}
