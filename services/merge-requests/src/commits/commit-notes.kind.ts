import { call, callerOf, notFound, type ApiError, type Ctx } from "@collab/core";
import { Repositories } from "@collab/repositories-contract";
import type { LoadedNoteable, NoteableKind, NoteableRecord } from "@collab/notes";
import { authorizeProject, canSetTimestamps } from "@collab/work-items";
import { MergeRequests } from "@collab/merge-requests-contract";
import { noteTables } from "../db/schema";
import { canReadCode } from "./permissions";

/** A commit as a noteable: no id of its own, its notes are keyed by the project and the sha. */
export interface CommitNoteable extends NoteableRecord {
  id: null;
  iid: null;
  commitId: string;
  parentIds: string[];
}
export type LoadedCommit = LoadedNoteable<CommitNoteable>;

/** The sha git gives a root commit's missing parent in diff refs. */
const BLANK_SHA = "0".repeat(40);

/**
 * A commit of a project whose code the caller may read (the repositories service resolves the sha,
 * branch or tag). The project hidden: its 404; the code unreadable: `unreadable()`; no such commit: `missing()`.
 */
export async function loadCommit(ctx: Ctx<unknown>, projectRef: string | number, ref: string, o: { missing: () => ApiError; unreadable: () => ApiError }): Promise<LoadedCommit> {
  const access = await authorizeProject(ctx, projectRef);
  if (!canReadCode(access.project, access.role)) throw o.unreadable();
  const commit = await call(ctx, Repositories.refs.findCommit, { project_id: access.project.id, ref });
  if (!commit) throw o.missing();
  return {
    noteable: { id: null, iid: null, projectId: access.project.id, commitId: commit.sha, parentIds: commit.parent_ids, title: commit.title, authorId: null, discussionLocked: null },
    caller: callerOf(ctx),
    role: access.role,
    access,
  };
}

/**
 * Commits as noteables of the shared notes code (their discussions API): anyone who reads the
 * code may comment, threads are not resolvable, there are no internal notes, and a thread may
 * start on a diff line whose diff refs are the commit's. An unreadable commit is hidden as missing.
 */
export const commitNotes: NoteableKind<LoadedCommit, string> = {
  noteableType: "Commit",
  pathParam: "commit_id",
  tables: noteTables,
  events: MergeRequests.events,
  resolvable: false,
  internalNotes: false,
  missing: () => notFound("Commit"),
  load: (_kit, ctx, projectRef, sha, missing) => loadCommit(ctx, projectRef, sha, { missing, unreadable: missing }),
  // Commits count no notes.
  bumpUserNotesCount: async () => undefined,
  /** GitLab's DiffNote#diff_refs_match_commit: a position must name the commit's own diff. */
  checkPosition: (l, p) => {
    const parent = l.noteable.parentIds[0] ?? BLANK_SHA;
    return p.base_sha === parent && p.start_sha === parent && p.head_sha === l.noteable.commitId ? [] : [["commit_id", "does not match the diff refs"]];
  },
  can: {
    comment: (l) => l.caller !== null,
    seeInternalNotes: () => false,
    setTimestamps: (l) => canSetTimestamps({ caller: l.caller, role: l.role }),
    resolve: () => false,
  },
};
