import type { Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";

/**
 * What other services learn from namespaces, emitted after the writing transaction has committed.
 * Label and milestone deletions go to one replica of each subscribing service:
 *   namespaces.label.deleted      { labelIds: number[], projectId: number | null, groupId: number | null }
 *   namespaces.milestone.deleted  { milestoneIds: number[], projectId: number | null, groupId: number | null, userId: number }
 * Ids are never reused, so a late or repeated event can only touch links to what is gone. The
 * issues service drops the label links and unsets the milestone of the issues that carried them
 * (a group's label or milestone may be on issues of any project below it: the ids cover them all).
 */
export const NAMESPACES_EVENTS = {
  projectDeleted: "namespaces.project.deleted",
  /** `{ groupIds }`: a deleted group and all its subgroups (their projects each had projectDeleted). */
  groupDeleted: "namespaces.group.deleted",
  membersChanged: "namespaces.members.changed",
  labelDeleted: "namespaces.label.deleted",
  milestoneDeleted: "namespaces.milestone.deleted",
  /** `{ projectId, branch, before, after, userId }`: a branch head moved (a commit, a merge). */
  branchPushed: "namespaces.branch.pushed",
} as const;

export interface LabelDeletedEvent {
  labelIds: number[];
  projectId: number | null;
  groupId: number | null;
}

export interface MilestoneDeletedEvent {
  milestoneIds: number[];
  projectId: number | null;
  groupId: number | null;
  /** Who deleted it: the issues that lose the milestone are updated by them, as in GitLab. */
  userId: number;
}

/**
 * Emits after the commit. Awaited, so that in one process the subscribers have run when the
 * DELETE answers; a failure to publish is logged and does not fail the deletion, which stands.
 */
export async function notifyDeletion(kit: ServiceKit, ctx: Ctx<unknown>, event: string, payload: LabelDeletedEvent | MilestoneDeletedEvent) {
  try {
    await ctx.emit(event, payload);
  } catch (err) {
    kit.logger.warn({ err: (err as Error).message, event, payload }, "event after a label/milestone deletion failed");
  }
}
