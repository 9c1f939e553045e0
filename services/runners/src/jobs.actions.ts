import { call, forbidden, reply, unauthorized, actionsOf, implement } from "@collab/core";
import type { Announcement, ServiceKit } from "@collab/db";
import { Runners } from "@collab/runners-contract";
import { inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { presentPipelineBasic } from "./api/runner.entity";
import { pipelines } from "./db/schema";
import { finishJob, finishJobByToken, jobStatusChanged, latestJobEvent, pickJob, pipelineFinished, runningJobOfToken } from "./domain/pipelines";
import { runnerByToken } from "./domain/runners";
import { Namespaces } from "@collab/namespaces-contract";

async function runnerFromToken(kit: ServiceKit, token: string) {
  const runner = await runnerByToken(kit.db, token);
  if (!runner) throw forbidden();
  return runner;
}

/**
 * The runner-facing job API (GitLab's /jobs/request and PUT /jobs/:id, authenticated by runner and
 * job tokens in the params) and the job token lookups other services and the gateway rely on.
 */
export const jobsActions = (kit: ServiceKit): Record<string, ActionSchema> => {
  /** Finishing a job finishes its pipeline (one job each): integrations and emails follow both. */
  const announceFinish = (done: Awaited<ReturnType<typeof finishJob>>): Announcement[] => (done ? [jobStatusChanged(done.job, done.pipeline, done.runner), pipelineFinished(done.pipeline)] : []);

  return {
    /** POST /jobs/request: a runner takes the oldest pending job it may run, with the job's token; 204 when none. */
    "jobs.request": implement(
      Runners.jobs.request,
      async (ctx) => {
        const runner = await runnerFromToken(kit, ctx.params.token);
        const picked = await kit.events.transact(
          (tx) => pickJob(tx, runner.id),
          (p) => (p ? [jobStatusChanged(p.job, p.pipeline, p.runner)] : []),
        );
        if (!picked) return reply(204, null);
        const { job, token } = picked;
        return { id: job.id, token, pipeline_id: job.pipelineId, project_id: job.projectId, name: job.name, stage: job.stage, ref: job.ref, tag: job.tag, status: job.status };
      },
      { visibility: "published" },
    ),

    /** PUT /jobs/:id: the job's runner reports its final state with the job token. */
    "jobs.update": implement(
      Runners.jobs.update,
      async (ctx) => {
        const { id, token, state } = ctx.params;
        const finished = await kit.events.transact((tx) => finishJobByToken(tx, id, token, state), announceFinish);
        if (!finished) throw forbidden();
        return { id: finished.job.id, status: finished.job.status };
      },
      { visibility: "published" },
    ),

    ...actionsOf("runners", [
      /** Bus only: finishes a job of the runner (tests and tools that drive runners without HTTP). */
      implement(Runners.jobs.finish, async (ctx) => {
        const runner = await runnerFromToken(kit, ctx.params.token);
        const finished = await kit.events.transact((tx) => finishJob(tx, runner.id, ctx.params.job_id, ctx.params.status), announceFinish);
        return finished ? { id: finished.job.id, status: finished.job.status } : null;
      }),

      implement(Runners.jobs.latestEvent, (ctx) => latestJobEvent(kit.db, ctx.params.project_id)),

      /** The gateway's job token check: the running job a token belongs to, else 401. */
      implement(Runners.jobs.authenticate, async (ctx) => {
        const job = await runningJobOfToken(kit.db, ctx.params.token);
        if (!job) throw unauthorized();
        return { job_id: job.id, project_id: job.projectId, pipeline_id: job.pipelineId, user_id: job.userId };
      }),

      /** Pipelines by id (GitLab's PipelineBasic plus user_id), for other services' presenters; callers authorize. */
      implement(Runners.pipelines.byIds, async (ctx) => {
        const ids = [...new Set(ctx.params.ids)];
        if (!ids.length) return [];
        const rows = await kit.db.select().from(pipelines).where(inArray(pipelines.id, ids));
        const projects = await call(ctx, Namespaces.projects.summaries, { ids: [...new Set(rows.map((p) => p.projectId))] });
        const webUrls = new Map(projects.map((p) => [p.id, p.web_url]));
        return rows.map((p) => ({ ...presentPipelineBasic(p, webUrls.get(p.projectId) ?? ""), user_id: p.userId }));
      }),
    ]),
  };
};
