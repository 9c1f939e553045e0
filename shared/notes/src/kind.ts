import type { ApiError, Caller, Ctx, NoteEventContracts } from "@collab/core";
import type { ProjectAccess } from "@collab/work-items";
import type { Db, ServiceKit } from "@collab/db";
import type { NoteRow, NotesTables } from "./db/tables";

import type { DiffPositionParams, NoteablePathParam, NoteableType, ResourceEventKey } from "@collab/notes-contract";

// Declared by the notes contract (its params name the noteable's path param).
export type { DiffPositionParams, NoteablePathParam, NoteableType };

/** What names a noteable in its path: an iid, or a commit's sha (or branch or tag). */
export type NoteableKey = number | string;

/** What the shared code needs of a noteable row. */
export interface NoteableRecord {
  /** null for a commit: its notes carry commitId instead of noteable_id, as in GitLab. */
  id: number | null;
  iid: number | null;
  /** null for a group's noteable (an epic): groupId names its group. */
  projectId: number | null;
  /** The group of a group noteable (an epic); carried in its note events. */
  groupId?: number;
  /** A noteable keyed by sha (a commit): its notes are those of the project with this commit_id. */
  commitId?: string;
  /** true: only project members may comment (and edit or delete their comments). */
  discussionLocked: boolean | null;
  /** null for a commit (its author is a git identity, not a user). */
  authorId: number | null;
  /** Carried in note events (the Events API shows them). */
  title?: string;
  confidential?: boolean | null;
}

/** A noteable the caller may read, with the caller's standing on it. */
export interface LoadedNoteable<N extends NoteableRecord = NoteableRecord> {
  noteable: N;
  caller: Caller | null;
  /** Effective role on the project, or the group of a group noteable (60 for administrators, 0 for non-members). */
  role: number;
  /** The project as namespaces answered it; its read-only flag refuses writes. null for a group's noteable (no repository). */
  access: ProjectAccess | null;
}

/**
 * How a service's noteable takes part in the shared notes code: its tables, its loading and its
 * permission rules. One descriptor per noteable kind, supplied by the service that owns it.
 */
/** A position's errors: the field and GitLab's message for each. */
export type PositionErrors = [field: string, message: string][];

export interface NoteableKind<L extends LoadedNoteable = LoadedNoteable, K extends NoteableKey = number> {
  noteableType: NoteableType;
  pathParam: NoteablePathParam;
  /** The service's own notes tables (notesTables(itsSchema)). */
  tables: NotesTables;
  /** The service's note events, from its contract (noteEventContracts of @collab/core: `<service>.note.created|updated|deleted`). */
  events: NoteEventContracts;
  /** Threads (DiscussionNote, DiffNote) of this kind can be resolved (merge requests). */
  resolvable: boolean;
  /**
   * Kinds whose threads may start on a diff line (a position makes a DiffNote): the errors of a
   * position on this noteable (none: it is kept as given), or the position to keep (with its
   * line_code, found in the real diff). Absent: positions are ignored.
   */
  checkPosition?: (l: L, position: DiffPositionParams, ctx: Ctx<unknown>) => PositionErrors | Promise<PositionErrors | { position: DiffPositionParams }>;
  /** false: the noteable takes no internal notes (GitLab refuses `internal` on them); default true. */
  internalNotes?: boolean;
  /**
   * Whether a resource event family its entries have is served here: false makes its routes
   * answer as unknown routes (an unlicensed family, as GitLab CE lacks them). Absent: all are.
   */
  servesEvents?: (kit: ServiceKit, family: ResourceEventKey) => boolean;
  /** The 404 answered when the noteable is missing or hidden. */
  missing: () => ApiError;
  /** Loads a noteable the caller may read, else throws `missing()` (or its project's or group's 404); `parentRef` is the path's :id. */
  load(kit: ServiceKit, ctx: Ctx<unknown>, parentRef: string | number, key: K, missing: () => ApiError): Promise<L>;
  /** Moves the noteable's user_notes_count, inside the note's transaction; never below 0. */
  bumpUserNotesCount(tx: Db, noteableId: number, delta: number): Promise<unknown>;
  /** GitLab's participants of the kind (…/participants, participantsActions); absent: the kind has none. */
  participants?: {
    /** Loads the noteable with the participants route's own 404s and 403s (default: `load` with `missing`). */
    load?(kit: ServiceKit, ctx: Ctx<unknown>, parentRef: string | number, key: K): Promise<L>;
    /** Who takes part by their place (author first, then assignees, reviewers…), and the texts whose @mentions count (title, description). */
    of(kit: ServiceKit, ctx: Ctx<unknown>, l: L): Promise<{ userIds: number[]; texts: (string | null | undefined)[] }>;
    /** Of these users, those who may read the noteable: GitLab leaves the others out. */
    readers(ctx: Ctx<unknown>, l: L, userIds: number[]): Promise<Set<number>>;
  };
  can: {
    comment(l: L): boolean;
    seeInternalNotes(l: L): boolean;
    /** created_at on new notes; silently ignored for others. */
    setTimestamps(l: L): boolean;
    /** Resolving a thread (note undefined) or one note of it. */
    resolve(l: L, note?: NoteRow): boolean;
  };
}
