import type { Db } from "@collab/db";
import { asc, inArray } from "drizzle-orm";
import {
  approvalMergeRequestRuleGroups,
  approvalMergeRequestRules,
  approvalMergeRequestRuleUsers,
  approvalProjectRuleGroups,
  approvalProjectRuleProtectedBranches,
  approvalProjectRules,
  approvalProjectRuleUsers,
  type MergeRequestRuleRow,
  type ProjectRuleRow,
} from "../db/schema";

export interface ProjectRule extends ProjectRuleRow {
  userIds: number[];
  groupIds: number[];
  protectedBranchIds: number[];
}

export interface MergeRequestRule extends MergeRequestRuleRow {
  userIds: number[];
  groupIds: number[];
}

const groupBy = <T, K>(rows: T[], key: (r: T) => K, val: (r: T) => number) => {
  const m = new Map<K, number[]>();
  for (const r of rows) m.set(key(r), [...(m.get(key(r)) ?? []), val(r)]);
  return m;
};

/** Project rules of several projects with their users, groups and protected branches: four queries. */
export async function projectRulesOf(db: Db, projectIds: number[], ruleIds?: number[]): Promise<ProjectRule[]> {
  const where = ruleIds ? inArray(approvalProjectRules.id, ruleIds) : inArray(approvalProjectRules.projectId, projectIds);
  if (!(ruleIds ?? projectIds).length) return [];
  const rules = await db.select().from(approvalProjectRules).where(where).orderBy(asc(approvalProjectRules.id));
  if (!rules.length) return [];
  const ids = rules.map((r) => r.id);
  const [users, groups, branches] = await Promise.all([
    db.select().from(approvalProjectRuleUsers).where(inArray(approvalProjectRuleUsers.ruleId, ids)).orderBy(asc(approvalProjectRuleUsers.userId)),
    db.select().from(approvalProjectRuleGroups).where(inArray(approvalProjectRuleGroups.ruleId, ids)).orderBy(asc(approvalProjectRuleGroups.groupId)),
    db.select().from(approvalProjectRuleProtectedBranches).where(inArray(approvalProjectRuleProtectedBranches.ruleId, ids)).orderBy(asc(approvalProjectRuleProtectedBranches.protectedBranchId)),
  ]);
  const u = groupBy(users, (r) => r.ruleId, (r) => r.userId);
  const g = groupBy(groups, (r) => r.ruleId, (r) => r.groupId);
  const b = groupBy(branches, (r) => r.ruleId, (r) => r.protectedBranchId);
  return rules.map((r) => ({ ...r, userIds: u.get(r.id) ?? [], groupIds: g.get(r.id) ?? [], protectedBranchIds: b.get(r.id) ?? [] }));
}

/** Merge-request-level rules of several merge requests with their users and groups: three queries. */
export async function mergeRequestRulesOf(db: Db, mergeRequestIds: number[]): Promise<MergeRequestRule[]> {
  if (!mergeRequestIds.length) return [];
  const rules = await db.select().from(approvalMergeRequestRules).where(inArray(approvalMergeRequestRules.mergeRequestId, mergeRequestIds)).orderBy(asc(approvalMergeRequestRules.id));
  if (!rules.length) return [];
  const ids = rules.map((r) => r.id);
  const [users, groups] = await Promise.all([
    db.select().from(approvalMergeRequestRuleUsers).where(inArray(approvalMergeRequestRuleUsers.ruleId, ids)).orderBy(asc(approvalMergeRequestRuleUsers.userId)),
    db.select().from(approvalMergeRequestRuleGroups).where(inArray(approvalMergeRequestRuleGroups.ruleId, ids)).orderBy(asc(approvalMergeRequestRuleGroups.groupId)),
  ]);
  const u = groupBy(users, (r) => r.ruleId, (r) => r.userId);
  const g = groupBy(groups, (r) => r.ruleId, (r) => r.groupId);
  return rules.map((r) => ({ ...r, userIds: u.get(r.id) ?? [], groupIds: g.get(r.id) ?? [] }));
}
