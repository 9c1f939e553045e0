import { AccessLevel, forbidden, implement, page, recordNotFound, requireCaller, validationFailed, type Ctx } from "@collab/core";
import { assertWritable } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import type { MergeRequestRow } from "../db/schema";
import { loadMergeRequest, mergeRequestsProject } from "../domain/load";
import { canUpdateMergeRequest } from "../domain/permissions";
import { presentMergeRequestRule, presentProjectRule, presentSettings } from "./approvals.entity";
import { MergeRequests } from "@collab/merge-requests-contract";
import { ruleLookups } from "./lookups";
import {
  assertValid,
  createMergeRequestRule,
  createProjectRule,
  deleteMergeRequestRule,
  deleteProjectRule,
  resolveGroups,
  resolveProtectedBranches,
  resolveUsers,
  updateMergeRequestRule,
  updateProjectRule,
} from "./rules";
import { mergeRequestRulesOf, projectRulesOf, type MergeRequestRule, type ProjectRule } from "./rules.store";
import { settingsOf, updateSettings } from "./settings";
import { requireApprovalRules } from "./tier";

/** The project, for callers who read its merge requests; Maintainers and up when `write`. */
async function approvalProject(kit: ServiceKit, ctx: Ctx<unknown>, ref: string, write: boolean) {
  requireApprovalRules(kit);
  const { access } = await mergeRequestsProject(ctx, ref);
  if (write) {
    if (access.role < AccessLevel.MAINTAINER) throw forbidden();
    assertWritable(access);
  }
  return access.project;
}

/** A rule of the project the path names: a rule id of another project is 404. */
async function projectRule(kit: ServiceKit, projectId: number, ruleId: number): Promise<ProjectRule> {
  const [rule] = await projectRulesOf(kit.db, [], [ruleId]);
  if (!rule || rule.projectId !== projectId) throw recordNotFound();
  return rule;
}

async function presentProjectRules(ctx: Ctx<unknown>, projectId: number, rules: ProjectRule[]) {
  const l = await ruleLookups(ctx, projectId, rules);
  return rules.map((r) => presentProjectRule(r, l));
}

async function presentMergeRequestRules(kit: ServiceKit, ctx: Ctx<unknown>, projectId: number, rules: MergeRequestRule[]) {
  const sourceIds = rules.flatMap((r) => (r.approvalProjectRuleId ? [r.approvalProjectRuleId] : []));
  const [l, sources] = await Promise.all([ruleLookups(ctx, projectId, rules), sourceIds.length ? projectRulesOf(kit.db, [], sourceIds) : Promise.resolve([])]);
  const byId = new Map(sources.map((s) => [s.id, s]));
  return rules.map((r) => presentMergeRequestRule(r, r.approvalProjectRuleId ? byId.get(r.approvalProjectRuleId) : undefined, l));
}

/**
 * Merge-request-level rules are changed by those who may update the merge request, unless the
 * project disables overriding approvers per merge request (403, as GitLab refuses it).
 */
async function editableMergeRequest(kit: ServiceKit, ctx: Ctx<{ id: string; merge_request_iid: number }>) {
  requireApprovalRules(kit);
  requireCaller(ctx);
  const loaded = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
  if (!canUpdateMergeRequest(loaded.actor, loaded.mergeRequest) || loaded.mergeRequest.state === "merged") throw forbidden();
  assertWritable(loaded.access);
  const settings = (await settingsOf(kit.db, [loaded.mergeRequest.projectId])).get(loaded.mergeRequest.projectId)!;
  if (settings.disableOverridingApproversPerMergeRequest) throw forbidden();
  return loaded;
}

async function mergeRequestRule(kit: ServiceKit, mr: MergeRequestRow, ruleId: number): Promise<MergeRequestRule> {
  const rule = (await mergeRequestRulesOf(kit.db, [mr.id])).find((r) => r.id === ruleId);
  if (!rule) throw recordNotFound();
  return rule;
}

