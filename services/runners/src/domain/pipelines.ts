import { announce, type PayloadOf } from "@collab/core";
import { nextIid, type Announcement, type Db } from "@collab/db";
import { Runners } from "@collab/runners-contract";
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { digest, jobToken } from "./tokens";
import { internalIds, jobs, pipelines, runnerProjects, runners, type JobRow, type PipelineRow, type RunnerRow } from "../db/schema";

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
 * here: every pipeline runs a single `build` job. The caller announces the job (jobStatusChanged).
 */
export async function createPipeline(db: Db, p: NewPipeline): Promise<{ pipeline: PipelineRow; job: JobRow }> {
  const iid = await nextIid(db, internalIds, p.projectId, "ci_pipelines");
  const [pipeline] = await db
    .insert(pipelines)
    .values({ projectId: p.projectId, iid, status: "pending", source: p.source, ref: p.ref, tag: p.tag, sha: p.sha, userId: p.userId, scheduleId: p.scheduleId ?? null })
    .returning();
  const [job] = await db
    .insert(jobs)
    .values({ pipelineId: pipeline.id, projectId: p.projectId, name: "build", stage: "build", status: "pending", ref: p.ref, tag: p.tag, userId: p.userId })
    .returning();
  return { pipeline, job };
}

/**
 * The oldest pending job a runner may run (its own projects' for project runners, any project's
 * otherwise), now running with a fresh job token: the clear token is returned once, to the runner.
 * Run it in the caller's transaction (which announces the job running).
 */
export async function pickJob(tx: Db, runnerId: number): Promise<{ job: JobRow; token: string; pipeline: PipelineRow; runner: RunnerRow } | null> {
  const [runner] = await tx.select().from(runners).where(eq(runners.id, runnerId));
  if (!runner || !runner.active) return null;
  const projectScope =
    runner.runnerType === "project_type" ? inArray(jobs.projectId, tx.select({ id: runnerProjects.projectId }).from(runnerProjects).where(eq(runnerProjects.runnerId, runnerId))) : undefined;
  const [job] = await tx.select().from(jobs).where(and(eq(jobs.status, "pending"), projectScope)).orderBy(asc(jobs.id)).limit(1).for("update", { skipLocked: true });
  if (!job) return null;
  const now = new Date();
  const token = jobToken();
  const [row] = await tx.update(jobs).set({ status: "running", runnerId, startedAt: now, tokenDigest: digest(token) }).where(eq(jobs.id, job.id)).returning();
  const [pipeline] = await tx.update(pipelines).set({ status: "running", updatedAt: now }).where(eq(pipelines.id, job.pipelineId)).returning();
  await tx.update(runners).set({ contactedAt: now }).where(eq(runners.id, runnerId));
  return { job: row, token, pipeline, runner };
}

type RunnerFacts = Pick<RunnerRow, "id" | "description" | "active" | "runnerType" | "tagList">;

const jobEventPayload = (job: JobRow, pipeline: PipelineRow, runner: RunnerFacts | null): PayloadOf<typeof Runners.events.jobStatusChanged> => ({
  job_id: job.id,
  pipeline_id: pipeline.id,
  project_id: job.projectId,
  name: job.name,
  stage: job.stage,
  status: job.status,
  ref: job.ref,
  tag: job.tag,
  sha: pipeline.sha,
  user_id: job.userId,
  allow_failure: job.allowFailure,
  runner: runner && { id: runner.id, description: runner.description, active: runner.active, runner_type: runner.runnerType, is_shared: runner.runnerType === "instance_type", tags: runner.tagList },
  pipeline_status: pipeline.status,
  created_at: job.createdAt.toISOString(),
  started_at: job.startedAt?.toISOString() ?? null,
  finished_at: job.finishedAt?.toISOString() ?? null,
});

/** `runners.job.status_changed` (Runners.events.jobStatusChanged): the job as it now is, with its pipeline and runner. */
export const jobStatusChanged = (job: JobRow, pipeline: PipelineRow, runner: RunnerFacts | null): Announcement => announce(Runners.events.jobStatusChanged, jobEventPayload(job, pipeline, runner));

/** The project's latest job as its last status change carried it (a webhook's test sample), or null. */
export async function latestJobEvent(db: Db, projectId: number) {
  const [row] = await db
    .select({ job: jobs, pipeline: pipelines, runner: runners })
    .from(jobs)
    .innerJoin(pipelines, eq(pipelines.id, jobs.pipelineId))
    .leftJoin(runners, eq(runners.id, jobs.runnerId))
    .where(eq(jobs.projectId, projectId))
    .orderBy(desc(jobs.id))
    .limit(1);
  return row ? jobEventPayload(row.job, row.pipeline, row.runner) : null;
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
export async function finishJob(tx: Db, runnerId: number, jobId: number, status: "success" | "failed" | "canceled"): Promise<{ job: JobRow; pipeline: PipelineRow; runner: RunnerRow | null } | null> {
  const now = new Date();
  const [job] = await tx
    .update(jobs)
    .set({ status, finishedAt: now, tokenDigest: null })
    .where(and(eq(jobs.id, jobId), eq(jobs.runnerId, runnerId), eq(jobs.status, "running")))
    .returning();
  if (!job) return null;
  const [pipeline] = await tx.update(pipelines).set({ status, updatedAt: now }).where(eq(pipelines.id, job.pipelineId)).returning();
  const [runner] = await tx.select().from(runners).where(eq(runners.id, runnerId));
  return { job, pipeline, runner: runner ?? null };
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
