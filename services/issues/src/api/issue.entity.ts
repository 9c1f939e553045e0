import { iso, taskCompletion, taskStatus, timeStats, workItemReferences, type UserRef } from "@collab/core";
import type { Issue, IssueBasic, IssueEpic } from "@collab/issues-contract";
import { labelBasic, type LabelDetail, type MilestoneDetail, type WorkItemProject } from "@collab/work-items";
import type { IssueRow } from "../db/schema";

export type { LabelDetail, WorkItemProject };

/** Everything a page of issues needs besides its rows, loaded once per page. */
export interface IssuePresentation {
  baseUrl: string;
  projects: Map<number, WorkItemProject>;
  users: Map<number, UserRef>;
  labels: Map<number, LabelDetail>;
  milestones: Map<number, MilestoneDetail>;
  labelIds: Map<number, number[]>;
  assigneeIds: Map<number, number[]>;
  /** Where the request came from, for references.relative: a project id or a group's full path. */
  context: { projectId?: number; groupPath?: string };
  withLabelsDetails: boolean;
  /** Licensed tier: Premium adds weight/epic/iteration, Ultimate adds health_status. */
  tier: "free" | "premium" | "ultimate";
  /** Single-issue responses expose whether the caller is subscribed. */
  subscribed?: boolean;
  /** Merge requests closing each issue, by issue id (absent: 0). */
  mergeRequestsCounts?: Map<number, number>;
  /** Premium and up: the epic each issue shows, by issue id (absent: none, or one the caller may not read). */
  epics?: Map<number, IssueEpic>;
  /** Premium and up: how many open issues each issue blocks, by issue id (absent: 0). */
  blockingIssuesCounts?: Map<number, number>;
}

export function presentIssue(issue: IssueRow, p: IssuePresentation): Issue {
  const project = p.projects.get(issue.projectId);
  const assignees = (p.assigneeIds.get(issue.id) ?? []).map((id) => p.users.get(id)).filter((u): u is UserRef => u !== undefined);
  const labels = (p.labelIds.get(issue.id) ?? [])
    .map((id) => p.labels.get(id))
    .filter((l): l is LabelDetail => l !== undefined)
    .sort((a, b) => a.name.localeCompare(b.name));
  const tasks = taskCompletion(issue.description);
  const api = `${p.baseUrl}/api/v4/projects/${issue.projectId}/issues/${issue.iid}`;
  const premium = p.tier !== "free";
  // GitLab exposes an issue's epic where epics may be: a project of a group.
  const epicFields = premium && (project?.group_ids.length ?? 0) > 0;
  const epic = p.epics?.get(issue.id) ?? null;
  return {
    id: issue.id,
    iid: issue.iid,
    project_id: issue.projectId,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    created_at: iso(issue.createdAt),
    updated_at: iso(issue.updatedAt),
    closed_at: iso(issue.closedAt),
    closed_by: issue.closedById ? (p.users.get(issue.closedById) ?? null) : null,
    labels: p.withLabelsDetails ? labels.map(labelBasic) : labels.map((l) => l.name),
    milestone: issue.milestoneId ? (p.milestones.get(issue.milestoneId) ?? null) : null,
    assignees,
    author: p.users.get(issue.authorId) ?? null,
    type: issue.issueType.toUpperCase(),
    assignee: assignees[0] ?? null,
    user_notes_count: issue.userNotesCount,
    merge_requests_count: p.mergeRequestsCounts?.get(issue.id) ?? 0,
    upvotes: issue.upvotes,
    downvotes: issue.downvotes,
    due_date: issue.dueDate,
    confidential: issue.confidential,
    discussion_locked: issue.discussionLocked,
    issue_type: issue.issueType,
    web_url: `${project?.web_url ?? p.baseUrl}/-/issues/${issue.iid}`,
    time_stats: timeStats(issue.timeEstimate, issue.totalTimeSpent),
    task_completion_status: tasks,
    // What GitLab answers today (reference §4): has_tasks is true and task_status present even for
    // a description without checklist ("0 of 0 checklist items completed").
    has_tasks: true,
    task_status: taskStatus(tasks),
    _links: {
      self: api,
      notes: `${api}/notes`,
      award_emoji: `${api}/award_emoji`,
      project: `${p.baseUrl}/api/v4/projects/${issue.projectId}`,
      closed_as_duplicate_of: issue.duplicatedToId ? `${p.baseUrl}/api/v4/projects/${issue.projectId}/issues/${issue.duplicatedToId}` : null,
    },
    references: workItemReferences("#", issue.iid, project, issue.projectId, p.context),
    severity: issue.severity,
    ...(p.subscribed !== undefined ? { subscribed: p.subscribed } : {}),
    moved_to_id: issue.movedToId,
    imported: issue.imported,
    imported_from: issue.importedFrom,
    service_desk_reply_to: null,
    ...(premium
      ? { weight: issue.weight, ...(epicFields ? { epic_iid: epic?.iid ?? null, epic } : {}), iteration: null, blocking_issues_count: p.blockingIssuesCounts?.get(issue.id) ?? 0 }
      : {}),
    ...(p.tier === "ultimate" ? { health_status: issue.healthStatus } : {}),
  };
}

/** GitLab's IssueBasic (what an epic-issue association embeds): the issue without the fields IssueBasicSchema leaves out. */
export function issueBasic(issue: Issue): IssueBasic {
  const {
    has_tasks: _hasTasks,
    task_status: _taskStatus,
    _links: _l,
    subscribed: _subscribed,
    moved_to_id: _movedToId,
    imported: _imported,
    imported_from: _importedFrom,
    service_desk_reply_to: _replyTo,
    severity: _severity,
    epic_iid: _epicIid,
    epic: _epic,
    iteration: _iteration,
    health_status: _healthStatus,
    ...basic
  } = issue;
  return basic;
}
