import { atLeastOneOf, gBool, gEnum, gId, gInt, gString, gStringArray, mutuallyExclusive, paginationParams } from "@collab/core";
import { z } from "zod";

export const RUNNER_TYPES = ["instance_type", "group_type", "project_type"] as const;
/** Statuses, with the deprecated active / paused. */
export const RUNNER_STATUSES = ["active", "paused", "online", "offline", "never_contacted", "stale"] as const;
/** Every scope Grape accepts: legacy types, types and statuses. */
export const RUNNER_SCOPES = ["specific", "shared", ...RUNNER_TYPES, ...RUNNER_STATUSES] as const;
export const ACCESS_LEVELS = ["not_protected", "ref_protected"] as const;
export const JOB_STATUSES = ["created", "waiting_for_resource", "preparing", "waiting_for_callback", "pending", "running", "success", "failed", "canceling", "canceled", "skipped", "manual", "scheduled"] as const;

export const runnerFilters = {
  scope: gEnum(RUNNER_SCOPES).optional(),
  type: gEnum(RUNNER_TYPES).optional(),
  status: gEnum(RUNNER_STATUSES).optional(),
  paused: gBool().optional(),
  tag_list: gStringArray().optional(),
  version_prefix: gString()
    .refine((s) => /^[\d+.]+/.test(s), { error: "is invalid" })
    .optional(),
  ...paginationParams,
};
export const ListRunnersParams = z.object({ ...runnerFilters, all: z.boolean().default(false) });
export type RunnerFilters = z.output<typeof ListRunnersParams>;
export const ListOwnerRunnersParams = z.object({ id: gString(), ...runnerFilters });

export const RunnerIdParams = z.object({ id: gId() });

const writable = {
  description: gString().optional(),
  paused: gBool().optional(),
  tag_list: gStringArray().optional(),
  run_untagged: gBool().optional(),
  locked: gBool().optional(),
  access_level: gEnum(ACCESS_LEVELS).optional(),
  maximum_timeout: gInt().optional(),
  maintenance_note: gString().optional(),
};

export const UpdateRunnerParams = z
  .object({ id: gId(), active: gBool().optional(), ...writable })
  .superRefine(atLeastOneOf("description", "active", "paused", "tag_list", "run_untagged", "locked", "access_level", "maximum_timeout", "maintenance_note"))
  .superRefine(mutuallyExclusive("active", "paused"));
export type RunnerChanges = Omit<z.output<typeof UpdateRunnerParams>, "id">;

export const RegisterRunnerParams = z
  .object({
    token: gString(),
    info: z
      .object({ name: gString().optional(), version: gString().optional(), revision: gString().optional(), platform: gString().optional(), architecture: gString().optional() })
      .optional(),
    active: gBool().optional(),
    maintainer_note: gString().optional(),
    ...writable,
  })
  .superRefine(mutuallyExclusive("active", "paused"));

export const RunnerTokenParams = z.object({ token: gString(), system_id: gString().optional() });

export const CreateUserRunnerParams = z.object({
  runner_type: gEnum(RUNNER_TYPES),
  group_id: gId().optional(),
  project_id: gId().optional(),
  ...writable,
});

export const RunnerJobsParams = z.object({
  id: gId(),
  status: gEnum(JOB_STATUSES).optional(),
  system_id: gString().optional(),
  order_by: gEnum(["id"] as const).default("id"),
  sort: gEnum(["asc", "desc"] as const).default("desc"),
  ...paginationParams,
});

export const ProjectRunnerParams = z.object({ id: gString(), runner_id: gId() });
export const OwnerRefParams = z.object({ id: gString() });
/** Registration token resets: the route says whose (instance, a project's, a group's). */
export const ResetRegistrationTokenParams = z.object({ source: z.enum(["instance", "projects", "groups"]), id: z.string().optional() });

/** POST /jobs/request: the runner's authentication token. */
export const RequestJobParams = z.object({ token: z.string().min(1) });

/** A job's final status as its runner reports it. */
export const JOB_FINAL_STATUSES = ["success", "failed", "canceled"] as const;

/** PUT /jobs/:id: the job's token and its final state. */
export const UpdateJobParams = z.object({ id: z.coerce.number().int(), token: z.string().min(1), state: z.enum(JOB_FINAL_STATUSES) });
