import { eventContract } from "@collab/core";
import { z } from "zod";

const id = z.number().int().positive();

/**
 * A job as its status changes carry it: the job, its pipeline's sha and status, and the runner
 * running it (null while pending); times are ISO timestamps.
 */
export const JobEventPayload = () =>
  z.object({
    job_id: id,
    pipeline_id: id,
    project_id: id,
    name: z.string(),
    stage: z.string(),
    status: z.string(),
    ref: z.string(),
    tag: z.boolean(),
    sha: z.string(),
    user_id: id.nullable(),
    allow_failure: z.boolean(),
    runner: z.object({ id, description: z.string(), active: z.boolean(), runner_type: z.string(), is_shared: z.boolean(), tags: z.array(z.string()) }).nullable(),
    pipeline_status: z.string(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  });

/** Durable events the runners service publishes (see index.ts). */
export const RunnersEvents = {
  /**
   * A job's status changed: pending (created with its pipeline), running (a runner picked it), then
   * success, failed or canceled; written in the change's transaction (GitLab's build hooks fire on each).
   */
  jobStatusChanged: eventContract("runners.job.status_changed", JobEventPayload),
  /** A pipeline reached a final status (success, failed, canceled). */
  pipelineFinished: eventContract("runners.pipeline.finished", () =>
    z.object({
      pipeline_id: id,
      iid: z.number().int(),
      project_id: id,
      ref: z.string(),
      tag: z.boolean(),
      sha: z.string(),
      status: z.string(),
      source: z.string(),
      user_id: id.nullable(),
      /** ISO timestamp. */
      finished_at: z.string(),
    }),
  ),
};
