import { internalIdsTable } from "@collab/db";
import { boolean, index, integer, jsonb, serial, text, timestamp, uniqueIndex, type AnyPgColumn, type PgSchema } from "drizzle-orm/pg-core";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * The conversation tables of a noteable-owning service, declared in that service's own PostgreSQL
 * schema (each service owns its tables: issues in `issues`, merge requests in `merge_requests`).
 * Same columns and index names in every schema; index names only need to be unique per schema.
 * A service's schema.ts spreads them into its exports so drizzle-kit sees them:
 * `export const { notes, resourceStateEvents, awardEmoji, timelogs, internalIds } = notesTables(mySchema);`
 */
export function notesTables(schema: PgSchema<string>) {
  /** Notes on any noteable of the service; commits are noteables identified by sha. */
  const notes = schema.table(
    "notes",
    {
      id: serial("id").primaryKey(),
      noteableType: text("noteable_type").notNull(),
      noteableId: integer("noteable_id"),
      /** Commits are noteables identified by sha. */
      commitId: text("commit_id"),
      /** null on a group's noteable (an epic). */
      projectId: integer("project_id"),
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

  /** Each close/reopen (and merge) of an issue, merge request or epic; the initial state is not recorded. */
  const resourceStateEvents = schema.table(
    "resource_state_events",
    {
      id: serial("id").primaryKey(),
      userId: integer("user_id").notNull(),
      issueId: integer("issue_id"),
      mergeRequestId: integer("merge_request_id"),
      epicId: integer("epic_id"),
      state: text("state").notNull(),
      createdAt: ts("created_at").notNull().defaultNow(),
    },
    (t) => [index("rse_issue_idx").on(t.issueId, t.id), index("rse_mr_idx").on(t.mergeRequestId, t.id), index("rse_epic_idx").on(t.epicId, t.id)],
  );

  /**
   * Emoji reactions on the service's noteables and on their notes (awardable_type "Note"): one per
   * user, name and awardable (the unique index refuses a second). project_id, not in GitLab's
   * table, lets a removed project's awards go in one statement.
   */
  const awardEmoji = schema.table(
    "award_emoji",
    {
      id: serial("id").primaryKey(),
      name: text("name").notNull(),
      userId: integer("user_id").notNull(),
      awardableType: text("awardable_type").notNull(),
      awardableId: integer("awardable_id").notNull(),
      projectId: integer("project_id"),
      createdAt: ts("created_at").notNull().defaultNow(),
      updatedAt: ts("updated_at").notNull().defaultNow(),
    },
    (t) => [uniqueIndex("award_emoji_awardable_user_name_idx").on(t.awardableType, t.awardableId, t.userId, t.name), index("award_emoji_project_idx").on(t.projectId)],
  );

  /**
   * Time spent on an issue or merge request (GitLab's timelogs): total_time_spent is their sum;
   * a reset adds one that takes the total back to 0. Empty in services without time tracking.
   */
  const timelogs = schema.table(
    "timelogs",
    {
      id: serial("id").primaryKey(),
      timeSpent: integer("time_spent").notNull(),
      userId: integer("user_id").notNull(),
      issueId: integer("issue_id"),
      mergeRequestId: integer("merge_request_id"),
      projectId: integer("project_id").notNull(),
      summary: text("summary"),
      spentAt: ts("spent_at").notNull().defaultNow(),
      createdAt: ts("created_at").notNull().defaultNow(),
      updatedAt: ts("updated_at").notNull().defaultNow(),
    },
    (t) => [index("timelogs_issue_idx").on(t.issueId), index("timelogs_mr_idx").on(t.mergeRequestId), index("timelogs_project_idx").on(t.projectId)],
  );

  /** Per-project iid sequences, allocated atomically with an upsert. */
  const internalIds = internalIdsTable(schema);

  return { notes, resourceStateEvents, awardEmoji, timelogs, internalIds, ...resourceEventTables(schema) };
}

/** The resource's columns of an event: exactly one is set (which families take which: EVENT_RESOURCES). */
const resourceColumns = () => ({ issueId: integer("issue_id"), mergeRequestId: integer("merge_request_id"), epicId: integer("epic_id") });
const resourceIndexes = (prefix: string, t: { id: AnyPgColumn; issueId: AnyPgColumn; mergeRequestId: AnyPgColumn; epicId: AnyPgColumn }) => [
  index(`${prefix}_issue_idx`).on(t.issueId, t.id),
  index(`${prefix}_mr_idx`).on(t.mergeRequestId, t.id),
  index(`${prefix}_epic_idx`).on(t.epicId, t.id),
];

/**
 * GitLab's other resource event families: each label added or removed, each milestone set or
 * removed, each weight and iteration change of an issue, merge request or epic, recorded in the
 * transaction of the change (the API answers them instead of system notes). `action`: add | remove.
 */
function resourceEventTables(schema: PgSchema<string>) {
  const resourceLabelEvents = schema.table(
    "resource_label_events",
    {
      id: serial("id").primaryKey(),
      userId: integer("user_id").notNull(),
      ...resourceColumns(),
      /** A deleted label's events stay, answered with label null (GitLab nullifies the key). */
      labelId: integer("label_id"),
      action: text("action").notNull(),
      createdAt: ts("created_at").notNull().defaultNow(),
    },
    (t) => [...resourceIndexes("rle", t), index("rle_label_idx").on(t.labelId)],
  );
  const resourceMilestoneEvents = schema.table(
    "resource_milestone_events",
    {
      id: serial("id").primaryKey(),
      userId: integer("user_id").notNull(),
      ...resourceColumns(),
      /** null on a copied `remove` event, as GitLab copies them. */
      milestoneId: integer("milestone_id"),
      action: text("action").notNull(),
      /** The resource's state when the event was recorded (opened, closed, merged, locked). */
      state: text("state").notNull(),
      createdAt: ts("created_at").notNull().defaultNow(),
    },
    (t) => [...resourceIndexes("rme", t), index("rme_milestone_idx").on(t.milestoneId)],
  );
  const resourceWeightEvents = schema.table(
    "resource_weight_events",
    {
      id: serial("id").primaryKey(),
      userId: integer("user_id").notNull(),
      ...resourceColumns(),
      /** null: the weight was removed. */
      weight: integer("weight"),
      createdAt: ts("created_at").notNull().defaultNow(),
    },
    (t) => resourceIndexes("rwe", t),
  );
  const resourceIterationEvents = schema.table(
    "resource_iteration_events",
    {
      id: serial("id").primaryKey(),
      userId: integer("user_id").notNull(),
      ...resourceColumns(),
      iterationId: integer("iteration_id"),
      action: text("action").notNull(),
      createdAt: ts("created_at").notNull().defaultNow(),
    },
    (t) => resourceIndexes("rie", t),
  );
  return { resourceLabelEvents, resourceMilestoneEvents, resourceWeightEvents, resourceIterationEvents };
}

export type NotesTables = ReturnType<typeof notesTables>;
export type NoteRow = NotesTables["notes"]["$inferSelect"];
export type StateEventRow = NotesTables["resourceStateEvents"]["$inferSelect"];
export type LabelEventRow = NotesTables["resourceLabelEvents"]["$inferSelect"];
export type MilestoneEventRow = NotesTables["resourceMilestoneEvents"]["$inferSelect"];
export type WeightEventRow = NotesTables["resourceWeightEvents"]["$inferSelect"];
export type IterationEventRow = NotesTables["resourceIterationEvents"]["$inferSelect"];
export type AwardEmojiRow = NotesTables["awardEmoji"]["$inferSelect"];
