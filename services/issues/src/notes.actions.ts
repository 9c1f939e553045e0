import { AccessLevel, action, badRequest, forbidden, notFound, page, recordNotFound, requireCaller, type Ctx } from "@collab/core";
import { assertWritable } from "./domain/read-only";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import {
  CreateDiscussionParams,
  CreateNoteParams,
  DiscussionNoteParams,
  DiscussionRefParams,
  ListDiscussionsParams,
  ListNotesParams,
  ListStateEventsParams,
  NoteRefParams,
  ReplyParams,
  StateEventRefParams,
  UpdateDiscussionNoteParams,
  UpdateNoteParams,
} from "./api/notes.params";
import { presentDiscussion, presentNote, presentStateEvent, type NoteContext } from "./api/note.entity";
import type { NoteRow } from "./db/schema";
import { findDiscussion, findDiscussions, findNote, findNotes, findStateEvent, findStateEvents } from "./finders/notes.finder";
import { loadIssue, type LoadedIssue } from "./domain/load";
import { createIssueNote, deleteIssueNote, replyToDiscussion, updateNote } from "./domain/notes";
import { canComment, canSeeInternalNotes, canSetTimestamps } from "./domain/permissions";
import { userMap } from "./domain/remote";

export const NOTE_EVENTS = {
  created: "issues.note.created",
  updated: "issues.note.updated",
  deleted: "issues.note.deleted",
} as const;

const notePayload = (note: NoteRow, issue: LoadedIssue["issue"], actorId: number) => ({
  id: note.id,
  noteable_type: note.noteableType,
  noteable_id: note.noteableId,
  noteable_iid: issue.iid,
  project_id: note.projectId,
  actor_id: actorId,
  internal: note.internal,
  system: note.system,
  discussion_id: note.discussionId,
});

async function noteContext(ctx: Ctx<unknown>, issue: LoadedIssue["issue"], rows: NoteRow[]): Promise<NoteContext> {
  return { users: await userMap(ctx, rows.flatMap((n) => [n.authorId, n.resolvedById])), iids: new Map([[issue.id, issue.iid]]) };
}

/**
 * Only the author edits a comment; the author or a Maintainer deletes it; system notes are immutable.
 * A locked discussion is closed to non-members for edits and deletions too, their own notes included.
 */
function assertCanEdit(loaded: LoadedIssue, note: NoteRow, mode: "update" | "delete") {
  const caller = loaded.actor.caller;
  if (!caller || note.system || !canComment(loaded.actor, loaded.issue)) throw forbidden();
  if (note.authorId === caller.id || caller.admin) return;
  if (mode === "delete" && loaded.actor.role >= AccessLevel.MAINTAINER) return;
  throw forbidden();
}

/** Timestamps on new notes: administrators and project owners only, silently ignored otherwise. */
const createdAtFor = (loaded: LoadedIssue, at?: Date) => (at && canSetTimestamps(loaded.actor) ? at : undefined);

async function loadForComment(kit: ServiceKit, ctx: Ctx<{ id: string; issue_iid: number }>) {
  requireCaller(ctx);
  const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
  if (!canComment(loaded.actor, loaded.issue)) throw forbidden();
  assertWritable(loaded.access);
  return loaded;
}

/**
 * internal (or its deprecated alias confidential) counts only for those who may mark notes
 * internal; GitLab silently drops it for everybody else rather than refusing the comment.
 */
const internalFor = (loaded: LoadedIssue, p: { internal?: boolean; confidential?: boolean }) =>
  (p.internal ?? p.confidential ?? false) && canSeeInternalNotes(loaded.actor);

/** A standalone-API note the caller may change: found (404 otherwise), theirs to edit, project writable. */
async function editableNote(kit: ServiceKit, ctx: Ctx<{ id: string; issue_iid: number; note_id: number }>, mode: "update" | "delete") {
  requireCaller(ctx);
  const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
  const note = await findNote(kit.db, "Issue", loaded.issue.id, ctx.params.note_id, { internal: canSeeInternalNotes(loaded.actor) });
  if (!note) throw notFound("Note");
  assertCanEdit(loaded, note, mode);
  assertWritable(loaded.access);
  return { loaded, note };
}

