import { defineService } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { clientKeysActions } from "./client-keys/client-keys.actions";
import { collectorActions } from "./collector/collector.actions";
import { outbox, processedEvents } from "./db/schema";
import { namespacesConsumers } from "./namespaces.consumers";
import { settingsActions } from "./settings/settings.actions";

/**
 * Integrated error tracking: a project's setting, the client keys its SDKs authenticate with, and
 * the collector those SDKs submit error events to (the Sentry envelope protocol).
 */
export const errorTrackingService: ServiceSchema = defineService({
  name: "error-tracking",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  actions: (kit) => [settingsActions(kit), clientKeysActions(kit), collectorActions(kit)],
  eventTables: { outbox, processedEvents },
  consumes: () => namespacesConsumers(),
});
