import { eventTables } from "@collab/db";
import { integer, pgSchema, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

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

/** Durable domain events: the outbox and the ids of the events applied. */
export const { outbox, processedEvents } = eventTables(repositoriesSchema);

export type RepositoryRow = typeof repositories.$inferSelect;
