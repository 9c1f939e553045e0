import { preparedQuery, type Db } from "@collab/db";
import { sql } from "drizzle-orm";
import { approvalProjectSettings, type ApprovalSettingsRow } from "../db/schema";

/** GitLab's defaults for a project that never changed its approval settings. */
export const defaultSettings = (projectId: number): ApprovalSettingsRow => ({
  projectId,
  approvalsBeforeMerge: 0,
  resetApprovalsOnPush: true,
  selectiveCodeOwnerRemovals: false,
  disableOverridingApproversPerMergeRequest: false,
  mergeRequestsAuthorApproval: false,
  mergeRequestsDisableCommittersApproval: false,
  requireReauthenticationToApprove: false,
});

const settingsRows = preparedQuery((db: Db) =>
  db
    .select()
    .from(approvalProjectSettings)
    .where(sql`${approvalProjectSettings.projectId} = ANY(${sql.placeholder("ids")}::int[])`)
    .prepare("merge_requests_approval_settings_of"),
);

/** Each project's approval settings (GitLab's defaults where none were saved): a prepared statement. */
export async function settingsOf(db: Db, projectIds: number[]): Promise<Map<number, ApprovalSettingsRow>> {
  const ids = [...new Set(projectIds)];
  const rows = ids.length ? await settingsRows(db, { ids }) : [];
  const out = new Map(ids.map((id) => [id, defaultSettings(id)]));
  for (const r of rows) out.set(r.projectId, r);
  return out;
}

export interface SettingsInput {
  approvals_before_merge?: number;
  reset_approvals_on_push?: boolean;
  selective_code_owner_removals?: boolean;
  disable_overriding_approvers_per_merge_request?: boolean;
  merge_requests_author_approval?: boolean;
  merge_requests_disable_committers_approval?: boolean;
  require_password_to_approve?: boolean;
  require_reauthentication_to_approve?: boolean;
}

/** Applies the given settings over the current ones (an upsert of the project's row). */
export async function updateSettings(db: Db, current: ApprovalSettingsRow, p: SettingsInput): Promise<ApprovalSettingsRow> {
  const next: ApprovalSettingsRow = {
    projectId: current.projectId,
    approvalsBeforeMerge: p.approvals_before_merge ?? current.approvalsBeforeMerge,
    resetApprovalsOnPush: p.reset_approvals_on_push ?? current.resetApprovalsOnPush,
    selectiveCodeOwnerRemovals: p.selective_code_owner_removals ?? current.selectiveCodeOwnerRemovals,
    disableOverridingApproversPerMergeRequest: p.disable_overriding_approvers_per_merge_request ?? current.disableOverridingApproversPerMergeRequest,
    mergeRequestsAuthorApproval: p.merge_requests_author_approval ?? current.mergeRequestsAuthorApproval,
    mergeRequestsDisableCommittersApproval: p.merge_requests_disable_committers_approval ?? current.mergeRequestsDisableCommittersApproval,
    // require_password_to_approve is the deprecated name of the same setting.
    requireReauthenticationToApprove: p.require_reauthentication_to_approve ?? p.require_password_to_approve ?? current.requireReauthenticationToApprove,
  };
  const [row] = await db.insert(approvalProjectSettings).values(next).onConflictDoUpdate({ target: approvalProjectSettings.projectId, set: next }).returning();
  return row;
}
