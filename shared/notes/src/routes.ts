import type { RouteDef } from "@collab/core";
import { isNoteCreatingAction, NOTE_CREATING_ACTIONS, noteContract, noteRoutes as routesOf, type NoteEntries } from "@collab/notes-contract";

// The notes routes live in the notes contract (@collab/notes-contract); re-exported for the gateway.
export { isNoteCreatingAction, NOTE_CREATING_ACTIONS };

/**
 * The notes, discussions and resource state events routes of a noteable, from its service's note
 * entries (noteContract), or by the service's name: noteRoutes("issues", "/projects/:id/issues/:issue_iid", …).
 * They need a signed-in caller even on public projects, as in GitLab. `resolvable` adds PUT
 * …/discussions/:discussion_id.
 */
export function noteRoutes(service: string | NoteEntries, noteablePath: string, o: { resolvable: boolean }): RouteDef[] {
  return routesOf(typeof service === "string" ? noteContract(service) : service, noteablePath, o);
}
