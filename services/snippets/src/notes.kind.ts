import { AccessLevel, notFound } from "@collab/core";
import type { LoadedNoteable, NoteableKind } from "@collab/notes";
import { Snippets } from "@collab/snippets-contract";
import { noteTables, type SnippetRow } from "./db/schema";
import { loadProjectSnippet, type LoadedProjectSnippet } from "./domain/load";
import { canCreateProjectSnippet } from "./domain/policy";

/** What the shared notes code needs of a snippet: no iid, no lock, no user_notes_count. */
type SnippetNoteable = Pick<SnippetRow, "id" | "projectId" | "authorId" | "title"> & { iid: null; projectId: number; discussionLocked: null; confidential: boolean };
type LoadedSnippetNoteable = LoadedProjectSnippet & LoadedNoteable<SnippetNoteable>;

/**
 * Project snippets as noteables of the shared notes code (GitLab's noteable type "Snippet", found
 * by id): whoever may read the snippet and is signed in comments; internal notes and timestamps
 * as on issues (Reporter, Owner); a missing or hidden snippet is `404 Snippet Not Found`.
 */
export const snippetNotes: NoteableKind<LoadedSnippetNoteable> = {
  noteableType: "Snippet",
  pathParam: "snippet_id",
  tables: noteTables,
  events: Snippets.events,
  resolvable: false,
  missing: () => notFound("Snippet"),
  async load(kit, ctx, projectRef, snippetId) {
    const loaded = await loadProjectSnippet(ctx, kit.db, projectRef, snippetId);
    const s = loaded.snippet;
    // Comments on snippets that are not public are announced as confidential: the Events API then shows them to Reporters and up only.
    const noteable = { id: s.id, iid: null, projectId: s.projectId!, authorId: s.authorId, title: s.title, discussionLocked: null, confidential: s.visibility !== "public" };
    return { ...loaded, noteable, caller: loaded.access.caller, role: loaded.access.role, access: loaded.access };
  },
  // Snippets keep no count of their notes.
  bumpUserNotesCount: async () => undefined,
  can: {
    comment: (l) => l.caller !== null,
    seeInternalNotes: (l) => canCreateProjectSnippet(l.access),
    setTimestamps: (l) => l.role >= AccessLevel.OWNER,
    resolve: () => false,
  },
};
