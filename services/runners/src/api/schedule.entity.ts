import type { UserRef } from "@collab/core";
import { presentPipelineBasic } from "./runner.entity";
import type { PipelineRow, ScheduleRow, ScheduleVariableRow } from "../db/schema";

export const presentVariable = (v: ScheduleVariableRow) => ({ key: v.key, variable_type: v.variableType, value: v.value, raw: v.raw });

export const presentSchedule = (s: ScheduleRow, owner: UserRef | null) => ({
  id: s.id,
  description: s.description,
  ref: s.ref,
  cron: s.cron,
  cron_timezone: s.cronTimezone,
  next_run_at: s.nextRunAt.toISOString(),
  active: s.active,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
  owner,
});

export const presentScheduleDetails = (s: ScheduleRow, owner: UserRef | null, last: PipelineRow | null, projectWebUrl: string, variables: ScheduleVariableRow[] | null) => ({
  ...presentSchedule(s, owner),
  last_pipeline: last ? presentPipelineBasic(last, projectWebUrl) : null,
  ...(variables ? { variables: variables.map(presentVariable) } : {}),
});
