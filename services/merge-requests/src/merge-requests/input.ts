import { type Ctx } from "@collab/core";
import { resolveWorkItemInput, type ProjectAccess, visibleProjectId } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { closingIssueRefs as parseClosingRefs, issueRefs, type ClosingRef } from "./closing-pattern";
import type { CreateMergeRequestParams, UpdateMergeRequestParams } from "@collab/merge-requests-contract";
import type { MergeRequestInput } from "./writes";

type WriteParams = CreateMergeRequestParams | UpdateMergeRequestParams;

/** An issue a merge request references, by project id and iid, and whether it closes it on merge. */
export interface IssueRef {
  projectId: number;
  iid: number;
  closes: boolean;
}

/**
 * The issues these texts reference, by project id and iid, in order, once each; `closing`: those a
 * description closes (GitLab's closing pattern). References to projects the caller cannot see are dropped.
 */
export async function resolveIssueRefs(ctx: Ctx<unknown>, project: ProjectAccess["project"], texts: (string | null)[], closing: ClosingRef[] = []): Promise<IssueRef[]> {
  const refs = [...closing.map((r) => ({ ...r, closes: true })), ...issueRefs(texts).map((r) => ({ ...r, closes: false }))];
  const home = project.path_with_namespace.toLowerCase();
  const paths = [...new Set(refs.map((r) => r.projectPath).filter((p): p is string => p !== null && p.toLowerCase() !== home))];
  const ids = new Map<string, number | null>(await Promise.all(paths.map(async (p) => [p, await visibleProjectId(ctx, p)] as const)));
  const out = new Map<string, IssueRef>();
  for (const r of refs) {
    const projectId = r.projectPath === null || r.projectPath.toLowerCase() === home ? project.id : ids.get(r.projectPath);
    // Closing refs come first: a closing reference wins over a mention of the same issue.
    if (projectId && !out.has(`${projectId}:${r.iid}`)) out.set(`${projectId}:${r.iid}`, { projectId, iid: r.iid, closes: r.closes });
  }
  return [...out.values()];
}

/** Issues a description references, those it closes marked `closes` (see resolveIssueRefs). */
export const resolveClosingRefs = (ctx: Ctx<unknown>, project: ProjectAccess["project"], description: string | null) =>
  resolveIssueRefs(ctx, project, [description], parseClosingRefs(description));

/**
 * Turns request params into a MergeRequestInput: label names resolved (unknown ones created),
 * assignees and reviewers kept when they can see the project, the milestone checked, and fields
 * the caller may not set (`admin`: labels, assignees, reviewers, milestone, lock) dropped, as
 * GitLab's filter_params does. CE keeps one assignee.
 */
export async function buildInput(kit: ServiceKit, ctx: Ctx<unknown>, access: ProjectAccess, p: WriteParams, admin: boolean, current?: { labelIds: number[] }): Promise<MergeRequestInput> {
  const input: MergeRequestInput = {};
  if (p.title !== undefined) input.title = p.title;
  if (p.description !== undefined) {
    input.description = p.description;
    input.closingRefs = await resolveClosingRefs(ctx, access.project, p.description);
  }
  // On create the branches are checked and set by the action; only an update changes the target.
  if ("merge_request_iid" in p && p.target_branch !== undefined) input.targetBranch = p.target_branch;
  if ("state_event" in p && p.state_event !== undefined) input.stateEvent = p.state_event;
  if (p.remove_source_branch !== undefined) input.forceRemoveSourceBranch = p.remove_source_branch;
  const collaboration = p.allow_collaboration ?? p.allow_maintainer_to_push;
  if (collaboration !== undefined) input.allowCollaboration = collaboration;
  if (p.squash !== undefined) input.squash = p.squash;
  if (p.merge_after !== undefined) input.mergeAfter = p.merge_after;
  if ("approvals_before_merge" in p && p.approvals_before_merge !== undefined && kit.config.LICENSE_TIER !== "free") input.approvalsBeforeMerge = p.approvals_before_merge;
  if (!admin) return input;
  if ("discussion_locked" in p && p.discussion_locked !== undefined) input.discussionLocked = p.discussion_locked;

  const assignees = p.assignee_ids ?? (p.assignee_id === undefined ? undefined : p.assignee_id === null ? [] : [p.assignee_id]);
  // Assignees, reviewers, milestone and labels are the namespaces service's to check: one call.
  const wanted = [...(assignees ?? []), ...(p.reviewer_ids ?? [])];
  const resolved = await resolveWorkItemInput(ctx, access.project.id, { userIds: wanted, milestoneId: p.milestone_id, labels: p }, current?.labelIds);
  const readable = (ids: number[]) => [...new Set(ids.filter((id) => id > 0 && resolved.levels[id]?.can_read))];
  if (assignees !== undefined) {
    const ids = readable(assignees);
    input.assigneeIds = kit.config.LICENSE_TIER === "free" ? ids.slice(0, 1) : ids;
  }
  if (p.reviewer_ids !== undefined) input.reviewerIds = readable(p.reviewer_ids);
  // A milestone that is not the project's (or its groups') unassigns, as GitLab's filter_milestone does.
  if (resolved.milestoneId !== undefined) input.milestoneId = resolved.milestoneId;
  if (resolved.labelIds !== undefined) input.labelIds = resolved.labelIds;
  return input;
}
