import { accepted, AccessLevel, implement, callerOf, conflict, notFound, notModified, requireCaller, unauthorized, type Ctx } from "@collab/core";
import { assertWritable, userMap } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { and, eq } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { approvals, type MergeRequestRow } from "../db/schema";
import { loadMergeRequest } from "../domain/load";
import { mergeStatus as mergeStatusOf, type MergeFacts } from "../merge-requests/merge-status";
import { approvalChange, noteApprovalChange } from "./approval-events";
import { presentApprovals, presentApprovalState } from "./approvals.entity";
import { MergeRequests } from "@collab/merge-requests-contract";
import { eligibleToApprove } from "./compute";
import { ruleLookups } from "./lookups";
import { passwordMatches, userTypes } from "./remote";
import { projectRulesOf } from "./rules.store";
import { approvalStates, type ApprovalState } from "./state";
import { approvalRulesAvailable, requireApprovalRules } from "./tier";
import { setReviewerState } from "../merge-requests/reviewers";

const RESOURCE_TOKEN_BOTS = ["project_bot", "group_bot"];

async function stateOf(kit: ServiceKit, ctx: Ctx<unknown>, mr: MergeRequestRow): Promise<ApprovalState> {
  return (await approvalStates(kit, ctx, [mr])).get(mr.id)!;
}

/** Whether the caller may approve now: an open merge request, not yet approved by them, and eligible. */
function callerCanApprove(state: ApprovalState, callerId: number | null): boolean {
  if (callerId === null || state.mergeRequest.state !== "opened") return false;
  if (state.approvals.some((a) => a.userId === callerId)) return false;
  return eligibleToApprove(state.evaluation.rules.map((r) => r.rule), callerId, state.policy);
}

async function presentFor(kit: ServiceKit, ctx: Ctx<unknown>, state: ApprovalState) {
  const callerId = callerOf(ctx)?.id ?? null;
  const mr = state.mergeRequest;
  const users = await userMap(ctx, state.approvals.map((a) => a.userId));
  // The git state as stored on the row (refreshed on every push).
  const mergeStatus = mergeStatusOf({ sourceBranchExists: mr.sourceBranchExists, gitStatus: mr.mergeStatus as MergeFacts["gitStatus"] });
  return presentApprovals(state, { users, callerId, callerCanApprove: callerCanApprove(state, callerId), premium: approvalRulesAvailable(kit), mergeStatus });
}

/** Approve, unapprove and reset; the approvals object and the approval state. */
export const approvalsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "approvals.get": implement(
    MergeRequests.approvals.get,
    async (ctx) => {
      const { mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      return presentFor(kit, ctx, await stateOf(kit, ctx, mergeRequest));
    },
    { visibility: "published" },
  ),

  "approvals.state": implement(
    MergeRequests.approvals.state,
    async (ctx) => {
      requireApprovalRules(kit);
      const { mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const state = await stateOf(kit, ctx, mergeRequest);
      const views = state.evaluation.rules.map((r) => ({ ...r.rule, protectedBranchIds: r.rule.source.kind === "project" ? r.rule.source.rule.protectedBranchIds : [] }));
      const sourceIds = state.evaluation.rules.flatMap((r) => (r.rule.source.kind === "merge_request" && r.rule.source.rule.approvalProjectRuleId ? [r.rule.source.rule.approvalProjectRuleId] : []));
      const [lookups, sources] = await Promise.all([
        ruleLookups(ctx, mergeRequest.projectId, views, state.evaluation.rules.flatMap((r) => r.approvedBy)),
        sourceIds.length ? projectRulesOf(kit.db, [], sourceIds) : Promise.resolve([]),
      ]);
      return presentApprovalState(state, lookups, new Map(sources.map((s) => [s.id, s])));
    },
    { visibility: "published" },
  ),

  /**
   * 304 when the caller already approved; 409 when `sha` is not the source branch head; 401 when
   * the caller may not approve (closed or merged, not an eligible approver, the author without
   * author approval, a committer with committers' approval disabled) or when re-authentication is
   * required and approval_password is wrong; 201 with the approvals object.
   */
  "approvals.approve": implement(
    MergeRequests.approvals.approve,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { access, mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      assertWritable(access);
      const state = await stateOf(kit, ctx, mergeRequest);
      if (state.approvals.some((a) => a.userId === caller.id)) throw notModified();
      if (ctx.params.sha !== undefined && ctx.params.sha !== mergeRequest.sha) throw conflict(`SHA does not match HEAD of source branch: ${mergeRequest.sha ?? ""}`);
      if (!callerCanApprove(state, caller.id)) throw unauthorized();
      if (approvalRulesAvailable(kit) && state.settings.requireReauthenticationToApprove) {
        const password = ctx.params.approval_password;
        if (!password || !(await passwordMatches(ctx, caller.id, password))) throw unauthorized();
      }
      const inserted = await kit.events.transact(
        async (tx) => {
          const rows = await tx.insert(approvals).values({ mergeRequestId: mergeRequest.id, userId: caller.id }).onConflictDoNothing().returning();
          if (rows.length) {
            await noteApprovalChange(tx, mergeRequest, "approved", caller.id);
            await setReviewerState(tx, mergeRequest.id, caller.id, "approved");
          }
          return rows;
        },
        (rows) => (rows.length ? [approvalChange(mergeRequest, "approved", caller.id)] : []),
      );
      if (!inserted.length) throw notModified();
      return presentFor(kit, ctx, await stateOf(kit, ctx, mergeRequest));
    },
    { visibility: "published" },
  ),

  /** 404 when the caller had not approved; 201 with the approvals object. */
  "approvals.unapprove": implement(
    MergeRequests.approvals.unapprove,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { access, mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      assertWritable(access);
      const removed = await kit.events.transact(
        async (tx) => {
          const rows = await tx
            .delete(approvals)
            .where(and(eq(approvals.mergeRequestId, mergeRequest.id), eq(approvals.userId, caller.id)))
            .returning();
          if (rows.length) {
            await noteApprovalChange(tx, mergeRequest, "unapproved", caller.id);
            await setReviewerState(tx, mergeRequest.id, caller.id, "unapproved");
          }
          return rows;
        },
        (rows) => (rows.length ? [approvalChange(mergeRequest, "unapproved", caller.id)] : []),
      );
      if (!removed.length) throw notFound();
      return presentFor(kit, ctx, await stateOf(kit, ctx, mergeRequest));
    },
    { visibility: "published" },
  ),

  /**
   * Only bot users of project or group access tokens (not service accounts, not people) may
   * reset, and not on a merged merge request: 401 otherwise. 202 Accepted.
   */
  "approvals.reset": implement(
    MergeRequests.approvals.reset,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { access, mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const type = caller.bot ? (await userTypes(ctx, [caller.id])).get(caller.id) : undefined;
      if (!type || !RESOURCE_TOKEN_BOTS.includes(type) || mergeRequest.state === "merged" || access.role < AccessLevel.GUEST) throw unauthorized();
      assertWritable(access);
      await kit.events.transact(
        (tx) => tx.delete(approvals).where(eq(approvals.mergeRequestId, mergeRequest.id)),
        () => [approvalChange(mergeRequest, "approvalsReset", caller.id)],
      );
      return accepted();
    },
    { visibility: "published" },
  ),
});
