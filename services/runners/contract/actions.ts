/** Actions of the runners service: its routes and what other services call (see index.ts). */
import { UserRefSchema } from "@collab/accounts-contract";
import { actionContract, noContent, pageOf, replyOf } from "@collab/core";
import { z } from "zod";
import { UploadArtifactParams } from "./params/artifacts";
import { JobEventPayload } from "./events";
import {
  ListProtectedEnvironmentsParams,
  ProtectedEnvironmentParams,
  ProtectEnvironmentParams,
  UpdateProtectedEnvironmentParams,
} from "./params/protected-environments";
import {
  CreateUserRunnerParams,
  ListOwnerRunnersParams,
  ListRunnersParams,
  ProjectRunnerParams,
  RegisterRunnerParams,
  RequestJobParams,
  ResetRegistrationTokenParams,
  RunnerIdParams,
  RunnerJobsParams,
  RunnerTokenParams,
  UpdateJobParams,
  UpdateRunnerParams,
} from "./params/runners";
import {
  CreateScheduleParams,
  CreateVariableParams,
  ListSchedulesParams,
  ScheduleParams,
  SchedulePipelinesParams,
  UpdateScheduleParams,
  UpdateVariableParams,
  VariableParams,
} from "./params/schedules";

const int = () => z.number().int();
const FinalStatus = () => z.enum(["success", "failed", "canceled"]);

