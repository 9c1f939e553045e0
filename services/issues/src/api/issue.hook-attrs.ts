import { issuableHookAttrs, STATE_IDS } from "@collab/core";
import type { IssueHookAttrs } from "@collab/issues-contract";
import type { IssueRow } from "../db/schema";

/** GitLab's work item type names of issue types. */
const TYPES: Record<string, string> = { issue: "Issue", incident: "Incident", test_case: "TestCase", requirement: "Requirement", task: "Task", objective: "Objective", key_result: "KeyResult" };
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** An issue as webhooks show it (GitLab's IssueBuilder), its label and assignee ids with it. */
export function presentIssueHookAttrs(i: IssueRow & { labelIds: number[]; assigneeIds: number[] }): IssueHookAttrs {
  return {
    id: i.id,
    iid: i.iid,
    project_id: i.projectId,
    title: i.title,
    description: i.description,
    author_id: i.authorId,
    assignee_ids: i.assigneeIds,
    assignee_id: i.assigneeIds[0] ?? null,
    milestone_id: i.milestoneId,
    state: i.state,
    state_id: STATE_IDS[i.state] ?? STATE_IDS.opened,
    confidential: i.confidential,
    discussion_locked: i.discussionLocked,
    due_date: i.dueDate,
    moved_to_id: i.movedToId,
    duplicated_to_id: i.duplicatedToId,
    relative_position: i.relativePosition,
    weight: i.weight,
    health_status: i.healthStatus,
    severity: i.severity.toLowerCase(),
    type: TYPES[i.issueType] ?? "Issue",
    closed_at: iso(i.closedAt),
    ...issuableHookAttrs(i),
    label_ids: i.labelIds,
  };
}
