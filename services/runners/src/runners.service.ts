import { defineService } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { protectedEnvironmentsActions } from "./protected-environments.actions";
import { jobsActions } from "./jobs.actions";
import { runnersActions } from "./runners.actions";
import { schedulesActions } from "./schedules.actions";
import { vulnerabilitiesActions } from "./vulnerabilities/vulnerabilities.actions";
import { tick } from "./domain/schedules";
import { namespacesConsumers } from "./namespaces.events";
import { outbox, processedEvents } from "./db/schema";
import { runnersSecrets } from "./domain/variable-secrets";

/**
 * CI: runners and their tokens, pipelines and jobs, pipeline schedules with the scheduler that
 * fires them, group protected environments, and job artifacts with the vulnerabilities security
 * reports bring (src/vulnerabilities). Follows project and group deletions in
 * namespaces (namespaces.events.ts).
 */
export const runnersService: ServiceSchema = defineService({
  name: "runners",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  actions: (kit) => [runnersActions(kit), jobsActions(kit), schedulesActions(kit), protectedEnvironmentsActions(kit), vulnerabilitiesActions(kit)],
  eventTables: { outbox, processedEvents },
  consumes: () => namespacesConsumers(),
  secrets: runnersSecrets,
  workers: (kit) => [{ name: "scheduler tick", everyMs: kit.config.SCHEDULER_INTERVAL_MS, run: () => tick(kit.db, kit.broker, kit.events) }],
});
