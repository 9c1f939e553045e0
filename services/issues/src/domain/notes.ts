import { badRequest, badRequestMessage } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import { MAX_NOTE_LENGTH } from "../api/notes.params";
import { issues, notes, type IssueRow, type NoteRow } from "../db/schema";
import { newDiscussionId } from "./system-notes";

/** GitLab's note validation failure: the errors hash inspected inside the message. */
function validateBody(body: string) {
  if (body.trim() === "") throw badRequest('Note {:note=>["can\'t be blank"]}');
  if (body.length > MAX_NOTE_LENGTH) throw badRequest(`Note {:note=>["is too long (maximum is ${MAX_NOTE_LENGTH} characters)"]}`);
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

/** Adds a user note to an issue; the issue's user_notes_count moves in the same transaction. */
export async function createIssueNote(db: Db, issue: IssueRow, n: NewNote): Promise<NoteRow> {
  validateBody(n.body);
  return db.transaction(async (tx) => {
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
        discussionId: n.discussionId ?? newDiscussionId(),
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await bumpUserNotes(tx, issue.id, 1);
    return row;
  });
}

export async function updateNote(db: Db, note: NoteRow, changes: { body?: string; internal?: boolean }, editorId: number): Promise<NoteRow> {
  if (changes.body !== undefined) validateBody(changes.body);
  const [row] = await db
    .update(notes)
    .set({
      ...(changes.body !== undefined && { body: changes.body }),
      ...(changes.internal !== undefined && { internal: changes.internal }),
      updatedAt: new Date(),
      updatedById: editorId,
    })
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
        type: "DiscussionNote",
        discussionId: first.discussionId,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await bumpUserNotes(tx, issue.id, 1);
    return row;
  });
}
