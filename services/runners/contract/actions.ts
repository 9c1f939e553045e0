/** Actions of the runners service other services call (see index.ts). */
import { actionContract } from "@collab/core";
import { z } from "zod";

const int = () => z.number().int();
const FinalStatus = () => z.enum(["success", "failed", "canceled"]);

/** A runner as other services read it (GitLab's Runner entity). */
const Runner = () =>
  z.object({
    id: int(),
    description: z.string(),
    ip_address: z.string(),
    active: z.boolean(),
    paused: z.boolean(),
    is_shared: z.boolean(),
    runner_type: z.string(),
    name: z.string().nullable(),
    online: z.boolean(),
    status: z.enum(["online", "offline", "stale", "never_contacted"]),
  });

/** GitLab's PipelineBasic with the pipeline's user_id. */
const Pipeline = () =>
  z.object({
    id: int(),
    iid: int(),
    project_id: int(),
    sha: z.string(),
    ref: z.string(),
    status: z.string(),
    source: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    web_url: z.string(),
    user_id: int().nullable(),
  });

/** A vulnerability found by a security report, as other services read it. */
const Vulnerability = () =>
  z.object({
    id: int(),
    project_id: int(),
    uuid: z.string(),
    report_type: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    solution: z.string().nullable(),
    severity: z.string(),
    confidence: z.string().nullable(),
    state: z.string(),
    identifiers: z.array(z.object({ type: z.string(), name: z.string(), value: z.string(), url: z.string().nullable() })),
    location: z.record(z.string(), z.unknown()),
    file: z.string().nullable(),
    start_line: int().nullable(),
    end_line: int().nullable(),
    package_name: z.string().nullable(),
    package_version: z.string().nullable(),
    cvss_vectors: z.array(z.object({ vendor: z.string(), vector: z.string() })),
    scanner: z.object({ external_id: z.string(), name: z.string() }),
    resolved_on_default_branch: z.boolean(),
    pipeline_id: int(),
    job_id: int(),
    created_at: z.string(),
    detected_at: z.string(),
    updated_at: z.string(),
  });

export const RunnersActions = {
  runners: {
    /** Runners by id (the ones that exist), for other services. */
    byIds: actionContract("runners.runners.byIds", {
      input: () => z.object({ ids: z.array(int()).max(1000) }),
      output: () => z.array(Runner()),
      idempotent: true,
    }),
  },
  jobs: {
    /**
     * Bus only (tests and tools that drive runners without HTTP): the runner of `token` finishes
     * its job `job_id`, and so its pipeline; null when the job is not the runner's or not running.
     */
    finish: actionContract("runners.jobs.finish", {
      input: () => z.object({ token: z.string(), job_id: int(), status: FinalStatus() }),
      output: () => z.object({ id: int(), status: z.string() }).nullable(),
    }),
    /** The gateway's CI/CD job token check: the running job a token belongs to, else 401. */
    authenticate: actionContract("runners.jobs.authenticate", {
      input: () => z.object({ token: z.string().min(1) }),
      output: () => z.object({ job_id: int(), project_id: int(), pipeline_id: int(), user_id: int().nullable() }),
    }),
  },
  pipelines: {
    /** Pipelines by id (the ones that exist), for other services' presenters; callers authorize. */
    byIds: actionContract("runners.pipelines.byIds", {
      input: () => z.object({ ids: z.array(int()).max(1000) }),
      output: () => z.array(Pipeline()),
      idempotent: true,
    }),
  },
  scheduler: {
    /** One pass of the pipeline scheduler now (the timer runs the same): the ids of the pipelines it created. */
    tick: actionContract("runners.scheduler.tick", {
      input: () => z.object({}),
      output: () => z.object({ pipeline_ids: z.array(int()) }),
    }),
  },
  vulnerabilities: {
    /**
     * Bus only: the vulnerabilities of these projects after `after_id`, in id order, `limit` at a
     * time (keyset paging; an empty or short page is the last). Callers authorize the projects.
     */
    list: actionContract("runners.vulnerabilities.list", {
      input: () =>
        z.object({
          project_ids: z.array(int().positive()).max(100_000),
          after_id: int().min(0).default(0),
          limit: int().min(1).max(1000).default(500),
        }),
      output: () => z.array(Vulnerability()),
      idempotent: true,
    }),
  },
};
