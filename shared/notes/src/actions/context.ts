import { AccessLevel, forbidden, notFound, requireCaller, type Ctx, announce, type NoteEventContracts, type PayloadOf } from "@collab/core";
import { userMap } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import type { NoteContext } from "../api/entity";
import type { NewCommentParams } from "@collab/notes-contract";
import type { NoteRow } from "../db/tables";
import { createNote, invalidNote } from "../domain/notes";
import { assertWritable } from "@collab/work-items";
import { findDiscussion, findNote, type NoteableScope } from "../finders/notes.finder";
import type { LoadedNoteable, NoteableKey, NoteableKind, NoteableType } from "../kind";

/** A project's read-only repository refuses writes to its noteables' notes; a group's noteable has no repository. */
export function assertNoteableWritable(l: LoadedNoteable) {
  if (l.access) assertWritable(l.access);
}

/** The params every notes action has: the project (or group) and the noteable's key (under the kind's name). */
export type NoteableParams = { id: string } & Partial<Record<NoteableKind["pathParam"], NoteableKey>>;

/**
 * The shared steps of the notes actions of one noteable kind: loading with the kind's rules,
 * the standard checks, and what every answer and event needs.
 */
export function notesContext<L extends LoadedNoteable, K extends NoteableKey = number>(kit: ServiceKit, kind: NoteableKind<L, K>) {
  const scope = (l: L): NoteableScope => {
    const { id, commitId, projectId } = l.noteable;
    return { tables: kind.tables, type: kind.noteableType, id, ...(commitId !== undefined && projectId !== null ? { commit: { projectId, sha: commitId } } : {}) };
  };
  const visibility = (l: L) => ({ internal: kind.can.seeInternalNotes(l) });

  const load = (ctx: Ctx<NoteableParams>) => kind.load(kit, ctx, ctx.params.id, ctx.params[kind.pathParam] as K, kind.missing);

  /** Users and iids for presenting these notes: one batched call. */
  const present = async (ctx: Ctx<unknown>, l: L, rows: NoteRow[]): Promise<NoteContext> => {
    const { id, iid } = l.noteable;
    return { users: await userMap(ctx, rows.flatMap((n) => [n.authorId, n.resolvedById])), iids: new Map(id !== null && iid !== null ? [[id, iid]] : []) };
  };

  /** The payload of the kind's note events (NoteEventPayload of @collab/core). */
  const payload = (note: NoteRow, l: L, actorId: number): PayloadOf<NoteEventContracts["noteCreated"]> => ({
    id: note.id,
    noteable_type: note.noteableType as NoteableType,
    // The noteable the note is on (notes of these kinds always have one).
    noteable_id: l.noteable.id,
    noteable_iid: l.noteable.iid,
    project_id: note.projectId,
    ...(l.noteable.groupId !== undefined ? { group_id: l.noteable.groupId } : {}),
    actor_id: actorId,
    internal: note.internal,
    system: note.system,
    discussion_id: note.discussionId,
    author_id: note.authorId,
    body: note.body,
    created_at: note.createdAt.toISOString(),
    ...(l.noteable.commitId !== undefined ? { commit_id: l.noteable.commitId } : {}),
    noteable_title: l.noteable.title ?? null,
    noteable_confidential: l.noteable.confidential ?? false,
  });

  /**
   * Only the author edits a comment; the author or a Maintainer deletes it; system notes are immutable.
   * A locked discussion is closed to non-members for edits and deletions too, their own notes included.
   */
  function assertCanEdit(l: L, note: NoteRow, mode: "update" | "delete") {
    const caller = l.caller;
    if (!caller || note.system || !kind.can.comment(l)) throw forbidden();
    if (note.authorId === caller.id || caller.admin) return;
    if (mode === "delete" && l.role >= AccessLevel.MAINTAINER) return;
    throw forbidden();
  }

  /** Timestamps on new notes: only for those the kind lets set them, silently ignored otherwise. */
  const createdAtFor = (l: L, at?: Date) => (at && kind.can.setTimestamps(l) ? at : undefined);

  /**
   * internal (or its deprecated alias confidential) counts only for those who may mark notes
   * internal; GitLab silently drops it for everybody else rather than refusing the comment.
   */
  const internalFor = (l: L, p: { internal?: boolean; confidential?: boolean }) => (p.internal ?? p.confidential ?? false) && kind.can.seeInternalNotes(l);

  async function loadForComment(ctx: Ctx<NoteableParams>) {
    requireCaller(ctx);
    const l = await load(ctx);
    if (!kind.can.comment(l)) throw forbidden();
    assertNoteableWritable(l);
    return l;
  }

  /** A standalone-API note the caller may change: found (404 otherwise), theirs to edit, project writable. */
  async function editableNote(ctx: Ctx<NoteableParams & { note_id: number }>, mode: "update" | "delete") {
    requireCaller(ctx);
    const l = await load(ctx);
    const note = await findNote(kit.db, scope(l), ctx.params.note_id, visibility(l));
    if (!note) throw notFound("Note");
    assertCanEdit(l, note, mode);
    assertNoteableWritable(l);
    return { l, note };
  }

  /** A new comment (type null) or thread (DiscussionNote, or DiffNote with a position) by the caller, announced as created. */
  async function comment(ctx: Ctx<NoteableParams & NewCommentParams>, type: "DiscussionNote" | null) {
    const l = await loadForComment(ctx);
    const caller = l.caller!;
    const given = type && kind.checkPosition ? ctx.params.position : undefined;
    const checked = given ? await kind.checkPosition!(l, given, ctx) : [];
    const position = Array.isArray(checked) ? given : checked.position;
    const errors = [
      ...(Array.isArray(checked) ? checked : []),
      ...((ctx.params.internal ?? ctx.params.confidential) && kind.internalNotes === false ? [["confidential", "can not be set for this resource"] as [string, string]] : []),
    ];
    if (errors.length) throw invalidNote(errors);
    const note = await kit.events.transact(
      (tx) =>
        createNote(tx, kind, l.noteable, {
          body: ctx.params.body,
          authorId: caller.id,
          internal: internalFor(l, ctx.params),
          type: position ? "DiffNote" : type,
          position,
          createdAt: createdAtFor(l, ctx.params.created_at),
        }),
      (created) => [announce(kind.events.noteCreated, payload(created, l, caller.id))],
    );
    return { l, note };
  }

  /** A thread's note the caller may change: found (404 otherwise), theirs to edit, project writable. */
  async function editableThreadNote(ctx: Ctx<NoteableParams & { discussion_id: string; note_id: number }>, mode: "update" | "delete") {
    requireCaller(ctx);
    const l = await load(ctx);
    const note = await threadNote(l, ctx.params.discussion_id, ctx.params.note_id);
    assertCanEdit(l, note, mode);
    assertNoteableWritable(l);
    return { l, note };
  }

  /** A thread the caller may see, or 404 Discussion Not Found. */
  async function thread(l: L, discussionId: string): Promise<NoteRow[]> {
    const notes = await findDiscussion(kit.db, scope(l), discussionId, visibility(l));
    if (!notes.length) throw notFound("Discussion");
    return notes;
  }

  /** A note of a thread the caller may see, or 404 Note Not Found. */
  async function threadNote(l: L, discussionId: string, noteId: number): Promise<NoteRow> {
    const notes = await findDiscussion(kit.db, scope(l), discussionId, visibility(l));
    const note = notes.find((n) => n.id === noteId);
    if (!note) throw notFound("Note");
    return note;
  }

  return { scope, visibility, load, present, payload, createdAtFor, loadForComment, comment, editableNote, editableThreadNote, thread, threadNote };
}

export type NotesContext<L extends LoadedNoteable, K extends NoteableKey = number> = ReturnType<typeof notesContext<L, K>>;
