import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { noteParams } from "../api/params";
import type { LoadedNoteable, NoteableKind } from "../kind";
import { notesContext } from "./context";
import { discussionActions } from "./discussions.actions";
import { noteActions } from "./notes.actions";
import { stateEventActions } from "./state-events.actions";

/**
 * The moleculer actions of a noteable kind, to spread into the owning service's actions:
 * notes.*, discussions.* (with discussions.resolve on resolvable kinds) and stateEvents.*.
 */
export function notesActions<L extends LoadedNoteable>(kit: ServiceKit, kind: NoteableKind<L>): Record<string, ActionSchema> {
  const P = noteParams(kind.pathParam);
  const c = notesContext(kit, kind);
  return { ...noteActions(kit, kind, P, c), ...discussionActions(kit, kind, P, c), ...stateEventActions(kit, P, c) };
}
