import { announce, implement, notFound, page } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { presentNote } from "../api/entity";
import type { NoteEntries } from "@collab/notes-contract";
import { deleteNote, updateNote } from "../domain/notes";
import { findNote, findNotes } from "../finders/notes.finder";
import type { LoadedNoteable, NoteableKind } from "../kind";
import type { NotesContext } from "./context";

/** GET/POST …/notes, GET/PUT/DELETE …/notes/:note_id: comments on the noteable itself. */
export function noteActions<L extends LoadedNoteable>(kit: ServiceKit, kind: NoteableKind<L>, entries: NoteEntries, c: NotesContext<L>): Record<string, ActionSchema> {
  return {
    "notes.list": implement(
      entries.notes.list,
      async (ctx) => {
        const l = await c.load(ctx);
        const { rows, total } = await findNotes(kit.db, c.scope(l), ctx.params, c.visibility(l));
        const nc = await c.present(ctx, l, rows);
        return page(rows.map((n) => presentNote(n, nc)), total, ctx.params);
      },
      { visibility: "published" },
    ),

    "notes.get": implement(
      entries.notes.get,
      async (ctx) => {
        const l = await c.load(ctx);
        const note = await findNote(kit.db, c.scope(l), ctx.params.note_id, c.visibility(l));
        if (!note) throw notFound("Note");
        return presentNote(note, await c.present(ctx, l, [note]));
      },
      { visibility: "published" },
    ),

    "notes.create": implement(
      entries.notes.create,
      async (ctx) => {
        const { l, note } = await c.comment(ctx, null);
        return presentNote(note, await c.present(ctx, l, [note]));
      },
      { visibility: "published" },
    ),

    "notes.update": implement(
      entries.notes.update,
      async (ctx) => {
        const { l, note } = await c.editableNote(ctx, "update");
        const updated = await kit.events.transact(
          (tx) => updateNote(tx, kind, note, { body: ctx.params.body, internal: ctx.params.confidential }, l.caller!.id),
          (row) => (row !== note ? [announce(kind.events.noteUpdated, c.payload(row, l, l.caller!.id))] : []),
        );
        return presentNote(updated, await c.present(ctx, l, [updated]));
      },
      { visibility: "published" },
    ),

    "notes.delete": implement(
      entries.notes.delete,
      async (ctx) => {
        const { l, note } = await c.editableNote(ctx, "delete");
        await kit.events.transact(
          (tx) => deleteNote(tx, kind, l.noteable, note),
          () => [announce(kind.events.noteDeleted, c.payload(note, l, l.caller!.id))],
        );
        return null;
      },
      { visibility: "published" },
    ),
  };
}
