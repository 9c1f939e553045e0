import { implement, page, recordNotFound } from "@collab/core";
import { userMap } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { presentStateEvent } from "../api/entity";
import type { NoteEntries } from "@collab/notes-contract";
import { findStateEvent, findStateEvents } from "../finders/notes.finder";
import type { LoadedNoteable } from "../kind";
import type { NotesContext } from "./context";

/** GET …/resource_state_events[/:resource_state_event_id]. */
export function stateEventActions<L extends LoadedNoteable>(kit: ServiceKit, entries: NonNullable<NoteEntries["stateEvents"]>, c: NotesContext<L>): Record<string, ActionSchema> {
  return {
    "stateEvents.list": implement(
      entries.list,
      async (ctx) => {
        const l = await c.load(ctx);
        const { rows, total } = await findStateEvents(kit.db, c.scope(l), ctx.params);
        const users = await userMap(ctx, rows.map((e) => e.userId));
        return page(rows.map((e) => presentStateEvent(e, users)), total, ctx.params);
      },
      { visibility: "published" },
    ),

    "stateEvents.get": implement(
      entries.get,
      async (ctx) => {
        const l = await c.load(ctx);
        const event = await findStateEvent(kit.db, c.scope(l), ctx.params.resource_state_event_id);
        // GitLab finds it with `.find`: an unknown id is ActiveRecord's RecordNotFound.
        if (!event) throw recordNotFound();
        return presentStateEvent(event, await userMap(ctx, [event.userId]));
      },
      { visibility: "published" },
    ),
  };
}
