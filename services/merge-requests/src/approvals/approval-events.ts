import { announce } from "@collab/core";
import type { Announcement } from "@collab/db";
import { MergeRequests } from "@collab/merge-requests-contract";
import { addSystemNote } from "../domain/activity";
import type { MergeRequestRow } from "../db/schema";

/** The event of each approval change (MergeRequests.events). */
const APPROVAL_EVENTS = {
  approved: MergeRequests.events.mergeRequestApproved,
  unapproved: MergeRequests.events.mergeRequestUnapproved,
  approvalsReset: MergeRequests.events.mergeRequestApprovalsReset,
} as const;

export type ApprovalChange = "approved" | "unapproved" | "approvalsReset";

/** The system note body GitLab writes for an approval change; reset writes none. */
export function approvalSystemNote(kind: ApprovalChange): string | null {
  if (kind === "approved") return "approved this merge request";
  if (kind === "unapproved") return "unapproved this merge request";
  return null;
}

/** The approval change's system note, in the transaction that changes the approvals. */
export async function noteApprovalChange(tx: Parameters<typeof addSystemNote>[0], mr: MergeRequestRow, kind: ApprovalChange, actorId: number): Promise<void> {
  const body = approvalSystemNote(kind);
  if (body) await addSystemNote(tx, mr, actorId, body);
}

/** The durable event of an approval change, written with it (kit.events.transact). */
export const approvalChange = (mr: MergeRequestRow, kind: ApprovalChange, actorId: number): Announcement =>
  announce(APPROVAL_EVENTS[kind], { id: mr.id, iid: mr.iid, project_id: mr.projectId, actor_id: actorId, title: mr.title });
