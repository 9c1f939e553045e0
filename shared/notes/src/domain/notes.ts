import { badRequest, badRequestMessage } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq } from "drizzle-orm";
import { MAX_NOTE_LENGTH, type DiffPositionParams } from "@collab/notes-contract";
import type { NoteRow } from "../db/tables";
import type { NoteableKind, NoteableRecord } from "../kind";
import { isResolvableNote, isThreadResolved } from "./resolution";
import { newDiscussionId } from "./system-notes";

/** What writing user notes needs of a kind. */
export type NoteWriteKind = Pick<NoteableKind, "noteableType" | "tables" | "resolvable" | "bumpUserNotesCount">;
type Noteable = Pick<NoteableRecord, "id" | "projectId" | "commitId">;

/** Characters as Ruby counts them (code points), not UTF-16 code units: an emoji is one. */
function characterCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function bodyError(body: string): string | undefined {
  if (body.trim() === "") return "can't be blank";
  if (body.length > MAX_NOTE_LENGTH && characterCount(body) > MAX_NOTE_LENGTH) return `is too long (maximum is ${MAX_NOTE_LENGTH} characters)`;
  return undefined;
}

/** GitLab's note validation failure: the errors hash inspected inside the message. */
export const invalidNote = (errors: [field: string, message: string][]) => {
  // Grouped by field, as Rails' errors hash prints: {:line_code=>["can't be blank", "must be …"]}.
  const byField = new Map<string, string[]>();
  for (const [field, message] of errors) byField.set(field, [...(byField.get(field) ?? []), message]);
  return badRequest(`Note {${[...byField].map(([field, messages]) => `:${field}=>[${messages.map((m) => JSON.stringify(m)).join(", ")}]`).join(", ")}}`);
};

function validateBody(body: string) {
  const error = bodyError(body);
  if (error) throw invalidNote([["note", error]]);
}

export interface NewNote {
  body: string;
  authorId: number;
  internal: boolean;
  createdAt?: Date;
  /** null: standalone comment; DiscussionNote: part of a thread; DiffNote: a thread on a diff line. */
  type: "DiscussionNote" | "DiffNote" | null;
  /** A DiffNote's position, as given. */
  position?: DiffPositionParams;
  discussionId?: string;
  /** Replies to a resolved thread are born resolved (GitLab's Notes::BuildService). */
  resolved?: boolean;
}

/** Inserts a user note and moves the noteable's user_notes_count, inside the caller's transaction. */
async function insertUserNote(tx: Db, kind: NoteWriteKind, noteable: Noteable, n: NewNote & { discussionId: string }): Promise<NoteRow> {
  const at = n.createdAt ?? new Date();
  const resolvable = isResolvableNote(kind.resolvable, { type: n.type, system: false });
  const [row] = await tx
    .insert(kind.tables.notes)
    .values({
      noteableType: kind.noteableType,
      noteableId: noteable.id,
      commitId: noteable.commitId ?? null,
      projectId: noteable.projectId,
      authorId: n.authorId,
      body: n.body,
      internal: n.internal,
      type: n.type,
      discussionId: n.discussionId,
      position: n.position ?? null,
      resolvable,
      ...(resolvable && n.resolved ? { resolvedAt: at, resolvedById: n.authorId } : {}),
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (noteable.id !== null) await kind.bumpUserNotesCount(tx, noteable.id, 1);
  return row;
}

/** Adds a user note (comment or new thread); the noteable's user_notes_count moves in the same transaction. */
export async function createNote(db: Db, kind: NoteWriteKind, noteable: Noteable, n: NewNote): Promise<NoteRow> {
  validateBody(n.body);
  return db.transaction((tx) => insertUserNote(tx, kind, noteable, { ...n, discussionId: n.discussionId ?? newDiscussionId() }));
}

/**
 * Edits a note's body. Confidentiality is fixed at creation: asking to change it fails validation
 * (repeating the current value is fine), so an internal note can never be made public.
 */
export async function updateNote(db: Db, kind: Pick<NoteableKind, "tables">, note: NoteRow, changes: { body?: string; internal?: boolean }, editorId: number): Promise<NoteRow> {
  const errors: [string, string][] = [];
  const error = changes.body !== undefined ? bodyError(changes.body) : undefined;
  if (error) errors.push(["note", error]);
  if (changes.internal !== undefined && changes.internal !== note.internal) errors.push(["confidential", "can not be changed for existing notes"]);
  if (errors.length) throw invalidNote(errors);
  if (changes.body === undefined || changes.body === note.body) return note;
  const { notes } = kind.tables;
  const [row] = await db.update(notes).set({ body: changes.body, updatedAt: new Date(), updatedById: editorId }).where(eq(notes.id, note.id)).returning();
  return row;
}

export async function deleteNote(db: Db, kind: NoteWriteKind, noteable: Noteable, note: NoteRow): Promise<void> {
  const { notes } = kind.tables;
  await db.transaction(async (tx) => {
    await tx.delete(notes).where(eq(notes.id, note.id));
    await tx.delete(kind.tables.awardEmoji).where(and(eq(kind.tables.awardEmoji.awardableType, "Note"), eq(kind.tables.awardEmoji.awardableId, note.id)));
    if (!note.system && noteable.id !== null) await kind.bumpUserNotesCount(tx, noteable.id, -1);
  });
}

/**
 * Replying to a standalone comment (or system note) turns it into a thread, as GitLab does;
 * replying to a thread appends to it.
 */
export async function replyToDiscussion(db: Db, kind: NoteWriteKind, noteable: Noteable, thread: NoteRow[], n: Omit<NewNote, "type" | "discussionId" | "resolved" | "position">): Promise<NoteRow> {
  validateBody(n.body);
  const first = thread[0];
  if (!first) throw badRequestMessage("Discussion can not be replied to.");
  const { notes } = kind.tables;
  return db.transaction(async (tx) => {
    if (first.type === null) {
      const resolvable = isResolvableNote(kind.resolvable, { type: "DiscussionNote", system: first.system });
      await tx
        .update(notes)
        .set({ type: "DiscussionNote", ...(resolvable ? { resolvable } : {}) })
        .where(and(eq(notes.discussionId, first.discussionId), eq(notes.id, first.id)));
    }
    // A reply on a diff line sits where its thread does (GitLab copies the position).
    const onDiff = first.type === "DiffNote" ? { type: "DiffNote" as const, position: first.position as DiffPositionParams } : { type: "DiscussionNote" as const };
    return insertUserNote(tx, kind, noteable, { ...n, ...onDiff, discussionId: first.discussionId, resolved: isThreadResolved(thread) });
  });
}