/** Project approval settings, project approval rules and merge-request-level rules (Premium+). */
export const approvalRulesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "approvalSettings.get": implement(
    MergeRequests.approvalSettings.get,
    async (ctx) => {
      const project = await approvalProject(kit, ctx, ctx.params.id, false);
      return presentSettings((await settingsOf(kit.db, [project.id])).get(project.id)!);
    },
    { visibility: "published" },
  ),

  "approvalSettings.update": implement(
    MergeRequests.approvalSettings.update,
    async (ctx) => {
      const project = await approvalProject(kit, ctx, ctx.params.id, true);
      const current = (await settingsOf(kit.db, [project.id])).get(project.id)!;
      const resetOnPush = ctx.params.reset_approvals_on_push ?? current.resetApprovalsOnPush;
      const selective = ctx.params.selective_code_owner_removals ?? current.selectiveCodeOwnerRemovals;
      if (selective && resetOnPush) throw validationFailed({ selective_code_owner_removals: ["can only be enabled when reset_approvals_on_push is disabled"] });
      return presentSettings(await updateSettings(kit.db, current, ctx.params));
    },
    { visibility: "published" },
  ),

  "projectRules.list": implement(
    MergeRequests.projectRules.list,
    async (ctx) => {
      const project = await approvalProject(kit, ctx, ctx.params.id, false);
      const rules = await projectRulesOf(kit.db, [project.id]);
      const start = (ctx.params.page - 1) * ctx.params.per_page;
      return page(await presentProjectRules(ctx, project.id, rules.slice(start, start + ctx.params.per_page)), rules.length, ctx.params);
    },
    { visibility: "published" },
  ),

  "projectRules.get": implement(
    MergeRequests.projectRules.get,
    async (ctx) => {
      const project = await approvalProject(kit, ctx, ctx.params.id, false);
      const [presented] = await presentProjectRules(ctx, project.id, [await projectRule(kit, project.id, ctx.params.approval_rule_id)]);
      return presented;
    },
    { visibility: "published" },
  ),

  "projectRules.create": implement(
    MergeRequests.projectRules.create,
    async (ctx) => {
      const project = await approvalProject(kit, ctx, ctx.params.id, true);
      const p = ctx.params;
      assertValid(p, true);
      const links = {
        userIds: (await resolveUsers(ctx, project.id, p)) ?? [],
        groupIds: (await resolveGroups(ctx, p.group_ids, [], true)) ?? [],
        // applies_to_all_protected_branches makes protected_branch_ids moot (GitLab ignores them).
        protectedBranchIds: p.applies_to_all_protected_branches ? [] : ((await resolveProtectedBranches(ctx, project.id, p.protected_branch_ids)) ?? []),
      };
      const id = await createProjectRule(kit.db, project.id, p, links);
      const [presented] = await presentProjectRules(ctx, project.id, [await projectRule(kit, project.id, id)]);
      return presented;
    },
    { visibility: "published" },
  ),

  "projectRules.update": implement(
    MergeRequests.projectRules.update,
    async (ctx) => {
      const project = await approvalProject(kit, ctx, ctx.params.id, true);
      const rule = await projectRule(kit, project.id, ctx.params.approval_rule_id);
      const p = ctx.params;
      assertValid(p, false);
      const allBranches = p.applies_to_all_protected_branches ?? rule.appliesToAllProtectedBranches;
      const links = {
        userIds: await resolveUsers(ctx, project.id, p),
        groupIds: await resolveGroups(ctx, p.group_ids, rule.groupIds, p.remove_hidden_groups ?? false),
        protectedBranchIds: allBranches ? [] : await resolveProtectedBranches(ctx, project.id, p.protected_branch_ids),
      };
      await updateProjectRule(kit.db, rule.id, p, links);
      const [presented] = await presentProjectRules(ctx, project.id, [await projectRule(kit, project.id, rule.id)]);
      return presented;
    },
    { visibility: "published" },
  ),

  "projectRules.delete": implement(
    MergeRequests.projectRules.delete,
    async (ctx) => {
      const project = await approvalProject(kit, ctx, ctx.params.id, true);
      const rule = await projectRule(kit, project.id, ctx.params.approval_rule_id);
      await deleteProjectRule(kit.db, rule.id);
      return null;
    },
    { visibility: "published" },
  ),

  "mergeRequestRules.list": implement(
    MergeRequests.mergeRequestRules.list,
    async (ctx) => {
      requireApprovalRules(kit);
      const { mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const rules = await mergeRequestRulesOf(kit.db, [mergeRequest.id]);
      const start = (ctx.params.page - 1) * ctx.params.per_page;
      return page(await presentMergeRequestRules(kit, ctx, mergeRequest.projectId, rules.slice(start, start + ctx.params.per_page)), rules.length, ctx.params);
    },
    { visibility: "published" },
  ),

  "mergeRequestRules.get": implement(
    MergeRequests.mergeRequestRules.get,
    async (ctx) => {
      requireApprovalRules(kit);
      const { mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const [presented] = await presentMergeRequestRules(kit, ctx, mergeRequest.projectId, [await mergeRequestRule(kit, mergeRequest, ctx.params.approval_rule_id)]);
      return presented;
    },
    { visibility: "published" },
  ),

  "mergeRequestRules.create": implement(
    MergeRequests.mergeRequestRules.create,
    async (ctx) => {
      const { mergeRequest } = await editableMergeRequest(kit, ctx);
      const p = ctx.params;
      assertValid(p, true);
      let source: ProjectRule | undefined;
      if (p.approval_project_rule_id !== undefined) {
        [source] = await projectRulesOf(kit.db, [], [p.approval_project_rule_id]);
        if (!source || source.projectId !== mergeRequest.projectId) throw validationFailed({ approval_project_rule: ["must be a rule of the merge request's project"] });
      }
      // Approvers not given are taken from the source rule, as GitLab copies them.
      const userIds = (await resolveUsers(ctx, mergeRequest.projectId, p)) ?? source?.userIds ?? [];
      const groupIds = (await resolveGroups(ctx, p.group_ids, [], true)) ?? source?.groupIds ?? [];
      const id = await createMergeRequestRule(kit.db, mergeRequest.id, { ...p, rule_type: source?.ruleType, report_type: source?.reportType }, { userIds, groupIds });
      const [presented] = await presentMergeRequestRules(kit, ctx, mergeRequest.projectId, [await mergeRequestRule(kit, mergeRequest, id)]);
      return presented;
    },
    { visibility: "published" },
  ),

  "mergeRequestRules.update": implement(
    MergeRequests.mergeRequestRules.update,
    async (ctx) => {
      const { mergeRequest } = await editableMergeRequest(kit, ctx);
      const rule = await mergeRequestRule(kit, mergeRequest, ctx.params.approval_rule_id);
      if (rule.ruleType === "report_approver" || rule.ruleType === "code_owner") throw forbidden();
      const p = ctx.params;
      assertValid(p, false);
      await updateMergeRequestRule(kit.db, rule.id, p, {
        userIds: await resolveUsers(ctx, mergeRequest.projectId, p),
        groupIds: await resolveGroups(ctx, p.group_ids, rule.groupIds, p.remove_hidden_groups ?? false),
      });
      const [presented] = await presentMergeRequestRules(kit, ctx, mergeRequest.projectId, [await mergeRequestRule(kit, mergeRequest, rule.id)]);
      return presented;
    },
    { visibility: "published" },
  ),

  "mergeRequestRules.delete": implement(
    MergeRequests.mergeRequestRules.delete,
    async (ctx) => {
      const { mergeRequest } = await editableMergeRequest(kit, ctx);
      const rule = await mergeRequestRule(kit, mergeRequest, ctx.params.approval_rule_id);
      if (rule.ruleType === "report_approver" || rule.ruleType === "code_owner") throw forbidden();
      await deleteMergeRequestRule(kit.db, rule.id);
      return null;
    },
    { visibility: "published" },
  ),
});
