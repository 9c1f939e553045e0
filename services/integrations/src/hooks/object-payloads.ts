import type { Enriched } from "./enrich";
import { hookProject, hookUser, type HookProject } from "./payloads";

/** `runners.job.status_changed`, as the Job Hook reads it. */
export interface JobEvent {
  job_id: number;
  pipeline_id: number;
  project_id: number;
  name: string;
  stage: string;
  status: string;
  ref: string;
  tag: boolean;
  sha: string;
  user_id: number | null;
  allow_failure: boolean;
  runner: { id: number; description: string; active: boolean; runner_type: string; is_shared: boolean; tags: string[] } | null;
  pipeline_status: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

const seconds = (from: string | null, to: string | null) => (from && to ? (new Date(to).getTime() - new Date(from).getTime()) / 1000 : null);

/** GitLab's Job Hook body (Gitlab::DataBuilder::Build): the job, its pipeline (`commit`), runner, project and repository. */
export function jobHookData(project: HookProject, e: Enriched, p: JobEvent): Record<string, unknown> {
  const shown = hookProject(project);
  const user = p.user_id === null ? null : hookUser(e.users.get(p.user_id), p.user_id);
  return {
    object_kind: "build",
    ref: p.ref,
    tag: p.tag,
    before_sha: "0".repeat(40),
    sha: p.sha,
    retries_count: 0,
    build_id: p.job_id,
    build_name: p.name,
    build_stage: p.stage,
    build_status: p.status,
    build_created_at: p.created_at,
    build_created_at_iso: p.created_at,
    build_started_at: p.started_at,
    build_started_at_iso: p.started_at,
    build_finished_at: p.finished_at,
    build_finished_at_iso: p.finished_at,
    build_duration: seconds(p.started_at, p.finished_at),
    build_queued_duration: seconds(p.created_at, p.started_at),
    build_allow_failure: p.allow_failure,
    build_failure_reason: p.status === "failed" ? "script_failure" : null,
    pipeline_id: p.pipeline_id,
    project_id: p.project_id,
    project_name: `${project.namespace_name} / ${project.name}`,
    user,
    commit: { id: p.pipeline_id, name: null, sha: p.sha, status: p.pipeline_status, duration: null, started_at: null, started_at_iso: null, finished_at: null, finished_at_iso: null },
    repository: { name: shown.name, description: shown.description, homepage: shown.homepage, git_ssh_url: shown.git_ssh_url, git_http_url: shown.git_http_url, visibility_level: shown.visibility_level },
    project: shown,
    runner: p.runner,
    environment: null,
  };
}

/** A milestone event's payload (namespaces' contract), as the Milestone Hook reads it. */
export interface MilestoneEvent {
  id: number;
  iid: number;
  title: string;
  projectId: number | null;
  groupId: number | null;
  userId: number;
}

/** GitLab's Milestone Hook body: the milestone as it is now (as the event knew it, once deleted). */
export function milestoneHookData(project: HookProject, e: Enriched, p: MilestoneEvent, action: string): Record<string, unknown> {
  const m = e.milestones.get(p.id);
  return {
    object_kind: "milestone",
    event_type: "milestone",
    project: hookProject(project),
    object_attributes: {
      id: p.id,
      iid: p.iid,
      title: m?.title ?? p.title,
      description: m?.description ?? null,
      state: action === "close" ? "closed" : action === "reopen" ? "active" : (m?.state ?? "active"),
      created_at: m?.created_at ?? null,
      updated_at: m?.updated_at ?? null,
      due_date: m?.due_date ?? null,
      start_date: m?.start_date ?? null,
      group_id: p.groupId,
      project_id: p.projectId,
    },
    action,
  };
}
