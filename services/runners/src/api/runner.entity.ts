import { iso, type UserRef } from "@collab/core";
import type { JobRow, PipelineRow, RunnerRow } from "../db/schema";

export const ONLINE_MS = 2 * 60 * 60 * 1000;
export const STALE_MS = 7 * 24 * 60 * 60 * 1000;

/** GitLab's Ci::Runner#status: stale first, then never_contacted, online within 2 h, else offline. */
export function runnerStatus(r: Pick<RunnerRow, "contactedAt" | "createdAt">, now = Date.now()): "online" | "offline" | "stale" | "never_contacted" {
  const contacted = r.contactedAt?.getTime();
  const staleBefore = now - STALE_MS;
  if (contacted === undefined ? r.createdAt.getTime() <= staleBefore : contacted <= staleBefore) return "stale";
  if (contacted === undefined) return "never_contacted";
  return contacted > now - ONLINE_MS ? "online" : "offline";
}

export const isOnline = (r: Pick<RunnerRow, "contactedAt">, now = Date.now()) => r.contactedAt !== null && r.contactedAt.getTime() > now - ONLINE_MS;

export const presentRunner = (r: RunnerRow) => ({
  id: r.id,
  description: r.description,
  ip_address: "",
  active: r.active,
  paused: !r.active,
  is_shared: r.runnerType === "instance_type",
  runner_type: r.runnerType,
  name: r.name,
  online: isOnline(r),
  status: runnerStatus(r),
});

export interface RunnerProjectRef {
  id: number;
  name: string;
  name_with_namespace: string;
  path: string;
  path_with_namespace: string;
}

export const presentRunnerDetails = (r: RunnerRow, projects: RunnerProjectRef[], groups: { id: number; web_url: string; name: string }[]) => ({
  ...presentRunner(r),
  tag_list: [...r.tagList].sort(),
  run_untagged: r.runUntagged,
  locked: r.locked,
  maximum_timeout: r.maximumTimeout,
  access_level: r.accessLevel,
  version: r.version,
  revision: r.revision,
  platform: r.platform,
  architecture: r.architecture,
  contacted_at: iso(r.contactedAt),
  maintenance_note: r.maintenanceNote,
  created_at: r.createdAt.toISOString(),
  projects,
  groups,
});

export const presentTokenDetails = (r: Pick<RunnerRow, "id" | "tokenExpiresAt">, token: string) => ({ id: r.id, token, token_expires_at: iso(r.tokenExpiresAt) });

export const presentPipelineBasic = (p: PipelineRow, projectWebUrl: string) => ({
  id: p.id,
  iid: p.iid,
  project_id: p.projectId,
  sha: p.sha,
  ref: p.ref,
  status: p.status,
  source: p.source,
  // The row's dates are never null: strings, as runners.pipelines.byIds answers them (its contract).
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
  web_url: `${projectWebUrl}/-/pipelines/${p.id}`,
});

const seconds = (a: Date | null, b: Date | null) => (a && b ? (b.getTime() - a.getTime()) / 1000 : null);

/** A job of GET /runners/:id/jobs (GitLab's JobBasicWithProject). */
export function presentRunnerJob(
  j: JobRow,
  p: PipelineRow,
  project: { id: number; description: string | null; name: string; name_with_namespace: string; path: string; path_with_namespace: string; created_at: string | null; web_url: string },
  user: UserRef | null,
) {
  const pipeline = presentPipelineBasic(p, project.web_url);
  return {
    id: j.id,
    status: j.status,
    stage: j.stage,
    name: j.name,
    ref: j.ref,
    tag: j.tag,
    coverage: j.coverage,
    allow_failure: j.allowFailure,
    created_at: j.createdAt.toISOString(),
    started_at: iso(j.startedAt),
    finished_at: iso(j.finishedAt),
    erased_at: null,
    duration: seconds(j.startedAt, j.finishedAt ?? (j.startedAt ? new Date() : null)),
    queued_duration: seconds(j.createdAt, j.startedAt),
    user,
    commit: {
      id: p.sha,
      short_id: p.sha.slice(0, 8),
      created_at: p.createdAt.toISOString(),
      parent_ids: [] as string[],
      title: "",
      message: "",
      author_name: "",
      author_email: "",
      authored_date: p.createdAt.toISOString(),
      committer_name: "",
      committer_email: "",
      committed_date: p.createdAt.toISOString(),
      trailers: {},
      extended_trailers: {},
      web_url: `${project.web_url}/-/commit/${p.sha}`,
    },
    pipeline,
    web_url: `${project.web_url}/-/jobs/${j.id}`,
    project: { id: project.id, description: project.description, name: project.name, name_with_namespace: project.name_with_namespace, path: project.path, path_with_namespace: project.path_with_namespace, created_at: project.created_at },
  };
}
