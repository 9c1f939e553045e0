import { eventTables } from "@collab/db";
import { boolean, index, integer, jsonb, pgSchema, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const errorTrackingSchema = pgSchema("error_tracking");

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** A project's error-tracking setting: absent until first configured (GET answers 404 then). */
export const settings = errorTrackingSchema.table("settings", {
  projectId: integer("project_id").primaryKey(),
  enabled: boolean("enabled").notNull().default(false),
  /** true: events are collected here (the collector); false: an external tracker at api_url. */
  integrated: boolean("integrated").notNull().default(true),
  apiUrl: text("api_url"),
  projectName: text("project_name"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Public keys an SDK authenticates its submissions with (they are in the DSN, meant to be public). */
export const clientKeys = errorTrackingSchema.table(
  "client_keys",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").notNull(),
    active: boolean("active").notNull().default(true),
    publicKey: text("public_key").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("client_keys_public_key_idx").on(t.publicKey), index("client_keys_project_idx").on(t.projectId)],
);

/** Error events received by the collector, one row per event, the SDK's payload kept whole. */
export const errorEvents = errorTrackingSchema.table(
  "error_events",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id").notNull(),
    eventId: text("event_id").notNull(),
    exceptionType: text("exception_type"),
    exceptionMessage: text("exception_message"),
    platform: text("platform"),
    environment: text("environment"),
    occurredAt: ts("occurred_at").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  // A retried submission carries the same event id: stored once.
  (t) => [uniqueIndex("error_events_project_event_idx").on(t.projectId, t.eventId)],
);

/** Durable domain events: the outbox (unused: nothing is published yet) and the ids of those applied. */
export const { outbox, processedEvents } = eventTables(errorTrackingSchema);

export type SettingRow = typeof settings.$inferSelect;
export type ClientKeyRow = typeof clientKeys.$inferSelect;
export type ErrorEventRow = typeof errorEvents.$inferSelect;
