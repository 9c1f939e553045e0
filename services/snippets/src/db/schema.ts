import { eventTables } from "@collab/db";
import { notesTables } from "@collab/notes";
import { boolean, index, integer, pgSchema, primaryKey, serial, text, timestamp } from "drizzle-orm/pg-core";

export const snippetsSchema = pgSchema("snippets");

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** A snippet: personal when project_id is null, else a project's (GitLab's PersonalSnippet and ProjectSnippet). */
export const snippets = snippetsSchema.table(
  "snippets",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id"),
    authorId: integer("author_id").notNull(),
    title: text("title").notNull(),
    description: text("description"),
    visibility: text("visibility").notNull(),
    /** The repository storage its files belong to (admin storage moves change it). */
    repositoryStorage: text("repository_storage").notNull().default("default"),
    /** Set while a storage move runs: writes are refused. */
    repositoryReadOnly: boolean("repository_read_only").notNull().default(false),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("snippets_project_idx").on(t.projectId, t.id),
    index("snippets_author_idx").on(t.authorId, t.id),
    index("snippets_visibility_idx").on(t.visibility, t.id),
    index("snippets_storage_idx").on(t.repositoryStorage, t.id),
  ],
);

/**
 * A snippet's files, as the API reads them (storage/snippet-files.ts); the snippet's git
 * repository holds the same files, committed in the same transaction (storage/snippet-repository.ts).
 */
export const snippetFiles = snippetsSchema.table(
  "snippet_files",
  {
    snippetId: integer("snippet_id")
      .notNull()
      .references(() => snippets.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    content: text("content").notNull(),
    /** Keeps the files in the order they were added (the first is the snippet's file_name). */
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.snippetId, t.path] })],
);

/** Who submitted a snippet (GitLab's user_agent_details), shown to administrators for spam review. */
export const userAgentDetails = snippetsSchema.table("user_agent_details", {
  snippetId: integer("snippet_id")
    .primaryKey()
    .references(() => snippets.id, { onDelete: "cascade" }),
  userAgent: text("user_agent").notNull(),
  ipAddress: text("ip_address").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * Notes on project snippets (the shared notes tables; resource state events and iid sequences stay
 * empty: snippets have neither states nor iids).
 */
export const noteTables = notesTables(snippetsSchema);
export const { notes, resourceStateEvents, awardEmoji, timelogs, internalIds } = noteTables;

/** Durable domain events: the outbox and the ids of the events applied. */
export const { outbox, processedEvents } = eventTables(snippetsSchema);

export type SnippetRow = typeof snippets.$inferSelect;
export type SnippetFileRow = typeof snippetFiles.$inferSelect;
