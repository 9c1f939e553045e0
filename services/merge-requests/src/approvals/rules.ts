import { isUniqueViolation, validationFailed, type Ctx } from "@collab/core";
import { accessLevels, usersByUsername } from "@collab/work-items";
import type { Db } from "@collab/db";
import { and, eq, ne } from "drizzle-orm";
import {
  approvalMergeRequestRuleGroups,
  approvalMergeRequestRules,
  approvalMergeRequestRuleUsers,
  approvalProjectRuleGroups,
  approvalProjectRuleProtectedBranches,
  approvalProjectRules,
  approvalProjectRuleUsers,
} from "../db/schema";
import type { RuleInput } from "@collab/merge-requests-contract";
import { protectedBranchesByIds, visibleGroups } from "./remote";

export const MAX_NAME = 1024;
export const MAX_APPROVALS_REQUIRED = 100;

/** Model validations of GitLab's approval rules, as a render_validation_error! body. */
export function ruleErrors(p: RuleInput, creating: boolean): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, msg: string) => (errors[field] ??= []).push(msg);
  if (p.name !== undefined && p.name.trim() === "") add("name", "can't be blank");
  if (p.name !== undefined && p.name.length > MAX_NAME) add("name", `is too long (maximum is ${MAX_NAME} characters)`);
  if (p.approvals_required !== undefined && p.approvals_required < 0) add("approvals_required", "must be greater than or equal to 0");
  if (p.approvals_required !== undefined && p.approvals_required > MAX_APPROVALS_REQUIRED) add("approvals_required", `must be less than or equal to ${MAX_APPROVALS_REQUIRED}`);
  if (creating && p.rule_type === "report_approver" && !p.report_type) add("report_type", "can't be blank");
  return errors;
}

