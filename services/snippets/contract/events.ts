/** Durable events the snippets service publishes (see index.ts). */
import { awardEventContracts, eventContract, noteEventContracts } from "@collab/core";
import { z } from "zod";

const id = z.number().int().positive();

/** A snippet as its events carry it: project_id null for a personal snippet. */
export const SnippetEventPayload = () =>
  z.object({ id, project_id: id.nullable(), actor_id: id, title: z.string(), visibility: z.enum(["private", "internal", "public"]) });

export const SnippetsEvents = {
  snippetCreated: eventContract("snippets.snippet.created", SnippetEventPayload),
  /** Its notes went with it. */
  snippetDeleted: eventContract("snippets.snippet.deleted", SnippetEventPayload),
  /** snippets.note.created|updated|deleted (the shared notes code, project snippets only). */
  ...noteEventContracts("snippets"),
  /** snippets.award_emoji.awarded|revoked (the shared award emoji, on the noteables and their notes). */
  ...awardEventContracts("snippets"),
};
