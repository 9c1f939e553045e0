import { AccessLevel, badRequest, forbidden } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray } from "drizzle-orm";
import type { NoteRow, NotesTables } from "../db/tables";

/** Note types that take part in threads and can be resolved on a resolvable noteable. */
export const RESOLVABLE_NOTE_TYPES: readonly string[] = ["DiscussionNote", "DiffNote"];

/** GitLab's ResolvableNote#resolvable?: thread notes by users on a resolvable kind; never comments or system notes. */
export const isResolvableNote = (kindResolvable: boolean, note: { type: string | null; system: boolean }) =>
  kindResolvable && !note.system && note.type !== null && RESOLVABLE_NOTE_TYPES.includes(note.type);

export const isThreadResolvable = (thread: Pick<NoteRow, "resolvable">[]) => thread.some((n) => n.resolvable);

/** A thread is resolved when it has resolvable notes and every one of them is resolved. */
export function isThreadResolved(thread: Pick<NoteRow, "resolvable" | "resolvedAt">[]): boolean {
  const resolvable = thread.filter((n) => n.resolvable);
  return resolvable.length > 0 && resolvable.every((n) => n.resolvedAt !== null);
}

export interface ResolverStanding {
  role: number;
  callerId: number | null;
  noteableAuthorId: number;
  /** The note being resolved; absent when resolving a whole thread. */
  noteAuthorId?: number;
}

/** Who may resolve: Developers and above, the noteable's author, or (for one note) the note's author. */
export function mayResolve(s: ResolverStanding): boolean {
  if (s.callerId === null) return false;
  return s.role >= AccessLevel.DEVELOPER || s.callerId === s.noteableAuthorId || (s.noteAuthorId !== undefined && s.callerId === s.noteAuthorId);
}

/**
 * PUT …/discussions/:discussion_id/notes/:note_id with `resolved`: a kind without resolvable
 * threads answers 400 whoever asks (as issues always have); otherwise 403 for a caller who may
 * not resolve it, then 400 for a note that is not resolvable (GitLab authorizes first).
 */
export function assertNoteResolvable(kindResolvable: boolean, allowed: boolean, note: Pick<NoteRow, "resolvable">): void {
  if (!kindResolvable) throw badRequest("Note is not resolvable");
  if (!allowed) throw forbidden();
  if (!note.resolvable) throw badRequest("Note is not resolvable");
}

/** PUT …/discussions/:discussion_id: GitLab's Discussion#can_resolve? is false for a thread with nothing to resolve. */
export function assertThreadResolvable(allowed: boolean, thread: Pick<NoteRow, "resolvable">[]): void {
  if (!allowed || !isThreadResolvable(thread)) throw forbidden();
}

/**
 * The notes a (un)resolution changes: resolving touches only unresolved resolvable notes (one
 * resolved earlier keeps who resolved it), unresolving only resolved ones.
 */
export const notesToChange = <N extends Pick<NoteRow, "id" | "resolvable" | "resolvedAt">>(notes: N[], resolved: boolean): N[] =>
  notes.filter((n) => n.resolvable && (n.resolvedAt !== null) !== resolved);

/** Resolves (or unresolves) the given notes; answers the rows as they are now, in the given order. */
export async function setResolved(db: Db, tables: NotesTables, notes: NoteRow[], resolved: boolean, byUserId: number, at = new Date()): Promise<NoteRow[]> {
  const changing = notesToChange(notes, resolved);
  if (!changing.length) return notes;
  const { notes: t } = tables;
  const rows = await db
    .update(t)
    .set(resolved ? { resolvedAt: at, resolvedById: byUserId, updatedAt: at } : { resolvedAt: null, resolvedById: null, updatedAt: at })
    .where(and(inArray(t.id, changing.map((n) => n.id)), eq(t.resolvable, true)))
    .returning();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return notes.map((n) => byId.get(n.id) ?? n);
}
