import { announce, implement, page, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { presentDiscussion, presentNote } from "../api/entity";
import type { NoteEntries } from "@collab/notes-contract";
import type { NoteRow } from "../db/tables";
import { deleteNote, replyToDiscussion, updateNote } from "../domain/notes";
import { assertNoteResolvable, assertThreadResolvable, setResolved } from "../domain/resolution";
import { findDiscussions } from "../finders/notes.finder";
import type { LoadedNoteable, NoteableKey, NoteableKind } from "../kind";
import { assertNoteableWritable, type NoteableParams, type NotesContext } from "./context";

/** …/discussions: threads, their notes, and (resolvable kinds) their resolution. */
export function discussionActions<L extends LoadedNoteable, K extends NoteableKey = number>(
  kit: ServiceKit,
  kind: NoteableKind<L, K>,
  entries: Pick<NoteEntries, "discussions">,
  c: NotesContext<L, K>,
): Record<string, ActionSchema> {
  /** Resolves or unresolves notes of a thread; each note that changed is announced as updated. */
  async function resolve(ctx: Ctx<unknown>, l: L, notes: NoteRow[], resolved: boolean): Promise<NoteRow[]> {
    assertNoteableWritable(l);
    return kit.events.transact(
      (tx) => setResolved(tx, kind.tables, notes, resolved, l.caller!.id),
      (rows) => rows.filter((row, i) => row !== notes[i]).map((row) => announce(kind.events.noteUpdated, c.payload(row, l, l.caller!.id))),
    );
  }

  /** PUT …/discussions/:discussion_id/notes/:note_id with `resolved`: that one note. */
  async function resolveNote(ctx: Ctx<NoteableParams & { discussion_id: string; note_id: number }>, resolved: boolean) {
    requireCaller(ctx);
    const l = await c.load(ctx);
    const note = await c.threadNote(l, ctx.params.discussion_id, ctx.params.note_id);
    assertNoteResolvable(kind.resolvable, kind.can.resolve(l, note), note);
    const [row] = await resolve(ctx, l, [note], resolved);
    return presentNote(row, await c.present(ctx, l, [row]));
  }

  const actions: Record<string, ActionSchema> = {
    "discussions.list": implement(
      entries.discussions.list,
      async (ctx) => {
        const l = await c.load(ctx);
        const { threads, total } = await findDiscussions(kit.db, c.scope(l), ctx.params, c.visibility(l));
        const nc = await c.present(ctx, l, threads.flatMap((t) => t.notes));
        return page(threads.map((t) => presentDiscussion(t.id, t.notes, nc)), total, ctx.params);
      },
      { visibility: "published" },
    ),

    "discussions.get": implement(
      entries.discussions.get,
      async (ctx) => {
        const l = await c.load(ctx);
        const thread = await c.thread(l, ctx.params.discussion_id);
        return presentDiscussion(ctx.params.discussion_id, thread, await c.present(ctx, l, thread));
      },
      { visibility: "published" },
    ),

    "discussions.create": implement(
      entries.discussions.create,
      async (ctx) => {
        const { l, note } = await c.comment(ctx, "DiscussionNote");
        return presentDiscussion(note.discussionId, [note], await c.present(ctx, l, [note]));
      },
      { visibility: "published" },
    ),

    "discussions.reply": implement(
      entries.discussions.reply,
      async (ctx) => {
        const l = await c.loadForComment(ctx);
        const caller = l.caller!;
        const thread = await c.thread(l, ctx.params.discussion_id);
        // A reply inherits the thread's confidentiality.
        const note = await kit.events.transact(
          (tx) =>
            replyToDiscussion(tx, kind, l.noteable, thread, {
              body: ctx.params.body,
              authorId: caller.id,
              internal: thread[0].internal,
              createdAt: c.createdAtFor(l, ctx.params.created_at),
            }),
          (created) => [announce(kind.events.noteCreated, c.payload(created, l, caller.id))],
        );
        return presentNote(note, await c.present(ctx, l, [note]));
      },
      { visibility: "published" },
    ),

    "discussions.getNote": implement(
      entries.discussions.getNote,
      async (ctx) => {
        const l = await c.load(ctx);
        const note = await c.threadNote(l, ctx.params.discussion_id, ctx.params.note_id);
        return presentNote(note, await c.present(ctx, l, [note]));
      },
      { visibility: "published" },
    ),

    /** Exactly one of body (an edit) or resolved (a resolution of this one note). */
    "discussions.updateNote": implement(
      entries.discussions.updateNote,
      async (ctx) => {
        if (ctx.params.resolved !== undefined) return resolveNote(ctx, ctx.params.resolved);
        const { l, note } = await c.editableThreadNote(ctx, "update");
        const updated = await kit.events.transact(
          (tx) => updateNote(tx, kind, note, { body: ctx.params.body }, l.caller!.id),
          (row) => (row !== note ? [announce(kind.events.noteUpdated, c.payload(row, l, l.caller!.id))] : []),
        );
        return presentNote(updated, await c.present(ctx, l, [updated]));
      },
      { visibility: "published" },
    ),

    "discussions.deleteNote": implement(
      entries.discussions.deleteNote,
      async (ctx) => {
        const { l, note } = await c.editableThreadNote(ctx, "delete");
        await kit.events.transact(
          (tx) => deleteNote(tx, kind, l.noteable, note),
          () => [announce(kind.events.noteDeleted, c.payload(note, l, l.caller!.id))],
        );
        return null;
      },
      { visibility: "published" },
    ),
  };

  if (!kind.resolvable) return actions;
  const resolveEntry = entries.discussions.resolve;
  if (!resolveEntry) throw new Error(`${kind.noteableType}: resolvable threads, but its note contract has no discussions.resolve`);
  return {
    ...actions,
    /** PUT …/discussions/:discussion_id: resolves or unresolves every resolvable note of the thread. */
    "discussions.resolve": implement(
      resolveEntry,
      async (ctx) => {
        requireCaller(ctx);
        const l = await c.load(ctx);
        const thread = await c.thread(l, ctx.params.discussion_id);
        assertThreadResolvable(kind.can.resolve(l), thread);
        const rows = await resolve(ctx, l, thread, ctx.params.resolved);
        return presentDiscussion(ctx.params.discussion_id, rows, await c.present(ctx, l, rows));
      },
      { visibility: "published" },
    ),
  };
}
