import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, text, timestamp, uuid, type PgSchema } from "drizzle-orm/pg-core";

/**
 * A service's two tables of durable domain events, in its own schema:
 * - `outbox`: events written in the same transaction as the change they announce; the relay
 *   publishes them and deletes each once it is handed over (to JetStream, or to the in-process
 *   consumers in embedded mode). `claimed_until` leases a row to one relay replica at a time.
 * - `processed_events`: ids of the events this service has applied, written in the consumer's
 *   transaction, so a redelivered event is applied once.
 */
export function eventTables(schema: PgSchema) {
  const outbox = schema.table(
    "outbox",
    {
      id: bigserial("id", { mode: "number" }).primaryKey(),
      eventId: uuid("event_id").notNull().unique(),
      name: text("name").notNull(),
      payload: jsonb("payload").notNull(),
      occurredAt: timestamp("occurred_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
      claimedUntil: timestamp("claimed_until", { withTimezone: true, mode: "date" }),
      attempts: integer("attempts").notNull().default(0),
      lastError: text("last_error"),
    },
    (t) => [index("outbox_pending_idx").on(t.claimedUntil, t.id)],
  );
  const processedEvents = schema.table("processed_events", {
    eventId: uuid("event_id").primaryKey(),
    name: text("name").notNull(),
    processedAt: timestamp("processed_at", { withTimezone: true, mode: "date" }).notNull().default(sql`now()`),
  });
  return { outbox, processedEvents };
}

export type EventTables = ReturnType<typeof eventTables>;
