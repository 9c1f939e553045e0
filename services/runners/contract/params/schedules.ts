import { gBool, gEnum, gId, gString, paginationParams } from "@collab/core";
import { z } from "zod";

const project = () => gString();
export const VARIABLE_TYPES = ["env_var", "file"] as const;

export const ListSchedulesParams = z.object({ id: project(), scope: gEnum(["active", "inactive"] as const).optional(), ...paginationParams });
export const ScheduleParams = z.object({ id: project(), pipeline_schedule_id: gId() });
export const SchedulePipelinesParams = ScheduleParams.extend({ sort: gEnum(["asc", "desc"] as const).default("asc"), ...paginationParams });

export const CreateScheduleParams = z.object({
  id: project(),
  description: gString(),
  ref: gString(),
  cron: gString(),
  cron_timezone: gString().default("UTC"),
  active: gBool().default(true),
});
export const UpdateScheduleParams = z.object({
  id: project(),
  pipeline_schedule_id: gId(),
  description: gString().optional(),
  ref: gString().optional(),
  cron: gString().optional(),
  cron_timezone: gString().optional(),
  active: gBool().optional(),
});

export const CreateVariableParams = ScheduleParams.extend({ key: gString(), value: gString(), variable_type: gEnum(VARIABLE_TYPES).default("env_var") });
export const UpdateVariableParams = ScheduleParams.extend({ key: gString(), value: gString().optional(), variable_type: gEnum(VARIABLE_TYPES).optional() });
export const VariableParams = ScheduleParams.extend({ key: gString() });
