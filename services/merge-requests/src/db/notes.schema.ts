import { boolean, index, integer, jsonb, serial, text, timestamp } from "drizzle-orm/pg-core";
import { mergeRequestsSchema } from "./schema";

/**
 * Until the shared notes package lands: `notes` and `resource_state_events` exactly as
 * services/issues/src/db/schema.ts defines them (columns, types, defaults, index names), in this
 * service's schema, so the shared factory can replace this file without a migration. Written only
 * through src/domain/activity.ts.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const notes = mergeRequestsSchema.table(
  "notes",
  {
    id: serial("id").primaryKey(),
    noteableType: text("noteable_type").notNull(),
    noteableId: integer("noteable_id"),
    commitId: text("commit_id"),
    projectId: integer("project_id").notNull(),
    authorId: integer("author_id").notNull(),
    body: text("body").notNull(),
    system: boolean("system").notNull().default(false),
    internal: boolean("internal").notNull().default(false),
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

export const resourceStateEvents = mergeRequestsSchema.table(
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