export function assertValid(p: RuleInput, creating: boolean) {
  const errors = ruleErrors(p, creating);
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** Approvers named by id or username who exist and can see the project (others are dropped, as GitLab). */
export async function resolveUsers(ctx: Ctx<unknown>, projectId: number, p: RuleInput): Promise<number[] | undefined> {
  if (p.user_ids === undefined && p.usernames === undefined) return undefined;
  const byName = await usersByUsername(ctx, p.usernames ?? []);
  const ids = [...new Set([...(p.user_ids ?? []), ...byName.map((u) => u.id)])].filter((id) => id > 0);
  const levels = await accessLevels(ctx, projectId, ids);
  return ids.filter((id) => levels[id]?.can_read).sort((a, b) => a - b);
}

/**
 * Groups the caller may see among those given; groups already on the rule that the caller cannot
 * see stay unless remove_hidden_groups is set (GitLab keeps hidden groups on update).
 */
export async function resolveGroups(ctx: Ctx<unknown>, given: number[] | undefined, current: number[], removeHidden: boolean): Promise<number[] | undefined> {
  if (given === undefined) return undefined;
  const visible = new Set((await visibleGroups(ctx, [...given, ...current])).map((g) => g.id));
  const kept = removeHidden ? [] : current.filter((g) => !visible.has(g));
  return [...new Set([...given.filter((g) => visible.has(g)), ...kept])].sort((a, b) => a - b);
}

/** protected_branch_ids must name the project's own protected branches: 400 otherwise. */
export async function resolveProtectedBranches(ctx: Ctx<unknown>, projectId: number, ids: number[] | undefined): Promise<number[] | undefined> {
  if (ids === undefined) return undefined;
  const unique = [...new Set(ids)];
  const found = await protectedBranchesByIds(ctx, projectId, unique);
  if (found.length !== unique.length) throw validationFailed({ protected_branches: ["must be protected branches of the project"] });
  return unique.sort((a, b) => a - b);
}

const taken = () => validationFailed({ name: ["has already been taken"] });

async function assertOneAnyApprover(db: Db, projectId: number, ruleType: string | undefined, exceptId?: number) {
  if (ruleType !== "any_approver") return;
  const [other] = await db
    .select({ id: approvalProjectRules.id })
    .from(approvalProjectRules)
    .where(and(eq(approvalProjectRules.projectId, projectId), eq(approvalProjectRules.ruleType, "any_approver"), exceptId ? ne(approvalProjectRules.id, exceptId) : undefined));
  if (other) throw validationFailed({ rule_type: ["any-approver for the project already exists"] });
}

export interface ResolvedLinks {
  userIds?: number[];
  groupIds?: number[];
  protectedBranchIds?: number[];
}

export async function createProjectRule(db: Db, projectId: number, p: RuleInput & { name: string; approvals_required: number }, links: ResolvedLinks): Promise<number> {
  await assertOneAnyApprover(db, projectId, p.rule_type);
  try {
    return await db.transaction(async (tx) => {
      const [rule] = await tx
        .insert(approvalProjectRules)
        .values({
          projectId,
          name: p.name,
          ruleType: p.rule_type ?? "regular",
          reportType: p.rule_type === "report_approver" ? (p.report_type ?? null) : null,
          approvalsRequired: p.approvals_required,
          appliesToAllProtectedBranches: p.applies_to_all_protected_branches ?? false,
        })
        .returning();
      await replaceProjectRuleLinks(tx, rule.id, links);
      return rule.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

export async function updateProjectRule(db: Db, ruleId: number, p: RuleInput, links: ResolvedLinks): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const set = {
        ...(p.name !== undefined ? { name: p.name } : {}),
        ...(p.approvals_required !== undefined ? { approvalsRequired: p.approvals_required } : {}),
        ...(p.applies_to_all_protected_branches !== undefined ? { appliesToAllProtectedBranches: p.applies_to_all_protected_branches } : {}),
        updatedAt: new Date(),
      };
      await tx.update(approvalProjectRules).set(set).where(eq(approvalProjectRules.id, ruleId));
      await replaceProjectRuleLinks(tx, ruleId, links);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

async function replaceProjectRuleLinks(tx: Db, ruleId: number, links: ResolvedLinks) {
  if (links.userIds) {
    await tx.delete(approvalProjectRuleUsers).where(eq(approvalProjectRuleUsers.ruleId, ruleId));
    if (links.userIds.length) await tx.insert(approvalProjectRuleUsers).values(links.userIds.map((userId) => ({ ruleId, userId })));
  }
  if (links.groupIds) {
    await tx.delete(approvalProjectRuleGroups).where(eq(approvalProjectRuleGroups.ruleId, ruleId));
    if (links.groupIds.length) await tx.insert(approvalProjectRuleGroups).values(links.groupIds.map((groupId) => ({ ruleId, groupId })));
  }
  if (links.protectedBranchIds) {
    await tx.delete(approvalProjectRuleProtectedBranches).where(eq(approvalProjectRuleProtectedBranches.ruleId, ruleId));
    if (links.protectedBranchIds.length)
      await tx.insert(approvalProjectRuleProtectedBranches).values(links.protectedBranchIds.map((protectedBranchId) => ({ ruleId, protectedBranchId })));
  }
}

export async function deleteProjectRule(db: Db, ruleId: number) {
  await db.delete(approvalProjectRules).where(eq(approvalProjectRules.id, ruleId));
}

export async function createMergeRequestRule(
  db: Db,
  mergeRequestId: number,
  p: { name: string; approvals_required: number; approval_project_rule_id?: number; rule_type?: string; report_type?: string | null },
  links: ResolvedLinks,
): Promise<number> {
  return db.transaction(async (tx) => {
    const [rule] = await tx
      .insert(approvalMergeRequestRules)
      .values({
        mergeRequestId,
        name: p.name,
        ruleType: p.rule_type ?? "regular",
        reportType: p.report_type ?? null,
        approvalsRequired: p.approvals_required,
        approvalProjectRuleId: p.approval_project_rule_id ?? null,
      })
      .returning();
    await replaceMergeRequestRuleLinks(tx, rule.id, links);
    return rule.id;
  });
}

export async function updateMergeRequestRule(db: Db, ruleId: number, p: { name?: string; approvals_required?: number }, links: ResolvedLinks) {
  await db.transaction(async (tx) => {
    await tx
      .update(approvalMergeRequestRules)
      .set({ ...(p.name !== undefined ? { name: p.name } : {}), ...(p.approvals_required !== undefined ? { approvalsRequired: p.approvals_required } : {}), updatedAt: new Date() })
      .where(eq(approvalMergeRequestRules.id, ruleId));
    await replaceMergeRequestRuleLinks(tx, ruleId, links);
  });
}

async function replaceMergeRequestRuleLinks(tx: Db, ruleId: number, links: ResolvedLinks) {
  if (links.userIds) {
    await tx.delete(approvalMergeRequestRuleUsers).where(eq(approvalMergeRequestRuleUsers.ruleId, ruleId));
    if (links.userIds.length) await tx.insert(approvalMergeRequestRuleUsers).values(links.userIds.map((userId) => ({ ruleId, userId })));
  }
  if (links.groupIds) {
    await tx.delete(approvalMergeRequestRuleGroups).where(eq(approvalMergeRequestRuleGroups.ruleId, ruleId));
    if (links.groupIds.length) await tx.insert(approvalMergeRequestRuleGroups).values(links.groupIds.map((groupId) => ({ ruleId, groupId })));
  }
}

export async function deleteMergeRequestRule(db: Db, ruleId: number) {
  await db.delete(approvalMergeRequestRules).where(eq(approvalMergeRequestRules.id, ruleId));
}
