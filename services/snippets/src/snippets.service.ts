import { defineService } from "@collab/db";
import { awardEmojiActions, notesActions } from "@collab/notes";
import { Snippets } from "@collab/snippets-contract";
import type { ServiceSchema } from "moleculer";
import path from "node:path";
import { personalSnippetsActions } from "./api/personal-snippets.actions";
import { projectSnippetsActions } from "./api/project-snippets.actions";
import { storageActions } from "./api/storage.actions";
import { outbox, processedEvents } from "./db/schema";
import { namespacesConsumers } from "./namespaces.consumers";
import { snippetNotes } from "./notes.kind";

/** Snippets: projects' and personal ones, their files, who may read and change them, and the notes on project snippets. */
export const snippetsService: ServiceSchema = defineService({
  name: "snippets",
  migrations: path.join(__dirname, "../drizzle"),
  dependencies: ["accounts", "namespaces"],
  actions: (kit) => [projectSnippetsActions(kit), personalSnippetsActions(kit), storageActions(kit), notesActions(kit, snippetNotes, { notes: Snippets.notes, discussions: Snippets.discussions }), awardEmojiActions(kit, { notes: snippetNotes, events: Snippets.events }, Snippets.awardEmoji)],
  eventTables: { outbox, processedEvents },
  consumes: (kit) => namespacesConsumers(kit),
});
