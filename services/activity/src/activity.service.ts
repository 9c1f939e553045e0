import { defineService } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { groupActivityActions } from "./analytics/group-activity.actions";
import { consumers } from "./events/consumers";
import { eventsActions } from "./events/events.actions";
import { outbox, processedEvents } from "./db/schema";
import { todosActions } from "./todos/todos.actions";

/**
 * Activity: the Events API over an events table this service fills from the other services'
 * domain events (events/consumers.ts), and group activity analytics, counted by the services that
 * own issues, merge requests and members.
 */
export const activityService: ServiceSchema = defineService({
  name: "activity",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  actions: (kit) => [eventsActions(kit), groupActivityActions(kit), todosActions(kit)],
  eventTables: { outbox, processedEvents },
  consumes: (kit) => consumers(() => kit.broker),
});
