import { iso, type UserRef } from "@collab/core";
import type { Discussion, Note, StateEvent } from "@collab/notes-contract";
import type { NoteRow, StateEventRow } from "../db/tables";
import { eventResourceOf } from "./resource-events.entity";

export interface NoteContext {
  users: Map<number, UserRef>;
  /** noteable id → iid, for noteable_iid. */
  iids: Map<number, number>;
}

/** GitLab's Note entity; resolved, resolved_by and resolved_at only for resolvable notes. */
export const presentNote = (n: NoteRow, c: NoteContext): Note => ({
  id: n.id,
  type: n.type,
  body: n.body,
  attachment: null,
  author: c.users.get(n.authorId) ?? null,
  created_at: iso(n.createdAt),
  updated_at: iso(n.updatedAt),
  system: n.system,
  noteable_id: n.noteableId,
  noteable_type: n.noteableType,
  project_id: n.projectId,
  commit_id: n.commitId,
  // jsonb: an object when a diff note has one (none is written today).
  position: (n.position as Record<string, unknown> | null) ?? undefined,
  resolvable: n.resolvable,
  ...(n.resolvable
    ? { resolved: n.resolvedAt !== null, resolved_by: n.resolvedById ? (c.users.get(n.resolvedById) ?? null) : null, resolved_at: iso(n.resolvedAt) }
    : {}),
  confidential: n.internal,
  internal: n.internal,
  imported: n.imported,
  imported_from: "none",
  noteable_iid: n.noteableId !== null ? (c.iids.get(n.noteableId) ?? null) : null,
  commands_changes: {},
});

/** A thread: its notes oldest first; individual_note for a standalone comment. */
export const presentDiscussion = (discussionId: string, threadNotes: NoteRow[], c: NoteContext): Discussion => ({
  id: discussionId,
  individual_note: threadNotes.length > 0 && threadNotes[0].type === null,
  notes: threadNotes.map((n) => presentNote(n, c)),
});

export const presentStateEvent = (e: StateEventRow, users: Map<number, UserRef>): StateEvent => ({
  id: e.id,
  user: users.get(e.userId) ?? null,
  created_at: iso(e.createdAt),
  ...eventResourceOf(e),
  state: e.state,
});
