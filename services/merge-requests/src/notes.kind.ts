import { notFound } from "@collab/core";
import { MergeRequests } from "@collab/merge-requests-contract";
import { mayResolve, type LoadedNoteable, type NoteableKind } from "@collab/notes";
import { accessLevels } from "@collab/work-items";
import { eq, sql } from "drizzle-orm";
import { mergeRequestAssignees, mergeRequestReviewers, mergeRequests, noteTables, type MergeRequestRow } from "./db/schema";
import { loadMergeRequest, type LoadedMergeRequest } from "./domain/load";
import { canComment, canReadMergeRequests, canSeeInternalNotes, canSetTimestamps } from "./domain/permissions";

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
  participants: {
    /** GitLab's find_merge_request_with_access: "404 Not found" when missing, 403 when the project's merge requests are hidden. */
    async load(kit, ctx, projectRef, iid) {
      const loaded = await loadMergeRequest(kit, ctx, projectRef, iid);
      return { ...loaded, noteable: loaded.mergeRequest, caller: loaded.actor.caller, role: loaded.actor.role };
    },
    /** The author, then assignees and reviewers (GitLab's participant declarations): one statement. */
    async of(kit, _ctx, l) {
      const mr = l.mergeRequest;
      const [row] = await kit.db
        .select({
          assignees: sql<number[]>`array(SELECT a.user_id FROM ${mergeRequestAssignees} a WHERE a.merge_request_id = ${mr.id})`,
          reviewers: sql<number[]>`array(SELECT r.user_id FROM ${mergeRequestReviewers} r WHERE r.merge_request_id = ${mr.id} ORDER BY r.created_at, r.user_id)`,
        })
        .from(mergeRequests)
        .where(eq(mergeRequests.id, mr.id));
      return { userIds: [mr.authorId, ...(row?.assignees ?? []), ...(row?.reviewers ?? [])], texts: [mr.title, mr.description] };
    },
    /** Those who may read the project's merge requests. */
    async readers(ctx, l, userIds) {
      const levels = await accessLevels(ctx, l.access.project.id, userIds);
      return new Set(userIds.filter((id) => levels[id]?.can_read && canReadMergeRequests(l.access.project, levels[id].access_level)));
    },
  },
  can: {
    comment: (l) => canComment(l.actor, l.mergeRequest),
    seeInternalNotes: (l) => canSeeInternalNotes(l.actor),
    setTimestamps: (l) => canSetTimestamps(l.actor),
    resolve: (l, note) => mayResolve({ role: l.role, callerId: l.caller?.id ?? null, noteableAuthorId: l.mergeRequest.authorId, noteAuthorId: note?.authorId }),
  },
};
