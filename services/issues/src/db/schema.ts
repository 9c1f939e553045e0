import { eventTables, internalIdsTable } from "@collab/db";
import { sql } from "drizzle-orm";
import { notesTables } from "@collab/notes";
import { boolean, date, index, integer, pgSchema, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { subscriptionsTable } from "@collab/work-items";

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

/** Who follows an issue or epic (the shared subscriptions of @collab/work-items). */
export const subscriptions = subscriptionsTable(issuesSchema);

/**
 * Epics: a group's work items (Premium and Ultimate), with iids of their own per group
 * (groupInternalIds, usage "epics"). `parentId`: the parent epic.
 */
export const epics = issuesSchema.table(
  "epics",
  {
    id: serial("id").primaryKey(),
    groupId: integer("group_id").notNull(),
    iid: integer("iid").notNull(),
    parentId: integer("parent_id"),
    title: text("title").notNull(),
    description: text("description"),
    state: text("state").notNull().default("opened"),
    authorId: integer("author_id").notNull(),
    closedById: integer("closed_by_id"),
    closedAt: ts("closed_at"),
    confidential: boolean("confidential").notNull().default(false),
    color: text("color").notNull().default("#1068bf"),
    startDateFixed: date("start_date_fixed", { mode: "string" }),
    startDateIsFixed: boolean("start_date_is_fixed").notNull().default(false),
    dueDateFixed: date("due_date_fixed", { mode: "string" }),
    dueDateIsFixed: boolean("due_date_is_fixed").notNull().default(false),
    relativePosition: integer("relative_position"),
    upvotes: integer("upvotes").notNull().default(0),
    downvotes: integer("downvotes").notNull().default(0),
    userNotesCount: integer("user_notes_count").notNull().default(0),
    updatedById: integer("updated_by_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("epics_group_iid_idx").on(t.groupId, t.iid),
    index("epics_group_created_idx").on(t.groupId, t.createdAt, t.id),
    index("epics_parent_idx").on(t.parentId),
    index("epics_author_idx").on(t.authorId),
  ],
);

export const epicLabels = issuesSchema.table(
  "epic_labels",
  { epicId: integer("epic_id").notNull().references(() => epics.id, { onDelete: "cascade" }), labelId: integer("label_id").notNull() },
  (t) => [primaryKey({ columns: [t.epicId, t.labelId] }), index("epic_labels_label_idx").on(t.labelId, t.epicId)],
);

export type EpicRow = typeof epics.$inferSelect;

/**
 * Issues of epics (GitLab's epic_issues): an issue belongs to one epic at most, ordered within it
 * by relative_position. Deleting either side removes the link.
 */
export const epicIssues = issuesSchema.table(
  "epic_issues",
  {
    id: serial("id").primaryKey(),
    epicId: integer("epic_id").notNull().references(() => epics.id, { onDelete: "cascade" }),
    issueId: integer("issue_id").notNull().references(() => issues.id, { onDelete: "cascade" }),
    relativePosition: integer("relative_position"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("epic_issues_issue_idx").on(t.issueId), index("epic_issues_epic_position_idx").on(t.epicId, t.relativePosition, t.id)],
);

export type EpicIssueRow = typeof epicIssues.$inferSelect;


/**
 * Links between issues (GitLab's issue_links), one row per pair: `is_blocked_by` is stored as the
 * reverse `blocks`, as GitLab does. Deleting either issue removes the link.
 */
export const issueLinks = issuesSchema.table(
  "issue_links",
  {
    id: serial("id").primaryKey(),
    sourceId: integer("source_id").notNull().references(() => issues.id, { onDelete: "cascade" }),
    targetId: integer("target_id").notNull().references(() => issues.id, { onDelete: "cascade" }),
    linkType: text("link_type").notNull().default("relates_to"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("issue_links_source_target_idx").on(t.sourceId, t.targetId),
    index("issue_links_target_idx").on(t.targetId),
    index("issue_links_blocking_idx").on(t.sourceId).where(sql`link_type = 'blocks'`),
  ],
);

export type IssueLinkRow = typeof issueLinks.$inferSelect;

/** Each group's epic iid sequence (internal_ids keyed by group, apart from the projects' sequences). */
export const groupInternalIds = internalIdsTable(issuesSchema, { table: "group_internal_ids", key: "group_id" });

/**
 * Notes, resource state, label, milestone, weight and iteration events and per-project iid sequences: the shared conversation tables
 * (@collab/notes), declared in this service's schema. Exported one by one so drizzle-kit sees them.
 */
export const noteTables = notesTables(issuesSchema);
export const { notes, resourceStateEvents, awardEmoji, timelogs, internalIds, resourceLabelEvents, resourceMilestoneEvents, resourceWeightEvents, resourceIterationEvents } = noteTables;

export type IssueRow = typeof issues.$inferSelect;

/** Durable domain events: the outbox this service publishes from, the ids of those it has applied. */
export const { outbox, processedEvents } = eventTables(issuesSchema);
