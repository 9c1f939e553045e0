import type { RouteDef } from "@collab/core";
import { RESOURCE_EVENT_KEYS, type NoteEntries, type ParticipantsEntry, type ResourceEventKey } from "./actions";

/**
 * The note-creating actions (comments, new threads, replies), by the suffix after the service name:
 * the gateway's notes_create_limit covers every service that mounts noteRoutes.
 */
export const NOTE_CREATING_ACTIONS = ["notes.create", "discussions.create", "discussions.reply"] as const;

export const isNoteCreatingAction = (action: string) => NOTE_CREATING_ACTIONS.some((suffix) => action.endsWith(`.${suffix}`));

/**
 * The notes, discussions and (for kinds with states) resource state events routes of a noteable,
 * from its service's note entries, e.g. noteRoutes(Issues, "/projects/:id/issues/:issue_iid", { resolvable: false }). They
 * need a signed-in caller even on public projects, as in GitLab. `resolvable` adds PUT
 * …/discussions/:discussion_id (the entries must then have discussions.resolve).
 */
export function noteRoutes(entries: NoteEntries, noteablePath: string, o: { resolvable: boolean }): RouteDef[] {
  const { notes: N, stateEvents: E } = entries;
  const P = noteablePath;
  return [
    { method: "GET", path: `${P}/notes`, action: N.list.name },
    { method: "POST", path: `${P}/notes`, action: N.create.name },
    { method: "GET", path: `${P}/notes/:note_id`, action: N.get.name },
    { method: "PUT", path: `${P}/notes/:note_id`, action: N.update.name },
    { method: "DELETE", path: `${P}/notes/:note_id`, action: N.delete.name },

    ...discussionRoutes(entries.discussions, P, o),

    ...(E
      ? ([
          { method: "GET", path: `${P}/resource_state_events`, action: E.list.name },
          { method: "GET", path: `${P}/resource_state_events/:resource_state_event_id`, action: E.get.name },
        ] satisfies RouteDef[])
      : []),
    ...resourceEventRoutes(entries, P),
  ];
}

/** The path segment of each resource event family (GitLab's resource_<family>_events). */
const EVENT_PATHS: Record<ResourceEventKey, string> = {
  labelEvents: "resource_label_events",
  milestoneEvents: "resource_milestone_events",
  weightEvents: "resource_weight_events",
  iterationEvents: "resource_iteration_events",
};

/** GET …/resource_<family>_events[/:resource_<family>_event_id] of the families the kind's entries have. */
function resourceEventRoutes(entries: NoteEntries, P: string): RouteDef[] {
  return RESOURCE_EVENT_KEYS.flatMap((key) => {
    const E = entries[key];
    if (!E) return [];
    const segment = EVENT_PATHS[key];
    return [
      { method: "GET", path: `${P}/${segment}`, action: E.list.name },
      { method: "GET", path: `${P}/${segment}/:${segment.slice(0, -1)}_id`, action: E.get.name },
    ] satisfies RouteDef[];
  });
}

/**
 * The discussions routes of a noteable (part of noteRoutes; alone for a noteable without a notes
 * API, such as a commit under /projects/:id/repository/commits/:commit_id).
 */
export function discussionRoutes(D: NoteEntries["discussions"], noteablePath: string, o: { resolvable: boolean }): RouteDef[] {
  const P = noteablePath;
  const resolve = o.resolvable ? D.resolve : undefined;
  if (o.resolvable && !resolve) throw new Error("discussionRoutes: resolvable, but the entries have no discussions.resolve");
  return [
    { method: "GET", path: `${P}/discussions`, action: D.list.name },
    { method: "POST", path: `${P}/discussions`, action: D.create.name },
    { method: "GET", path: `${P}/discussions/:discussion_id`, action: D.get.name },
    ...(resolve ? [{ method: "PUT", path: `${P}/discussions/:discussion_id`, action: resolve.name } satisfies RouteDef] : []),
    { method: "POST", path: `${P}/discussions/:discussion_id/notes`, action: D.reply.name },
    { method: "GET", path: `${P}/discussions/:discussion_id/notes/:note_id`, action: D.getNote.name },
    { method: "PUT", path: `${P}/discussions/:discussion_id/notes/:note_id`, action: D.updateNote.name },
    { method: "DELETE", path: `${P}/discussions/:discussion_id/notes/:note_id`, action: D.deleteNote.name },
  ];
}

/** GET …/participants of a noteable (participantsContract): readable anonymously where the noteable is, as in GitLab. */
export const participantsRoute = (entry: ParticipantsEntry, noteablePath: string): RouteDef => ({
  method: "GET",
  path: `${noteablePath}/participants`,
  action: entry.name,
  auth: "optional",
});
