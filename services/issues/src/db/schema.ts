import { sql } from "drizzle-orm";
import { boolean, date, index, integer, jsonb, pgSchema, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const issuesSchema = pgSchema("issues");

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const issues = issuesSchema.table(
  "issues",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").notNull(),
    iid: integer("iid").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    state: text("state").notNull().default("opened"),
    issueType: text("issue_type").notNull().default("issue"),
    authorId: integer("author_id").notNull(),
    closedById: integer("closed_by_id"),
    closedAt: ts("closed_at"),
    milestoneId: integer("milestone_id"),
    dueDate: date("due_date", { mode: "string" }),
    confidential: boolean("confidential").notNull().default(false),
    discussionLocked: boolean("discussion_locked"),
    movedToId: integer("moved_to_id"),
    duplicatedToId: integer("duplicated_to_id"),
    relativePosition: integer("relative_position"),
    weight: integer("weight"),
    healthStatus: text("health_status"),
    epicId: integer("epic_id"),
    iterationId: integer("iteration_id"),
    severity: text("severity").notNull().default("UNKNOWN"),
    timeEstimate: integer("time_estimate").notNull().default(0),
    totalTimeSpent: integer("total_time_spent").notNull().default(0),
    upvotes: integer("upvotes").notNull().default(0),
    downvotes: integer("downvotes").notNull().default(0),
    userNotesCount: integer("user_notes_count").notNull().default(0),
    mergeRequestsCount: integer("merge_requests_count").notNull().default(0),
    imported: boolean("imported").notNull().default(false),
    importedFrom: text("imported_from").notNull().default("none"),
    updatedById: integer("updated_by_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("issues_project_iid_idx").on(t.projectId, t.iid),
    index("issues_project_created_idx").on(t.projectId, t.createdAt, t.id),
    index("issues_project_state_created_idx").on(t.projectId, t.state, t.createdAt, t.id),
    index("issues_project_updated_idx").on(t.projectId, t.updatedAt, t.id),
    index("issues_project_position_idx").on(t.projectId, t.relativePosition, t.id),
    index("issues_project_due_idx").on(t.projectId, t.dueDate, t.id),
    index("issues_author_idx").on(t.authorId, t.createdAt),
    index("issues_milestone_idx").on(t.milestoneId),
  ],
);

export const issueAssignees = issuesSchema.table(
  "issue_assignees",
  { issueId: integer("issue_id").notNull().references(() => issues.id, { onDelete: "cascade" }), userId: integer("user_id").notNull() },
  (t) => [primaryKey({ columns: [t.issueId, t.userId] }), index("issue_assignees_user_idx").on(t.userId, t.issueId)],
);

export const issueLabels = issuesSchema.table(
  "issue_labels",
  { issueId: integer("issue_id").notNull().references(() => issues.id, { onDelete: "cascade" }), labelId: integer("label_id").notNull() },
  (t) => [primaryKey({ columns: [t.issueId, t.labelId] }), index("issue_labels_label_idx").on(t.labelId, t.issueId)],
);

export const subscriptions = issuesSchema.table(
  "subscriptions",
  {
    subscribableType: text("subscribable_type").notNull(),
    subscribableId: integer("subscribable_id").notNull(),
    userId: integer("user_id").notNull(),
    subscribed: boolean("subscribed").notNull(),
  },
  (t) => [primaryKey({ columns: [t.subscribableType, t.subscribableId, t.userId] })],
);

/** Notes on any noteable (issues now; merge requests, snippets and commits reuse the table). */
export const notes = issuesSchema.table(
  "notes",
  {
    id: serial("id").primaryKey(),
    noteableType: text("noteable_type").notNull(),
    noteableId: integer("noteable_id"),
    /** Commits are noteables identified by sha. */
    commitId: text("commit_id"),
    projectId: integer("project_id").notNull(),
    authorId: integer("author_id").notNull(),
    body: text("body").notNull(),
    system: boolean("system").notNull().default(false),
    internal: boolean("internal").notNull().default(false),
    /** null for a standalone comment, DiscussionNote inside a thread, DiffNote on code. */
    type: text("type"),
    discussionId: text("discussion_id").notNull(),
    resolvable: boolean("resolvable").notNull().default(false),
    resolvedAt: ts("resolved_at"),
    resolvedById: integer("resolved_by_id"),
    position: jsonb("position"),
    imported: boolean("imported").notNull().default(false),
    updatedById: integer("updated_by_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("notes_noteable_idx").on(t.noteableType, t.noteableId, t.createdAt, t.id),
    index("notes_discussion_idx").on(t.discussionId, t.createdAt),
    index("notes_project_idx").on(t.projectId),
  ],
);

/** Each close/reopen (and later merge) of an issue or merge request; the initial state is not recorded. */
export const resourceStateEvents = issuesSchema.table(
  "resource_state_events",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").notNull(),
    issueId: integer("issue_id"),
    mergeRequestId: integer("merge_request_id"),
    state: text("state").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("rse_issue_idx").on(t.issueId, t.id), index("rse_mr_idx").on(t.mergeRequestId, t.id)],
);

/** Per-project iid sequences (issues, merge requests), allocated atomically with an upsert. */
export const internalIds = issuesSchema.table(
  "internal_ids",
  { projectId: integer("project_id").notNull(), usage: text("usage").notNull(), lastValue: integer("last_value").notNull() },
  (t) => [primaryKey({ columns: [t.projectId, t.usage] })],
);

export type IssueRow = typeof issues.$inferSelect;
export type NoteRow = typeof notes.$inferSelect;
export type StateEventRow = typeof resourceStateEvents.$inferSelect;
