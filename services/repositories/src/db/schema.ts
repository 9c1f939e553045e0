import { eventTables } from "@collab/db";
import type { PushedRef } from "@collab/git";
import { index, integer, jsonb, pgSchema, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const repositoriesSchema = pgSchema("repositories");

/**
 * A bare git repository: whose it is (a project's or a snippet's), the storage it lives on and its
 * folder there (GitLab's hashed storage path, from the container's id: renames never move it).
 */
export const repositories = repositoriesSchema.table(
  "repositories",
  {
    id: serial("id").primaryKey(),
    containerKind: text("container_kind").notNull(),
    containerId: integer("container_id").notNull(),
    storage: text("storage").notNull(),
    diskPath: text("disk_path").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("repositories_container_idx").on(t.containerKind, t.containerId)],
);

/**
 * A push accepted by its pre-receive check whose events are not written yet: recorded before git
 * moves any ref, removed in the transaction that writes the events. A row whose session's lease
 * (`held_until`, renewed while receive-pack runs) has run out is finished by the sweep.
 */
export const pendingPushes = repositoriesSchema.table(
  "pending_pushes",
  {
    id: serial("id").primaryKey(),
    repositoryId: integer("repository_id")
      .notNull()
      .references(() => repositories.id, { onDelete: "cascade" }),
    projectId: integer("project_id").notNull(),
    /** For the commits' URLs in the events, as the project was named when it was pushed to. */
    projectPath: text("project_path").notNull(),
    userId: integer("user_id").notNull(),
    userUsername: text("user_username").notNull(),
    updates: jsonb("updates").$type<PushedRef[]>().notNull(),
    heldUntil: timestamp("held_until", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("pending_pushes_held_until_idx").on(t.heldUntil)],
);

/** Durable domain events: the outbox and the ids of the events applied. */
export const { outbox, processedEvents } = eventTables(repositoriesSchema);

export type RepositoryRow = typeof repositories.$inferSelect;
export type PendingPushRow = typeof pendingPushes.$inferSelect;
