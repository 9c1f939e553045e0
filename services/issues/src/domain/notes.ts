import { badRequest, badRequestMessage } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import { MAX_NOTE_LENGTH } from "../api/notes.params";
import { issues, notes, type IssueRow, type NoteRow } from "../db/schema";
import { newDiscussionId } from "./system-notes";

/** Characters as Ruby counts them (code points), not UTF-16 code units: an emoji is one. */
function characterCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function bodyError(body: string): string | undefined {
  if (body.trim() === "") return "can't be blank";
  if (body.length > MAX_NOTE_LENGTH && characterCount(body) > MAX_NOTE_LENGTH) return `is too long (maximum is ${MAX_NOTE_LENGTH} characters)`;
  return undefined;
}

/** GitLab's note validation failure: the errors hash inspected inside the message. */
const invalidNote = (errors: [field: string, message: string][]) =>
  badRequest(`Note {${errors.map(([field, message]) => `:${field}=>[${JSON.stringify(message)}]`).join(", ")}}`);

function validateBody(body: string) {
  const error = bodyError(body);
  if (error) throw invalidNote([["note", error]]);
}

export interface NewNote {
  body: string;
  authorId: number;
  internal: boolean;
  createdAt?: Date;
  /** null: standalone comment; DiscussionNote: part of a thread. */
  type: "DiscussionNote" | null;
  discussionId?: string;
}

const bumpUserNotes = (tx: Db, issueId: number, delta: number) =>
  tx.update(issues).set({ userNotesCount: sql`GREATEST(${issues.userNotesCount} + ${delta}, 0)` }).where(eq(issues.id, issueId));

/** Inserts a user note and moves the issue's user_notes_count, inside the caller's transaction. */
async function insertUserNote(tx: Db, issue: IssueRow, n: NewNote & { discussionId: string }): Promise<NoteRow> {
  const at = n.createdAt ?? new Date();
  const [row] = await tx
    .insert(notes)
    .values({
      noteableType: "Issue",
      noteableId: issue.id,
      projectId: issue.projectId,
      authorId: n.authorId,
      body: n.body,
      internal: n.internal,
      type: n.type,
      discussionId: n.discussionId,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  await bumpUserNotes(tx, issue.id, 1);
  return row;
}

/** Adds a user note to an issue; the issue's user_notes_count moves in the same transaction. */
export async function createIssueNote(db: Db, issue: IssueRow, n: NewNote): Promise<NoteRow> {
  validateBody(n.body);
  return db.transaction((tx) => insertUserNote(tx, issue, { ...n, discussionId: n.discussionId ?? newDiscussionId() }));
}

/**
 * Edits a note's body. Confidentiality is fixed at creation: asking to change it fails validation
 * (repeating the current value is fine), so an internal note can never be made public.
 */
export async function updateNote(db: Db, note: NoteRow, changes: { body?: string; internal?: boolean }, editorId: number): Promise<NoteRow> {
  const errors: [string, string][] = [];
  const error = changes.body !== undefined ? bodyError(changes.body) : undefined;
  if (error) errors.push(["note", error]);
  if (changes.internal !== undefined && changes.internal !== note.internal) errors.push(["confidential", "can not be changed for existing notes"]);
  if (errors.length) throw invalidNote(errors);
  if (changes.body === undefined || changes.body === note.body) return note;
  const [row] = await db
    .update(notes)
    .set({ body: changes.body, updatedAt: new Date(), updatedById: editorId })
    .where(eq(notes.id, note.id))
    .returning();
  return row;
}

export async function deleteIssueNote(db: Db, issue: IssueRow, note: NoteRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(notes).where(eq(notes.id, note.id));
    if (!note.system) await bumpUserNotes(tx, issue.id, -1);
  });
}

/**
 * Replying to a standalone comment (or system note) turns it into a thread, as GitLab does;
 * replying to a thread appends to it.
 */
export async function replyToDiscussion(db: Db, issue: IssueRow, thread: NoteRow[], n: Omit<NewNote, "type" | "discussionId">): Promise<NoteRow> {
  validateBody(n.body);
  const first = thread[0];
  if (!first) throw badRequestMessage("Discussion can not be replied to.");
  return db.transaction(async (tx) => {
    if (first.type === null) await tx.update(notes).set({ type: "DiscussionNote" }).where(and(eq(notes.discussionId, first.discussionId), eq(notes.id, first.id)));
    return insertUserNote(tx, issue, { ...n, type: "DiscussionNote", discussionId: first.discussionId });
  });
}
