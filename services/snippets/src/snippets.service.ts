import { defineService } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { personalSnippetsActions } from "./api/personal-snippets.actions";
import { projectSnippetsActions } from "./api/project-snippets.actions";
import { outbox, processedEvents } from "./db/schema";
import { namespacesConsumers } from "./namespaces.consumers";

/** Snippets: projects' and personal ones, their files, and who may read and change them. */
export const snippetsService: ServiceSchema = defineService({
  name: "snippets",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  actions: (kit) => [projectSnippetsActions(kit), personalSnippetsActions(kit)],
  eventTables: { outbox, processedEvents },
  consumes: () => namespacesConsumers(),
});