/** A note of a thread the caller may see, or 404 Note Not Found. */
async function threadNote(kit: ServiceKit, loaded: LoadedIssue, discussionId: string, noteId: number): Promise<NoteRow> {
  const thread = await findDiscussion(kit.db, "Issue", loaded.issue.id, discussionId, { internal: canSeeInternalNotes(loaded.actor) });
  const note = thread.find((n) => n.id === noteId);
  if (!note) throw notFound("Note");
  return note;
}

export const notesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "notes.list": action({
    idempotent: true,
    input: () => ListNotesParams,
    async handler(ctx) {
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const { rows, total } = await findNotes(kit.db, "Issue", loaded.issue.id, ctx.params, { internal: canSeeInternalNotes(loaded.actor) });
      const c = await noteContext(ctx, loaded.issue, rows);
      return page(rows.map((n) => presentNote(n, c)), total, ctx.params);
    },
  }),

  "notes.get": action({
    idempotent: true,
    input: () => NoteRefParams,
    async handler(ctx) {
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const note = await findNote(kit.db, "Issue", loaded.issue.id, ctx.params.note_id, { internal: canSeeInternalNotes(loaded.actor) });
      if (!note) throw notFound("Note");
      return presentNote(note, await noteContext(ctx, loaded.issue, [note]));
    },
  }),

  "notes.create": action({
    input: () => CreateNoteParams,
    async handler(ctx) {
      const loaded = await loadForComment(kit, ctx);
      const caller = loaded.actor.caller!;
      const note = await createIssueNote(kit.db, loaded.issue, {
        body: ctx.params.body,
        authorId: caller.id,
        internal: internalFor(loaded, ctx.params),
        type: null,
        createdAt: createdAtFor(loaded, ctx.params.created_at),
      });
      ctx.emit(NOTE_EVENTS.created, notePayload(note, loaded.issue, caller.id));
      return presentNote(note, await noteContext(ctx, loaded.issue, [note]));
    },
  }),

  "notes.update": action({
    input: () => UpdateNoteParams,
    async handler(ctx) {
      const { loaded, note } = await editableNote(kit, ctx, "update");
      const updated = await updateNote(kit.db, note, { body: ctx.params.body, internal: ctx.params.confidential }, loaded.actor.caller!.id);
      if (updated !== note) ctx.emit(NOTE_EVENTS.updated, notePayload(updated, loaded.issue, loaded.actor.caller!.id));
      return presentNote(updated, await noteContext(ctx, loaded.issue, [updated]));
    },
  }),

  "notes.delete": action({
    input: () => NoteRefParams,
    async handler(ctx) {
      const { loaded, note } = await editableNote(kit, ctx, "delete");
      await deleteIssueNote(kit.db, loaded.issue, note);
      ctx.emit(NOTE_EVENTS.deleted, notePayload(note, loaded.issue, loaded.actor.caller!.id));
      return null;
    },
  }),

  "discussions.list": action({
    idempotent: true,
    input: () => ListDiscussionsParams,
    async handler(ctx) {
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const { threads, total } = await findDiscussions(kit.db, "Issue", loaded.issue.id, ctx.params, { internal: canSeeInternalNotes(loaded.actor) });
      const c = await noteContext(ctx, loaded.issue, threads.flatMap((t) => t.notes));
      return page(threads.map((t) => presentDiscussion(t.id, t.notes, c)), total, ctx.params);
    },
  }),

  "discussions.get": action({
    idempotent: true,
    input: () => DiscussionRefParams,
    async handler(ctx) {
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const thread = await findDiscussion(kit.db, "Issue", loaded.issue.id, ctx.params.discussion_id, { internal: canSeeInternalNotes(loaded.actor) });
      if (!thread.length) throw notFound("Discussion");
      return presentDiscussion(ctx.params.discussion_id, thread, await noteContext(ctx, loaded.issue, thread));
    },
  }),

  "discussions.create": action({
    input: () => CreateDiscussionParams,
    async handler(ctx) {
      const loaded = await loadForComment(kit, ctx);
      const caller = loaded.actor.caller!;
      const note = await createIssueNote(kit.db, loaded.issue, {
        body: ctx.params.body,
        authorId: caller.id,
        internal: internalFor(loaded, ctx.params),
        type: "DiscussionNote",
        createdAt: createdAtFor(loaded, ctx.params.created_at),
      });
      ctx.emit(NOTE_EVENTS.created, notePayload(note, loaded.issue, caller.id));
      return presentDiscussion(note.discussionId, [note], await noteContext(ctx, loaded.issue, [note]));
    },
  }),

  "discussions.reply": action({
    input: () => ReplyParams,
    async handler(ctx) {
      const loaded = await loadForComment(kit, ctx);
      const caller = loaded.actor.caller!;
      const thread = await findDiscussion(kit.db, "Issue", loaded.issue.id, ctx.params.discussion_id, { internal: canSeeInternalNotes(loaded.actor) });
      if (!thread.length) throw notFound("Discussion");
      // A reply inherits the thread's confidentiality.
      const note = await replyToDiscussion(kit.db, loaded.issue, thread, {
        body: ctx.params.body,
        authorId: caller.id,
        internal: thread[0].internal,
        createdAt: createdAtFor(loaded, ctx.params.created_at),
      });
      ctx.emit(NOTE_EVENTS.created, notePayload(note, loaded.issue, caller.id));
      return presentNote(note, await noteContext(ctx, loaded.issue, [note]));
    },
  }),

  "discussions.getNote": action({
    idempotent: true,
    input: () => DiscussionNoteParams,
    async handler(ctx) {
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const note = await threadNote(kit, loaded, ctx.params.discussion_id, ctx.params.note_id);
      return presentNote(note, await noteContext(ctx, loaded.issue, [note]));
    },
  }),

  "discussions.updateNote": action({
    input: () => UpdateDiscussionNoteParams,
    async handler(ctx) {
      requireCaller(ctx);
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const note = await threadNote(kit, loaded, ctx.params.discussion_id, ctx.params.note_id);
      if (ctx.params.resolved !== undefined) throw badRequest("Note is not resolvable");
      assertCanEdit(loaded, note, "update");
      assertWritable(loaded.access);
      const updated = await updateNote(kit.db, note, { body: ctx.params.body }, loaded.actor.caller!.id);
      if (updated !== note) ctx.emit(NOTE_EVENTS.updated, notePayload(updated, loaded.issue, loaded.actor.caller!.id));
      return presentNote(updated, await noteContext(ctx, loaded.issue, [updated]));
    },
  }),

  "discussions.deleteNote": action({
    input: () => DiscussionNoteParams,
    async handler(ctx) {
      requireCaller(ctx);
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const note = await threadNote(kit, loaded, ctx.params.discussion_id, ctx.params.note_id);
      assertCanEdit(loaded, note, "delete");
      assertWritable(loaded.access);
      await deleteIssueNote(kit.db, loaded.issue, note);
      ctx.emit(NOTE_EVENTS.deleted, notePayload(note, loaded.issue, loaded.actor.caller!.id));
      return null;
    },
  }),

  "stateEvents.list": action({
    idempotent: true,
    input: () => ListStateEventsParams,
    async handler(ctx) {
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const { rows, total } = await findStateEvents(kit.db, loaded.issue.id, ctx.params);
      const users = await userMap(ctx, rows.map((e) => e.userId));
      return page(rows.map((e) => presentStateEvent(e, users)), total, ctx.params);
    },
  }),

  "stateEvents.get": action({
    idempotent: true,
    input: () => StateEventRefParams,
    async handler(ctx) {
      const loaded = await loadIssue(kit, ctx, ctx.params.id, ctx.params.issue_iid);
      const event = await findStateEvent(kit.db, loaded.issue.id, ctx.params.resource_state_event_id);
      // GitLab finds it with `.find`: an unknown id is ActiveRecord's RecordNotFound.
      if (!event) throw recordNotFound();
      return presentStateEvent(event, await userMap(ctx, [event.userId]));
    },
  }),
});

