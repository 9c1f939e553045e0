import { preparedQuery, type Db } from "@collab/db";
import { asc, sql } from "drizzle-orm";
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

/** `column = ANY($ids)`: one statement text whatever the number of ids. */
const anyOf = (column: AnyPgColumn) => sql`${column} = ANY(${sql.placeholder("ids")}::int[])`;

/** Project rules with their users, groups and protected branches, by project or by rule id: prepared. */
const projectRulesBy = (column: "projectId" | "id") =>
  preparedQuery((db: Db) => {
    const R = approvalProjectRules;
    return db
      .select({
        rule: R,
        userIds: linkedIds(approvalProjectRuleUsers, approvalProjectRuleUsers.userId, R.id),
        groupIds: linkedIds(approvalProjectRuleGroups, approvalProjectRuleGroups.groupId, R.id),
        protectedBranchIds: linkedIds(approvalProjectRuleProtectedBranches, approvalProjectRuleProtectedBranches.protectedBranchId, R.id),
      })
      .from(R)
      .where(anyOf(R[column]))
      .orderBy(asc(R.id))
      .prepare(`merge_requests_project_rules_by_${column}`);
  });
const projectRulesByProject = projectRulesBy("projectId");
const projectRulesById = projectRulesBy("id");

/** Project rules of several projects (or the rules with these ids) with their users, groups and protected branches: one query. */
export async function projectRulesOf(db: Db, projectIds: number[], ruleIds?: number[]): Promise<ProjectRule[]> {
  if (!(ruleIds ?? projectIds).length) return [];
  const rows = ruleIds ? await projectRulesById(db, { ids: ruleIds }) : await projectRulesByProject(db, { ids: projectIds });
  return rows.map((r) => ({ ...r.rule, userIds: r.userIds, groupIds: r.groupIds, protectedBranchIds: r.protectedBranchIds }));
}

const mergeRequestRules = preparedQuery((db: Db) => {
  const R = approvalMergeRequestRules;
  return db
    .select({
      rule: R,
      userIds: linkedIds(approvalMergeRequestRuleUsers, approvalMergeRequestRuleUsers.userId, R.id),
      groupIds: linkedIds(approvalMergeRequestRuleGroups, approvalMergeRequestRuleGroups.groupId, R.id),
    })
    .from(R)
    .where(anyOf(R.mergeRequestId))
    .orderBy(asc(R.id))
    .prepare("merge_requests_merge_request_rules_of");
});

/** Merge-request-level rules of several merge requests with their users and groups: one query. */
export async function mergeRequestRulesOf(db: Db, mergeRequestIds: number[]): Promise<MergeRequestRule[]> {
  if (!mergeRequestIds.length) return [];
  const rows = await mergeRequestRules(db, { ids: mergeRequestIds });
  return rows.map((r) => ({ ...r.rule, userIds: r.userIds, groupIds: r.groupIds }));
}
