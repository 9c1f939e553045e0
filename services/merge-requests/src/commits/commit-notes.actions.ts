import { actionsOf, announce, badRequestMessage, forbidden, implement, page, requireCaller, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { MergeRequests } from "@collab/merge-requests-contract";
import { assertNoteableWritable, bodyError, createNote, discussionActions, findAllNotes, notesContext } from "@collab/notes";
import { userMap } from "@collab/work-items";
import type { ActionSchema } from "moleculer";
import { presentCommitNote } from "./commit-note.entity";
import { commitNotes, loadCommit } from "./commit-notes.kind";

const C = MergeRequests.commits;

/**
 * Commit comments (GitLab's commits API: the code must be readable, else 403, as its
 * `authorize! :read_code`) and commit discussions (the shared discussions actions).
 */
export function commitNotesActions(kit: ServiceKit): Record<string, ActionSchema> {
  const c = notesContext(kit, commitNotes);
  const load = (ctx: Parameters<typeof loadCommit>[0], projectRef: string, sha: string) =>
    loadCommit(ctx, projectRef, sha, { missing: commitNotes.missing, unreadable: () => forbidden() });

  const comments = [
    implement(
      C.notes.list,
      async (ctx) => {
        const l = await load(ctx, ctx.params.id, ctx.params.sha);
        const { rows, total } = await findAllNotes(kit.db, c.scope(l), ctx.params, c.visibility(l));
        const users = await userMap(ctx, rows.map((n) => n.authorId));
        return page(rows.map((n) => presentCommitNote(n, users)), total, ctx.params);
      },
      { visibility: "published" },
    ),

    /**
     * A line comment (path, line, line_type) is a DiffNote only when the commit's diff has that
     * line; these commits carry no trees, so it is a plain comment, as GitLab makes it then.
     */
    implement(
      C.notes.create,
      async (ctx) => {
        const caller = requireCaller(ctx);
        const l = await load(ctx, ctx.params.id, ctx.params.sha);
        assertNoteableWritable(l);
        // GitLab's answer to an invalid note: "Failed to save note" and the errors hash.
        const error = bodyError(ctx.params.note);
        if (error) throw badRequestMessage(`Failed to save note {:note=>[${JSON.stringify(error)}]}`);
        const note = await kit.events.transact(
          (tx) => createNote(tx, commitNotes, l.noteable, { body: ctx.params.note, authorId: caller.id, internal: false, type: null }),
          (created) => [announce(commitNotes.events.noteCreated, c.payload(created, l, caller.id))],
        );
        return presentCommitNote(note, await userMap(ctx, [note.authorId]));
      },
      { visibility: "published" },
    ),
  ];

  // The shared actions are keyed discussions.*: re-keyed by their entries' names (commits.discussions.*).
  const discussions = Object.values(discussionActions(kit, commitNotes, C, c)) as ImplementedAction[];
  return actionsOf("merge-requests", [...comments, ...discussions]);
}
