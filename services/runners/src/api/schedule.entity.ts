import { iso, type UserRef } from "@collab/core";
import type { PipelineRow, ScheduleRow, ScheduleVariableRow } from "../db/schema";

export const presentVariable = (v: ScheduleVariableRow) => ({ key: v.key, variable_type: v.variableType, value: v.value, raw: v.raw });

export const presentSchedule = (s: ScheduleRow, owner: UserRef | null) => ({
  id: s.id,
  description: s.description,
  ref: s.ref,
  cron: s.cron,
  cron_timezone: s.cronTimezone,
  next_run_at: iso(s.nextRunAt),
  active: s.active,
  created_at: iso(s.createdAt),
  updated_at: iso(s.updatedAt),
  owner,
});

export const presentScheduleDetails = (s: ScheduleRow, owner: UserRef | null, last: PipelineRow | null, projectWebUrl: string, variables: ScheduleVariableRow[] | null) => ({
  ...presentSchedule(s, owner),
  last_pipeline: last
    ? { id: last.id, iid: last.iid, project_id: last.projectId, sha: last.sha, ref: last.ref, status: last.status, source: last.source, created_at: iso(last.createdAt), updated_at: iso(last.updatedAt), web_url: `${projectWebUrl}/-/pipelines/${last.id}` }
    : null,
  ...(variables ? { variables: variables.map(presentVariable) } : {}),
});
