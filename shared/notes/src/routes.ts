import type { RouteDef } from "@collab/core";

/**
 * The note-creating actions (comments, new threads, replies), by the suffix after the service name:
 * the gateway's notes_create_limit covers every service that mounts noteRoutes.
 */
export const NOTE_CREATING_ACTIONS = ["notes.create", "discussions.create", "discussions.reply"] as const;

export const isNoteCreatingAction = (action: string) => NOTE_CREATING_ACTIONS.some((suffix) => action.endsWith(`.${suffix}`));

/**
 * The notes, discussions and resource state events routes of a noteable, e.g.
 * noteRoutes("issues", "/projects/:id/issues/:issue_iid"). They need a signed-in caller even on
 * public projects, as in GitLab. `resolvable` adds PUT …/discussions/:discussion_id.
 */
export function noteRoutes(service: string, noteablePath: string, o: { resolvable: boolean }): RouteDef[] {
  const S = service;
  const P = noteablePath;
  return [
    { method: "GET", path: `${P}/notes`, action: `${S}.notes.list` },
    { method: "POST", path: `${P}/notes`, action: `${S}.notes.create` },
    { method: "GET", path: `${P}/notes/:note_id`, action: `${S}.notes.get` },
    { method: "PUT", path: `${P}/notes/:note_id`, action: `${S}.notes.update` },
    { method: "DELETE", path: `${P}/notes/:note_id`, action: `${S}.notes.delete` },

    { method: "GET", path: `${P}/discussions`, action: `${S}.discussions.list` },
    { method: "POST", path: `${P}/discussions`, action: `${S}.discussions.create` },
    { method: "GET", path: `${P}/discussions/:discussion_id`, action: `${S}.discussions.get` },
    ...(o.resolvable ? [{ method: "PUT", path: `${P}/discussions/:discussion_id`, action: `${S}.discussions.resolve` } satisfies RouteDef] : []),
    { method: "POST", path: `${P}/discussions/:discussion_id/notes`, action: `${S}.discussions.reply` },
    { method: "GET", path: `${P}/discussions/:discussion_id/notes/:note_id`, action: `${S}.discussions.getNote` },
    { method: "PUT", path: `${P}/discussions/:discussion_id/notes/:note_id`, action: `${S}.discussions.updateNote` },
    { method: "DELETE", path: `${P}/discussions/:discussion_id/notes/:note_id`, action: `${S}.discussions.deleteNote` },

    { method: "GET", path: `${P}/resource_state_events`, action: `${S}.stateEvents.list` },
    { method: "GET", path: `${P}/resource_state_events/:resource_state_event_id`, action: `${S}.stateEvents.get` },
  ];
}
