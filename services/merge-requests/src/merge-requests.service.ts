import { defineService } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import path from "node:path";

/**
 * Merge requests and everything hung on them: notes and discussions, resource state events,
 * approvals, approval rules and the project's approval settings.
 */
export const mergeRequestsService: ServiceSchema = defineService({
  name: "merge-requests",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  actions: () => ({}),
});
