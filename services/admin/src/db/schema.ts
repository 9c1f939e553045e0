import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgSchema, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

export const adminSchema = pgSchema("admin");

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/** The instance's application settings: one row (id 1); `values` holds every field set so far. */
export const applicationSettings = adminSchema.table("application_settings", {
  id: integer("id").primaryKey(),
  values: jsonb("values").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

export const broadcastMessages = adminSchema.table(
  "broadcast_messages",
  {
    id: serial("id").primaryKey(),
    message: text("message").notNull(),
    startsAt: ts("starts_at").notNull(),
    endsAt: ts("ends_at").notNull(),
    font: text("font"),
    targetAccessLevels: integer("target_access_levels").array().notNull().default(sql`'{}'::integer[]`),
    targetPath: text("target_path"),
    broadcastType: text("broadcast_type").notNull().default("banner"),
    dismissable: boolean("dismissable"),
    theme: text("theme").notNull().default("indigo"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [index("broadcast_messages_window_idx").on(t.endsAt, t.startsAt)],
);
export type BroadcastMessageRow = typeof broadcastMessages.$inferSelect;

/** Stored gate state of an experiment (the definitions live in src/experiments/registry.ts). */
export const experimentGates = adminSchema.table("experiment_gates", {
  key: text("key").primaryKey(),
  gates: jsonb("gates").$type<{ key: string; value: unknown }[]>().notNull().default(sql`'[]'::jsonb`),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/** Repository storage moves of projects, snippets and groups (`container_type`). */
export const storageMoves = adminSchema.table(
  "repository_storage_moves",
  {
    id: serial("id").primaryKey(),
    containerType: text("container_type").notNull(), // project | snippet | group
    containerId: integer("container_id").notNull(),
    state: text("state").notNull().default("initial"),
    sourceStorageName: text("source_storage_name").notNull(),
    destinationStorageName: text("destination_storage_name").notNull(),
    errorMessage: text("error_message"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("storage_moves_container_idx").on(t.containerType, t.containerId, t.id),
    index("storage_moves_type_idx").on(t.containerType, t.id),
    index("storage_moves_state_idx").on(t.state),
    // One move at a time holds a container (from its lock to its switch): a repeated step of one
    // move can never act on another's lock.
    uniqueIndex("storage_moves_holding_idx").on(t.containerType, t.containerId).where(sql`${t.state} IN ('scheduled', 'started', 'replicated')`),
  ],
);
export type StorageMoveRow = typeof storageMoves.$inferSelect;

/** Fixed-window counters of application rate limits, shared by every gateway replica. */
export const rateLimitCounters = adminSchema.table(
  "rate_limit_counters",
  {
    key: text("key").notNull(),
    windowStart: ts("window_start").notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limit_counters_window_idx").on(t.windowStart)],
);
