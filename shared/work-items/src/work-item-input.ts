import { call, type Ctx } from "@collab/core";
import { Namespaces, type AccessOnProject, type LabelDetail, type MilestoneDetail, type WorkItemInputAnswer, type WorkItemInputRequest } from "@collab/namespaces-contract";

export interface LabelParams {
  labels?: string[];
  add_labels?: string[];
  remove_labels?: string[];
}

export interface WorkItemInputRefs {
  /** Users whose access to the project is asked (assignees, reviewers). */
  userIds?: number[];
  /** null unassigns without a lookup. */
  milestoneId?: number | null;
  labels?: LabelParams;
}

export interface ResolvedWorkItemInput {
  levels: AccessOnProject;
  /** The milestone when it is the project's or an ancestor group's, else null (GitLab's filter_milestone); undefined when not asked. */
  milestoneId?: number | null;
  /** The work item's label ids after the edit (see labelSetAfter); undefined when no label param was given. */
  labelIds?: number[];
  /** Every label and the milestone looked up, as labelAndMilestoneMaps gives them: known to present the answer. */
  labels: LabelDetail[];
  milestone?: MilestoneDetail;
}

/** The request for these refs, or undefined when nothing needs a lookup. */
export function workItemInputRequest(refs: WorkItemInputRefs): WorkItemInputRequest | undefined {
  const userIds = [...new Set((refs.userIds ?? []).filter((id) => id > 0))];
  const asked = refs.labels;
  const labels =
    asked && (asked.labels !== undefined || asked.add_labels !== undefined || asked.remove_labels !== undefined)
      ? { labels: asked.labels, add_labels: asked.add_labels, remove_labels: asked.remove_labels }
      : undefined;
  const milestoneId = typeof refs.milestoneId === "number" ? refs.milestoneId : undefined;
  if (!userIds.length && milestoneId === undefined && !labels) return undefined;
  return { ...(userIds.length ? { assignee_ids: userIds } : {}), ...(milestoneId !== undefined && { milestone_id: milestoneId }), ...(labels && { labels }) };
}

/** The refs as checked, from namespaces' answer (none when nothing was asked). */
export function resolvedWorkItemInput(found: WorkItemInputAnswer | undefined, refs: WorkItemInputRefs, currentLabelIds: number[] = []): ResolvedWorkItemInput {
  const l = found?.labels;
  return {
    levels: found?.assignee_levels ?? {},
    ...(refs.milestoneId !== undefined && { milestoneId: refs.milestoneId === null ? null : (found?.milestone?.id ?? null) }),
    ...(l && { labelIds: labelSetAfter(l, currentLabelIds) }),
    labels: l ? [...(l.labels ?? []), ...l.add_labels, ...l.remove_labels] : [],
    ...(found?.milestone && { milestone: found.milestone }),
  };
}

/**
 * What a work item write checks in the namespaces service — users' access, the milestone and the
 * labels its names resolve to (creating unknown ones) — in one call (namespaces.workItems.resolveInput),
 * or none when nothing is asked.
 */
export async function resolveWorkItemInput(ctx: Ctx<unknown>, projectId: number, refs: WorkItemInputRefs, currentLabelIds: number[] = []): Promise<ResolvedWorkItemInput> {
  const request = workItemInputRequest(refs);
  const found = request && (await call(ctx, Namespaces.workItems.resolveInput, { project_id: projectId, ...request }));
  return resolvedWorkItemInput(found, refs, currentLabelIds);
}

/** GitLab's order for label params: replace first, then add, then remove. */
export function labelSetAfter(found: { labels: { id: number }[] | null; add_labels: { id: number }[]; remove_labels: { id: number }[] }, currentIds: number[]): number[] {
  const base = found.labels ? found.labels.map((l) => l.id) : currentIds;
  const removeIds = new Set(found.remove_labels.map((l) => l.id));
  return [...new Set([...base, ...found.add_labels.map((l) => l.id)])].filter((id) => !removeIds.has(id));
}
