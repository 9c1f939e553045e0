import type { ServiceKit } from "@collab/db";
import { actionsOf, type ImplementedAction } from "@collab/core";
import type { NoteEntries } from "@collab/notes-contract";
import type { ActionSchema } from "moleculer";
import type { LoadedNoteable, NoteableKind } from "../kind";
import { notesContext } from "./context";
import { discussionActions } from "./discussions.actions";
import { noteActions } from "./notes.actions";
import { resourceEventActions } from "./resource-events.actions";
import { stateEventActions } from "./state-events.actions";

/**
 * The moleculer actions of a noteable kind, one of the owning service's action maps: notes.*,
 * discussions.* (with discussions.resolve on resolvable kinds), stateEvents.* and the resource event
 * families its entries have (labelEvents.* …), each
 * implementing its entry of the service's note contract (`entries`: noteContract in its contract).
 */
export function notesActions<L extends LoadedNoteable>(kit: ServiceKit, kind: NoteableKind<L>, entries: NoteEntries): Record<string, ActionSchema> {
  const c = notesContext(kit, kind);
  const service = kind.events.noteCreated.name.split(".")[0];
  const stateEvents = entries.stateEvents ? [stateEventActions(kit, entries.stateEvents, c)] : [];
  // Keyed by their entries' names, so a service may mount several kinds (issues.notes.*, issues.epics.notes.*).
  const maps = [noteActions(kit, kind, entries, c), discussionActions(kit, kind, entries, c), ...stateEvents, resourceEventActions(kit, kind, entries, c)];
  return actionsOf(service, maps.flatMap((m) => Object.values(m)) as ImplementedAction[]);
}

export { participantsActions } from "./participants.actions";

// A noteable with only the discussions API (commits) mounts these alone.
export { assertNoteableWritable, notesContext, type NotesContext } from "./context";
export { discussionActions } from "./discussions.actions";
