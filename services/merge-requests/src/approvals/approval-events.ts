import type { Ctx } from "@collab/core";
import type { MergeRequestRow } from "../db/schema";

export const APPROVAL_EVENTS = {
  approved: "merge-requests.merge_request.approved",
  unapproved: "merge-requests.merge_request.unapproved",
  approvalsReset: "merge-requests.merge_request.approvals_reset",
} as const;

export type ApprovalChange = "approved" | "unapproved" | "approvalsReset";

/** The system note body GitLab writes for an approval change; reset writes none. */
export function approvalSystemNote(kind: ApprovalChange): string | null {
  if (kind === "approved") return "approved this merge request";
  if (kind === "unapproved") return "unapproved this merge request";
  return null;
}

/**
 * MERGE-POINT(system notes): the notes table moves to a shared package; when it lands, write
 * `body` as a system note on the merge request by `actorId` here. Until then nothing is stored.
 */
async function writeApprovalSystemNote(_mergeRequest: MergeRequestRow, _actorId: number, _body: string): Promise<void> {}

/** The one place approval changes are announced: the domain event on the bus and the system note. */
export async function recordApprovalChange(ctx: Ctx<unknown>, mr: MergeRequestRow, kind: ApprovalChange, actorId: number): Promise<void> {
  const body = approvalSystemNote(kind);
  if (body) await writeApprovalSystemNote(mr, actorId, body);
  ctx.emit(APPROVAL_EVENTS[kind], { id: mr.id, iid: mr.iid, project_id: mr.projectId, actor_id: actorId });
}
