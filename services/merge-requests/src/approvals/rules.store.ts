import type { Db } from "@collab/db";
import { asc, inArray, sql } from "drizzle-orm";
import type { AnyPgColumn, AnyPgTable } from "drizzle-orm/pg-core";
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

/** The ids a link table holds for the rule of the outer row, ascending: one query, no second round. */
const linkedIds = (table: AnyPgTable & { ruleId: AnyPgColumn }, column: AnyPgColumn, ruleId: AnyPgColumn) =>
  sql<number[]>`coalesce((SELECT array_agg(${column} ORDER BY ${column}) FROM ${table} WHERE ${table.ruleId} = ${ruleId}), '{}')`.mapWith((v: unknown) => v as number[]);

/** Project rules of several projects with their users, groups and protected branches: one query. */
export async function projectRulesOf(db: Db, projectIds: number[], ruleIds?: number[]): Promise<ProjectRule[]> {
  const where = ruleIds ? inArray(approvalProjectRules.id, ruleIds) : inArray(approvalProjectRules.projectId, projectIds);
  if (!(ruleIds ?? projectIds).length) return [];
  const R = approvalProjectRules;
  const rows = await db
    .select({
      rule: R,
      userIds: linkedIds(approvalProjectRuleUsers, approvalProjectRuleUsers.userId, R.id),
      groupIds: linkedIds(approvalProjectRuleGroups, approvalProjectRuleGroups.groupId, R.id),
      protectedBranchIds: linkedIds(approvalProjectRuleProtectedBranches, approvalProjectRuleProtectedBranches.protectedBranchId, R.id),
    })
    .from(R)
    .where(where)
    .orderBy(asc(R.id));
  return rows.map((r) => ({ ...r.rule, userIds: r.userIds, groupIds: r.groupIds, protectedBranchIds: r.protectedBranchIds }));
}

/** Merge-request-level rules of several merge requests with their users and groups: one query. */
export async function mergeRequestRulesOf(db: Db, mergeRequestIds: number[]): Promise<MergeRequestRule[]> {
  if (!mergeRequestIds.length) return [];
  const R = approvalMergeRequestRules;
  const rows = await db
    .select({
      rule: R,
      userIds: linkedIds(approvalMergeRequestRuleUsers, approvalMergeRequestRuleUsers.userId, R.id),
      groupIds: linkedIds(approvalMergeRequestRuleGroups, approvalMergeRequestRuleGroups.groupId, R.id),
    })
    .from(R)
    .where(inArray(R.mergeRequestId, mergeRequestIds))
    .orderBy(asc(R.id));
  return rows.map((r) => ({ ...r.rule, userIds: r.userIds, groupIds: r.groupIds }));
}
