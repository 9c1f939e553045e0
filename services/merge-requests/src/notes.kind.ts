import { notFound } from "@collab/core";
import { MergeRequests } from "@collab/merge-requests-contract";
import { mayResolve, type LoadedNoteable, type NoteableKind } from "@collab/notes";
import { eq, sql } from "drizzle-orm";
import { mergeRequests, noteTables, type MergeRequestRow } from "./db/schema";
import { loadMergeRequest, type LoadedMergeRequest } from "./domain/load";
import { canComment, canSeeInternalNotes, canSetTimestamps } from "./domain/permissions";

type LoadedMergeRequestNoteable = LoadedMergeRequest & LoadedNoteable<MergeRequestRow>;

/**
 * Merge requests as noteables of the shared notes code: GitLab's MergeRequestPolicy decides, the
 * notes of threads are resolvable, and a missing or unreadable merge request is "404 Merge Request
 * Not Found" (GitLab's notes API finds its noteable through the finder).
 */
export const mergeRequestNotes: NoteableKind<LoadedMergeRequestNoteable> = {
  noteableType: "MergeRequest",
  pathParam: "merge_request_iid",
  tables: noteTables,
  events: MergeRequests.events,
  resolvable: true,
  missing: () => notFound("Merge Request"),
  async load(kit, ctx, projectRef, iid, missing) {
    const loaded = await loadMergeRequest(kit, ctx, projectRef, iid, { missing, hidden: missing });
    return { ...loaded, noteable: loaded.mergeRequest, caller: loaded.actor.caller, role: loaded.actor.role };
  },
  bumpUserNotesCount: (tx, id, delta) =>
    tx.update(mergeRequests).set({ userNotesCount: sql`GREATEST(${mergeRequests.userNotesCount} + ${delta}, 0)` }).where(eq(mergeRequests.id, id)),
  can: {
    comment: (l) => canComment(l.actor, l.mergeRequest),
    seeInternalNotes: (l) => canSeeInternalNotes(l.actor),
    setTimestamps: (l) => canSetTimestamps(l.actor),
    resolve: (l, note) => mayResolve({ role: l.role, callerId: l.caller?.id ?? null, noteableAuthorId: l.mergeRequest.authorId, noteAuthorId: note?.authorId }),
  },
};