/** A runner (GitLab's Runner entity), as routes and other services read it. */
export const RunnerSchema = z.object({
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

/** GitLab's RunnerDetails: the runner with its settings, projects and group. */
export const RunnerDetailsSchema = RunnerSchema.extend({
  tag_list: z.array(z.string()),
  run_untagged: z.boolean(),
  locked: z.boolean(),
  maximum_timeout: int().nullable(),
  access_level: z.string(),
  version: z.string().nullable(),
  revision: z.string().nullable(),
  platform: z.string().nullable(),
  architecture: z.string().nullable(),
  contacted_at: z.string().nullable(),
  maintenance_note: z.string().nullable(),
  created_at: z.string(),
  projects: z.array(z.object({ id: int(), name: z.string(), name_with_namespace: z.string(), path: z.string(), path_with_namespace: z.string() })),
  groups: z.array(z.object({ id: int(), web_url: z.string(), name: z.string() })),
});

/** A runner's authentication token as it is shown once (registration, creation, verification). */
export const RunnerTokenDetailsSchema = z.object({ id: int(), token: z.string(), token_expires_at: z.string().nullable() });

/** A new token (authentication or registration) and when it expires. */
export const TokenSchema = z.object({ token: z.string(), token_expires_at: z.string().nullable() });

/** GitLab's PipelineBasic. */
export const PipelineBasicSchema = z.object({
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
});

/** GitLab's PipelineBasic with the pipeline's user_id. */
const Pipeline = () => PipelineBasicSchema.extend({ user_id: int().nullable() });

/** A job of GET /runners/:id/jobs (GitLab's JobBasicWithProject). */
export const RunnerJobSchema = z.object({
  id: int(),
  status: z.string(),
  stage: z.string(),
  name: z.string(),
  ref: z.string(),
  tag: z.boolean(),
  coverage: z.number().nullable(),
  allow_failure: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  erased_at: z.null(),
  duration: z.number().nullable(),
  queued_duration: z.number().nullable(),
  user: UserRefSchema.nullable(),
  commit: z.object({
    id: z.string(),
    short_id: z.string(),
    created_at: z.string(),
    parent_ids: z.array(z.string()),
    title: z.string(),
    message: z.string(),
    author_name: z.string(),
    author_email: z.string(),
    authored_date: z.string(),
    committer_name: z.string(),
    committer_email: z.string(),
    committed_date: z.string(),
    trailers: z.record(z.string(), z.string()),
    extended_trailers: z.record(z.string(), z.array(z.string())),
    web_url: z.string(),
  }),
  pipeline: PipelineBasicSchema,
  web_url: z.string(),
  project: z.object({
    id: int(),
    description: z.string().nullable(),
    name: z.string(),
    name_with_namespace: z.string(),
    path: z.string(),
    path_with_namespace: z.string(),
    created_at: z.string().nullable(),
  }),
});

/** The job a runner picks (POST /jobs/request), with the job's CI/CD token. */
export const PickedJobSchema = z.object({
  id: int(),
  token: z.string(),
  pipeline_id: int(),
  project_id: int(),
  name: z.string(),
  stage: z.string(),
  ref: z.string(),
  tag: z.boolean(),
  status: z.string(),
});

/** A job's id and status after a change. */
const JobStatus = () => z.object({ id: int(), status: z.string() });

/** A pipeline schedule's variable. */
export const ScheduleVariableSchema = z.object({ key: z.string(), variable_type: z.string(), value: z.string(), raw: z.boolean() });

/** GitLab's PipelineSchedule. */
export const ScheduleSchema = z.object({
  id: int(),
  description: z.string(),
  ref: z.string(),
  cron: z.string(),
  cron_timezone: z.string(),
  next_run_at: z.string(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  owner: UserRefSchema.nullable(),
});

/** GitLab's PipelineScheduleDetails: the last pipeline, and the variables for those who may administer the schedule. */
export const ScheduleDetailsSchema = ScheduleSchema.extend({
  last_pipeline: PipelineBasicSchema.nullable(),
  variables: z.array(ScheduleVariableSchema).optional(),
});

/** A deploy access level of a protected environment. */
export const DeployAccessLevelSchema = z.object({
  id: int(),
  access_level: int().nullable(),
  access_level_description: z.string(),
  user_id: int().nullable(),
  group_id: int().nullable(),
  group_inheritance_type: int(),
});

/** A group protected environment (GitLab's ProtectedEnvironment). */
export const ProtectedEnvironmentSchema = z.object({
  name: z.string(),
  deploy_access_levels: z.array(DeployAccessLevelSchema),
  required_approval_count: int(),
  approval_rules: z.array(DeployAccessLevelSchema.extend({ required_approvals: int() })),
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
    /** GET /runners (the caller's runners) and GET /runners/all (administrators: every runner). */
    list: actionContract("runners.runners.list", { input: () => ListRunnersParams, output: () => pageOf(RunnerSchema), idempotent: true }),
    /** GET /projects/:id/runners: the project's runners, its groups' and the instance's. */
    listProject: actionContract("runners.runners.listProject", { input: () => ListOwnerRunnersParams, output: () => pageOf(RunnerSchema), idempotent: true }),
    /** GET /groups/:id/runners: the group's runners, its ancestors' and the instance's. */
    listGroup: actionContract("runners.runners.listGroup", { input: () => ListOwnerRunnersParams, output: () => pageOf(RunnerSchema), idempotent: true }),
    /** GET /runners/:id. */
    get: actionContract("runners.runners.get", { input: () => RunnerIdParams, output: () => RunnerDetailsSchema, idempotent: true }),
    /** PUT /runners/:id. */
    update: actionContract("runners.runners.update", { input: () => UpdateRunnerParams, output: () => RunnerDetailsSchema }),
    /** DELETE /runners/:id. */
    delete: actionContract("runners.runners.delete", { input: () => RunnerIdParams, output: () => noContent() }),
    /** GET /runners/:id/jobs: the runner's jobs in projects the caller can read. */
    jobs: actionContract("runners.runners.jobs", { input: () => RunnerJobsParams, output: () => pageOf(RunnerJobSchema), idempotent: true }),
    /** POST /projects/:id/runners: assigns an existing project runner the caller owns. */
    enableProject: actionContract("runners.runners.enableProject", { input: () => ProjectRunnerParams, output: () => RunnerSchema }),
    /** DELETE /projects/:id/runners/:runner_id. */
    disableProject: actionContract("runners.runners.disableProject", { input: () => ProjectRunnerParams, output: () => noContent() }),
    /** POST /runners: registers a runner with a registration token (legacy flow). */
    register: actionContract("runners.runners.register", { input: () => RegisterRunnerParams, output: () => RunnerTokenDetailsSchema }),
    /** DELETE /runners: a runner unregisters itself with its authentication token. */
    unregister: actionContract("runners.runners.unregister", { input: () => RunnerTokenParams, output: () => noContent() }),
    /** POST /runners/verify: checks an authentication token; the runner counts as contacted. */
    verify: actionContract("runners.runners.verify", { input: () => RunnerTokenParams, output: () => RunnerTokenDetailsSchema }),
    /** POST /runners/reset_authentication_token: a runner resets its own token. */
    resetOwnToken: actionContract("runners.runners.resetOwnToken", { input: () => RunnerTokenParams, output: () => TokenSchema }),
    /** POST /runners/:id/reset_authentication_token. */
    resetToken: actionContract("runners.runners.resetToken", { input: () => RunnerIdParams, output: () => TokenSchema }),
    /** Registration tokens: instance (administrators), project (Maintainers), group (Owners). */
    resetRegistrationToken: actionContract("runners.runners.resetRegistrationToken", { input: () => ResetRegistrationTokenParams, output: () => TokenSchema }),
    /** POST /user/runners: a runner created by a signed-in user, with a glrt- token. */
    createForUser: actionContract("runners.runners.createForUser", { input: () => CreateUserRunnerParams, output: () => RunnerTokenDetailsSchema }),
    /** Runners by id (the ones that exist), for other services. */
    byIds: actionContract("runners.runners.byIds", {
      input: () => z.object({ ids: z.array(int()).max(1000) }),
      output: () => z.array(RunnerSchema),
      idempotent: true,
    }),
  },
  jobs: {
    /** POST /jobs/request: a runner takes the oldest pending job it may run, with the job's token; 204 when none. */
    request: actionContract("runners.jobs.request", { input: () => RequestJobParams, output: () => z.union([PickedJobSchema, replyOf(z.null(), 204)]) }),
    /** PUT /jobs/:id: the job's runner reports its final state with the job token. */
    update: actionContract("runners.jobs.update", { input: () => UpdateJobParams, output: () => JobStatus() }),
    /**
     * Bus only (tests and tools that drive runners without HTTP): the runner of `token` finishes
     * its job `job_id`, and so its pipeline; null when the job is not the runner's or not running.
     */
    finish: actionContract("runners.jobs.finish", {
      input: () => z.object({ token: z.string(), job_id: int(), status: FinalStatus() }),
      output: () => JobStatus().nullable(),
    }),
    /** Bus only (a webhook's test): the project's latest job as its last status change carried it, or null. */
    latestEvent: actionContract("runners.jobs.latestEvent", { input: () => z.object({ project_id: int() }), output: () => JobEventPayload().nullable(), idempotent: true }),
    /** The gateway's CI/CD job token check: the running job a token belongs to, else 401. */
    authenticate: actionContract("runners.jobs.authenticate", {
      input: () => z.object({ token: z.string().min(1) }),
      output: () => z.object({ job_id: int(), project_id: int(), pipeline_id: int(), user_id: int().nullable() }),
    }),
    artifacts: {
      /** POST /jobs/:id/artifacts (runner API, the job's own token): 201 with the body "201". */
      upload: actionContract("runners.jobs.artifacts.upload", { input: () => UploadArtifactParams, output: () => replyOf(z.string(), 201) }),
    },
  },
  pipelines: {
    /** Pipelines by id (the ones that exist), for other services' presenters; callers authorize. */
    byIds: actionContract("runners.pipelines.byIds", {
      input: () => z.object({ ids: z.array(int()).max(1000) }),
      output: () => z.array(Pipeline()),
      idempotent: true,
    }),
  },
  schedules: {
    /** GET /projects/:id/pipeline_schedules. */
    list: actionContract("runners.schedules.list", { input: () => ListSchedulesParams, output: () => pageOf(ScheduleSchema), idempotent: true }),
    /** GET /projects/:id/pipeline_schedules/:pipeline_schedule_id. */
    get: actionContract("runners.schedules.get", { input: () => ScheduleParams, output: () => ScheduleDetailsSchema, idempotent: true }),
    /** GET …/pipelines: the pipelines the schedule created. */
    pipelines: actionContract("runners.schedules.pipelines", { input: () => SchedulePipelinesParams, output: () => pageOf(PipelineBasicSchema), idempotent: true }),
    /** POST /projects/:id/pipeline_schedules. */
    create: actionContract("runners.schedules.create", { input: () => CreateScheduleParams, output: () => ScheduleDetailsSchema }),
    /** PUT …/:pipeline_schedule_id. */
    update: actionContract("runners.schedules.update", { input: () => UpdateScheduleParams, output: () => ScheduleDetailsSchema }),
    /** POST …/take_ownership: 201 with the schedule now owned by the caller; 200 when it already was. */
    takeOwnership: actionContract("runners.schedules.takeOwnership", { input: () => ScheduleParams, output: () => z.union([ScheduleDetailsSchema, replyOf(ScheduleDetailsSchema, 200)]) }),
    /** DELETE …/:pipeline_schedule_id. */
    delete: actionContract("runners.schedules.delete", { input: () => ScheduleParams, output: () => noContent() }),
    /** POST …/play: runs the schedule now, 201 {"message":"201 Created"}. */
    play: actionContract("runners.schedules.play", { input: () => ScheduleParams, output: () => z.object({ message: z.string() }) }),
    variables: {
      /** POST …/variables. */
      create: actionContract("runners.schedules.variables.create", { input: () => CreateVariableParams, output: () => ScheduleVariableSchema }),
      /** PUT …/variables/:key. */
      update: actionContract("runners.schedules.variables.update", { input: () => UpdateVariableParams, output: () => ScheduleVariableSchema }),
      /** DELETE …/variables/:key: 202 with the deleted variable. */
      delete: actionContract("runners.schedules.variables.delete", { input: () => VariableParams, output: () => replyOf(ScheduleVariableSchema, 202) }),
    },
  },
  scheduler: {
    /** One pass of the pipeline scheduler now (the timer runs the same): the ids of the pipelines it created. */
    tick: actionContract("runners.scheduler.tick", {
      input: () => z.object({}),
      output: () => z.object({ pipeline_ids: z.array(int()) }),
    }),
  },
  protectedEnvironments: {
    /** GET /groups/:id/protected_environments (Premium and Ultimate). */
    list: actionContract("runners.protectedEnvironments.list", { input: () => ListProtectedEnvironmentsParams, output: () => pageOf(ProtectedEnvironmentSchema), idempotent: true }),
    /** GET /groups/:id/protected_environments/:name. */
    get: actionContract("runners.protectedEnvironments.get", { input: () => ProtectedEnvironmentParams, output: () => ProtectedEnvironmentSchema, idempotent: true }),
    /** POST /groups/:id/protected_environments. */
    protect: actionContract("runners.protectedEnvironments.protect", { input: () => ProtectEnvironmentParams, output: () => ProtectedEnvironmentSchema }),
    /** PUT /groups/:id/protected_environments/:name. */
    update: actionContract("runners.protectedEnvironments.update", { input: () => UpdateProtectedEnvironmentParams, output: () => ProtectedEnvironmentSchema }),
    /** DELETE /groups/:id/protected_environments/:name: 200 with the environment it was. */
    unprotect: actionContract("runners.protectedEnvironments.unprotect", { input: () => ProtectedEnvironmentParams, output: () => ProtectedEnvironmentSchema }),
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
