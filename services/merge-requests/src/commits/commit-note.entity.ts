import { iso, type UserRef } from "@collab/core";
import type { CommitNoteEntity } from "@collab/merge-requests-contract";
import type { DiffPositionParams, NoteRow } from "@collab/notes";

/**
 * GitLab's CommitNote entity. A note on a diff line (DiffNote) names its file and line: the new
 * side when the position has one, else the old side.
 */
export function presentCommitNote(n: NoteRow, users: Map<number, UserRef>): CommitNoteEntity {
  const p = n.type === "DiffNote" ? (n.position as DiffPositionParams | null) : null;
  const line = p ? (p.new_line ?? p.old_line ?? null) : null;
  return {
    note: n.body,
    path: p ? (p.new_path ?? p.old_path ?? null) : null,
    line,
    line_type: p && line !== null ? (p.new_line !== undefined ? "new" : "old") : null,
    author: users.get(n.authorId) ?? null,
    created_at: iso(n.createdAt),
  };
}
