import { eventTables } from "@collab/db";
import { notesTables } from "@collab/notes";
import { subscriptionsTable } from "@collab/work-items";
import { boolean, index, integer, pgSchema, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const mergeRequestsSchema = pgSchema("merge_requests");

/** Who follows a merge request, or stopped following it (the shared subscriptions of @collab/work-items). */
export const subscriptions = subscriptionsTable(mergeRequestsSchema);

/** MergeRequestReviewer.states. */
export const REVIEWER_STATES = ["unreviewed", "reviewed", "requested_changes", "approved", "unapproved", "review_started"] as const;
export type ReviewerState = (typeof REVIEWER_STATES)[number];

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** A merge request of a source branch into a target branch of the same project (no forks). */
export const mergeRequests = mergeRequestsSchema.table(
  "merge_requests",
  {
    id: serial("id").primaryKey(),
    /** The target project: the one the merge request lives in. */
    projectId: integer("project_id").notNull(),
    sourceProjectId: integer("source_project_id").notNull(),
    iid: integer("iid").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    /** opened, closed, locked, merged. */
    state: text("state").notNull().default("opened"),
    /** From the title's Draft prefix, kept in step with it on every write. */
    draft: boolean("draft").notNull().default(false),
    authorId: integer("author_id").notNull(),
    sourceBranch: text("source_branch").notNull(),
    targetBranch: text("target_branch").notNull(),
    /** Head commit of the source branch as last read from the repository (on create and each push). */
    sha: text("sha"),
    /**
     * The rest of the git state as last read (on create, target change and each push to either
     * branch): what lists show without asking git. diff_refs are base (merge base), start (target
     * head) and head (sha).
     */
    baseSha: text("base_sha"),
    startSha: text("start_sha"),
    /** GitLab's changes_count ("1000+" past the limit); null until read. */
    changesCount: text("changes_count"),
    /** GitLab's merge_status: unchecked, can_be_merged (git merges it cleanly) or cannot_be_merged (conflicts). */
    mergeStatus: text("merge_status").notNull().default("unchecked"),
    /** The target is not in the source's history: semi-linear and fast-forward merges need a rebase. */
    behindTarget: boolean("behind_target").notNull().default(false),
    sourceBranchExists: boolean("source_branch_exists").notNull().default(true),
    /** Why the last merge or rebase failed (GitLab's merge_error), cleared by the next success. */
    mergeError: text("merge_error"),
    mergeCommitSha: text("merge_commit_sha"),
    squashCommitSha: text("squash_commit_sha"),
    mergeUserId: integer("merge_user_id"),
    mergedAt: ts("merged_at"),
    closedById: integer("closed_by_id"),
    closedAt: ts("closed_at"),
    milestoneId: integer("milestone_id"),
    discussionLocked: boolean("discussion_locked"),
    squash: boolean("squash").notNull().default(false),
    /** remove_source_branch asked on create or update (force_remove_source_branch). */
    forceRemoveSourceBranch: boolean("force_remove_source_branch").notNull().default(false),
    /** should_remove_source_branch given to merge. */
    shouldRemoveSourceBranch: boolean("should_remove_source_branch"),
    allowCollaboration: boolean("allow_collaboration").notNull().default(false),
    mergeWhenPipelineSucceeds: boolean("merge_when_pipeline_succeeds").notNull().default(false),
    mergeAfter: ts("merge_after"),
    preparedAt: ts("prepared_at"),
    approvalsBeforeMerge: integer("approvals_before_merge"),
    timeEstimate: integer("time_estimate").notNull().default(0),
    totalTimeSpent: integer("total_time_spent").notNull().default(0),
    upvotes: integer("upvotes").notNull().default(0),
    downvotes: integer("downvotes").notNull().default(0),
    userNotesCount: integer("user_notes_count").notNull().default(0),
    imported: boolean("imported").notNull().default(false),
    importedFrom: text("imported_from").notNull().default("none"),
    updatedById: integer("updated_by_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("merge_requests_project_iid_idx").on(t.projectId, t.iid),
    index("merge_requests_project_created_idx").on(t.projectId, t.createdAt, t.id),
    index("merge_requests_project_state_created_idx").on(t.projectId, t.state, t.createdAt, t.id),
    index("merge_requests_project_updated_idx").on(t.projectId, t.updatedAt, t.id),
    index("merge_requests_source_branch_idx").on(t.sourceProjectId, t.sourceBranch, t.state),
    index("merge_requests_author_idx").on(t.authorId, t.createdAt),
    index("merge_requests_milestone_idx").on(t.milestoneId),
  ],
);

export const mergeRequestAssignees = mergeRequestsSchema.table(
  "merge_request_assignees",
  { mergeRequestId: integer("merge_request_id").notNull().references(() => mergeRequests.id, { onDelete: "cascade" }), userId: integer("user_id").notNull() },
  (t) => [primaryKey({ columns: [t.mergeRequestId, t.userId] }), index("merge_request_assignees_user_idx").on(t.userId, t.mergeRequestId)],
);

export const mergeRequestReviewers = mergeRequestsSchema.table(
  "merge_request_reviewers",
  {
    mergeRequestId: integer("merge_request_id").notNull().references(() => mergeRequests.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** GitLab's MergeRequestReviewer state: unreviewed until the reviewer approves (approved), withdraws it (unapproved)… */
    state: text("state").$type<ReviewerState>().notNull().default("unreviewed"),
  },
  (t) => [primaryKey({ columns: [t.mergeRequestId, t.userId] }), index("merge_request_reviewers_user_idx").on(t.userId, t.mergeRequestId)],
);

export const mergeRequestLabels = mergeRequestsSchema.table(
  "merge_request_labels",
  { mergeRequestId: integer("merge_request_id").notNull().references(() => mergeRequests.id, { onDelete: "cascade" }), labelId: integer("label_id").notNull() },
  (t) => [primaryKey({ columns: [t.mergeRequestId, t.labelId] }), index("merge_request_labels_label_idx").on(t.labelId, t.mergeRequestId)],
);

/**
 * Issues a merge request's description references, by project and iid (the issues service owns
 * the issues themselves): `closes` when named with GitLab's closing pattern (`Closes #12`,
 * `Fixes group/project#3`), else only mentioned (the issue's related merge requests).
 */
export const closingIssueRefs = mergeRequestsSchema.table(
  "closing_issue_refs",
  {
    mergeRequestId: integer("merge_request_id").notNull().references(() => mergeRequests.id, { onDelete: "cascade" }),
    issueProjectId: integer("issue_project_id").notNull(),
    issueIid: integer("issue_iid").notNull(),
    closes: boolean("closes").notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.mergeRequestId, t.issueProjectId, t.issueIid] }), index("closing_issue_refs_issue_idx").on(t.issueProjectId, t.issueIid)],
);

/**
 * Notes, discussions, resource state events and the iid sequence: the shared notes tables
 * (@collab/notes), in this service's schema. Exported one by one so drizzle-kit sees them.
 */
export const noteTables = notesTables(mergeRequestsSchema);
export const { notes, resourceStateEvents, awardEmoji, timelogs, internalIds, resourceLabelEvents, resourceMilestoneEvents } = noteTables;

export type MergeRequestRow = typeof mergeRequests.$inferSelect;
export * from "./approvals.schema";

/** Durable domain events: the outbox this service publishes from, the ids of those it has applied. */
export const { outbox, processedEvents } = eventTables(mergeRequestsSchema);
