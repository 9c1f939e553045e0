import { eventTables } from "@collab/db";
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgSchema, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const activitySchema = pgSchema("activity");

/** Durable domain events: this service consumes (processed_events); its outbox stays empty. */
export const { outbox, processedEvents } = eventTables(activitySchema);

/** The note a comment event shows, as it was when written (GitLab reads it live; ours is a snapshot). */
export interface NoteSnapshot {
  id: number;
  body: string;
  system: boolean;
  /** null on a commit's notes. */
  noteable_id: number | null;
  noteable_type: string;
  noteable_iid: number | null;
  /** The commit's sha on a commit's notes (absent on snapshots written before commit notes). */
  commit_id?: string;
  author_id: number;
  created_at: string;
}

/** Entities::PushEventPayload. */
export interface PushData {
  commit_count: number;
  action: "pushed" | "created" | "removed";
  ref_type: "branch" | "tag";
  commit_from: string | null;
  commit_to: string | null;
  ref: string;
  commit_title: string | null;
  /** Absent in rows recorded before it was kept. */
  ref_count?: number | null;
}

/**
 * Activity records (GitLab's events table), written by the consumers of other services' domain
 * events. `action` is GitLab's Event.actions name (the filter value); the API's action_name is
 * derived from it and the target when presented.
 */
export const events = activitySchema.table(
  "events",
  {
    id: serial("id").primaryKey(),
    /** The domain event this record came from: a redelivery writes nothing twice. */
    sourceEventId: uuid("source_event_id").notNull(),
    /** null for a group's events (epics and their comments). */
    projectId: integer("project_id"),
    /** The group of an epic's events (GitLab's events.group_id); null on project events. */
    groupId: integer("group_id"),
    authorId: integer("author_id").notNull(),
    action: text("action").notNull(),
    /** Issue | MergeRequest | Milestone | Snippet | Epic | Note | null (project created, joined, left, pushes). */
    targetType: text("target_type"),
    targetId: integer("target_id"),
    targetIid: integer("target_iid"),
    targetTitle: text("target_title"),
    /** Confidential issue or epic, or a comment on one: shown only to those who may read it. */
    confidential: boolean("confidential").notNull().default(false),
    /** An internal note: shown to Reporter and up. */
    internal: boolean("internal").notNull().default(false),
    note: jsonb("note").$type<NoteSnapshot>(),
    pushData: jsonb("push_data").$type<PushData>(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex("events_source_event_idx").on(t.sourceEventId),
    index("events_project_idx").on(t.projectId, t.id),
    index("events_author_idx").on(t.authorId, t.id),
    // A deleted group takes its events with it.
    index("events_group_idx").on(t.groupId, t.id).where(sql`${t.groupId} IS NOT NULL`),
  ],
);

export type EventRow = typeof events.$inferSelect;
/** An event the Events API lists: a project's (groups' events, epics', are recorded but never listed). */
export type ProjectEventRow = EventRow & { projectId: number };
export type NewEvent = typeof events.$inferInsert;

/**
 * To-dos (GitLab's todos table): one user's reminder about an issue or merge request, written by
 * the consumers of the issues' and merge requests' domain events (todos/consumers.ts) and by the
 * users themselves (POST …/todo). The target is presented live from its service.
 */
export const todos = activitySchema.table(
  "todos",
  {
    id: serial("id").primaryKey(),
    /** Whose to-do it is. */
    userId: integer("user_id").notNull(),
    /** Who caused it (the assigner, the mentioner; the user themselves for `marked`). */
    authorId: integer("author_id").notNull(),
    projectId: integer("project_id").notNull(),
    /** Issue | MergeRequest. */
    targetType: text("target_type").notNull(),
    targetId: integer("target_id").notNull(),
    /** GitLab's Todo action names: assigned, mentioned, marked, review_requested, directly_addressed. */
    action: text("action").notNull(),
    /** pending | done. */
    state: text("state").notNull().default("pending"),
    /** The mentioning note's body (a to-do about a description shows the target's title). */
    body: text("body"),
    noteId: integer("note_id"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().default(sql`now()`),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().default(sql`now()`),
  },
  (t) => [
    index("todos_user_state_idx").on(t.userId, t.state, t.id),
    index("todos_target_idx").on(t.targetType, t.targetId),
    index("todos_project_idx").on(t.projectId),
    // A user marks a target as a to-do once while it is pending (TodoService#mark_todo: 304 then).
    uniqueIndex("todos_pending_marked_idx").on(t.userId, t.targetType, t.targetId).where(sql`${t.state} = 'pending' AND ${t.action} = 'marked'`),
  ],
);

export type TodoRow = typeof todos.$inferSelect;
export type NewTodo = typeof todos.$inferInsert;
