import { boolean, index, integer, pgSchema, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
// schema.ts re-exports this file: use mergeRequests only inside the lazy references() callbacks, and
// declare the pg schema here, so neither module needs the other evaluated first.
import { mergeRequests } from "./schema";

const mergeRequestsSchema = pgSchema("merge_requests");

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** Who approved which merge request (the core service defines the identical table under this name). */
export const approvals = mergeRequestsSchema.table(
  "approvals",
  {
    mergeRequestId: integer("merge_request_id").notNull().references(() => mergeRequests.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.mergeRequestId, t.userId] })],
);

/** A project's approval settings (GitLab keeps them as project columns); no row means the defaults. */
export const approvalProjectSettings = mergeRequestsSchema.table("approval_project_settings", {
  projectId: integer("project_id").primaryKey(),
  approvalsBeforeMerge: integer("approvals_before_merge").notNull().default(0),
  resetApprovalsOnPush: boolean("reset_approvals_on_push").notNull().default(true),
  selectiveCodeOwnerRemovals: boolean("selective_code_owner_removals").notNull().default(false),
  disableOverridingApproversPerMergeRequest: boolean("disable_overriding_approvers_per_merge_request").notNull().default(false),
  mergeRequestsAuthorApproval: boolean("merge_requests_author_approval").notNull().default(false),
  mergeRequestsDisableCommittersApproval: boolean("merge_requests_disable_committers_approval").notNull().default(false),
  requireReauthenticationToApprove: boolean("require_reauthentication_to_approve").notNull().default(false),
});

/** Project-level approval rules: regular, any_approver (one per project) or report_approver. */
export const approvalProjectRules = mergeRequestsSchema.table(
  "approval_project_rules",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").notNull(),
    name: text("name").notNull(),
    ruleType: text("rule_type").notNull().default("regular"),
    reportType: text("report_type"),
    approvalsRequired: integer("approvals_required").notNull().default(0),
    appliesToAllProtectedBranches: boolean("applies_to_all_protected_branches").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("approval_project_rules_project_name_idx").on(t.projectId, t.name), index("approval_project_rules_project_idx").on(t.projectId, t.id)],
);

const projectRuleRef = () => integer("rule_id").notNull().references(() => approvalProjectRules.id, { onDelete: "cascade" });

export const approvalProjectRuleUsers = mergeRequestsSchema.table(
  "approval_project_rule_users",
  { ruleId: projectRuleRef(), userId: integer("user_id").notNull() },
  (t) => [primaryKey({ columns: [t.ruleId, t.userId] })],
);

export const approvalProjectRuleGroups = mergeRequestsSchema.table(
  "approval_project_rule_groups",
  { ruleId: projectRuleRef(), groupId: integer("group_id").notNull() },
  (t) => [primaryKey({ columns: [t.ruleId, t.groupId] })],
);

/** Protected branches (namespaces service ids) a project rule is scoped to. */
export const approvalProjectRuleProtectedBranches = mergeRequestsSchema.table(
  "approval_project_rule_protected_branches",
  { ruleId: projectRuleRef(), protectedBranchId: integer("protected_branch_id").notNull() },
  (t) => [primaryKey({ columns: [t.ruleId, t.protectedBranchId] }), index("approval_project_rule_pb_idx").on(t.protectedBranchId)],
);

/** Merge-request-level rules: once a merge request has any, they replace the project's rules for it. */
export const approvalMergeRequestRules = mergeRequestsSchema.table(
  "approval_merge_request_rules",
  {
    id: serial("id").primaryKey(),
    mergeRequestId: integer("merge_request_id").notNull().references(() => mergeRequests.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    ruleType: text("rule_type").notNull().default("regular"),
    reportType: text("report_type"),
    approvalsRequired: integer("approvals_required").notNull().default(0),
    /** The project rule this one was made from (approval_project_rule_id). */
    approvalProjectRuleId: integer("approval_project_rule_id").references(() => approvalProjectRules.id, { onDelete: "set null" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("approval_mr_rules_mr_idx").on(t.mergeRequestId, t.id)],
);

const mrRuleRef = () => integer("rule_id").notNull().references(() => approvalMergeRequestRules.id, { onDelete: "cascade" });

export const approvalMergeRequestRuleUsers = mergeRequestsSchema.table(
  "approval_merge_request_rule_users",
  { ruleId: mrRuleRef(), userId: integer("user_id").notNull() },
  (t) => [primaryKey({ columns: [t.ruleId, t.userId] })],
);

export const approvalMergeRequestRuleGroups = mergeRequestsSchema.table(
  "approval_merge_request_rule_groups",
  { ruleId: mrRuleRef(), groupId: integer("group_id").notNull() },
  (t) => [primaryKey({ columns: [t.ruleId, t.groupId] })],
);

export type ApprovalSettingsRow = typeof approvalProjectSettings.$inferSelect;
export type ProjectRuleRow = typeof approvalProjectRules.$inferSelect;
export type MergeRequestRuleRow = typeof approvalMergeRequestRules.$inferSelect;
