import type { ServiceKit } from "@collab/db";
import { noteContract, type NoteEntries } from "@collab/notes-contract";
import type { ActionSchema } from "moleculer";
import type { LoadedNoteable, NoteableKind } from "../kind";
import { notesContext } from "./context";
import { discussionActions } from "./discussions.actions";
import { noteActions } from "./notes.actions";
import { stateEventActions } from "./state-events.actions";

/**
 * The moleculer actions of a noteable kind, to spread into the owning service's actions:
 * notes.*, discussions.* (with discussions.resolve on resolvable kinds) and stateEvents.*, each
 * implementing its entry of the service's note contract (`entries`, by default noteContract of
 * the service whose note events the kind announces).
 */
export function notesActions<L extends LoadedNoteable>(kit: ServiceKit, kind: NoteableKind<L>, entries: NoteEntries = noteContract(serviceOf(kind), kind.pathParam)): Record<string, ActionSchema> {
  const c = notesContext(kit, kind);
  return { ...noteActions(kit, kind, entries, c), ...discussionActions(kit, kind, entries, c), ...stateEventActions(kit, entries, c) };
}

/** `<service>` of the kind's `<service>.note.created` event. */
const serviceOf = (kind: NoteableKind) => kind.events.noteCreated.name.split(".")[0];
