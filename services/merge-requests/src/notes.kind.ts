import { call, notFound, type Ctx } from "@collab/core";
import { Repositories } from "@collab/repositories-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { findDiffLine, mayResolve, type DiffPositionParams, type LoadedNoteable, type NoteableKind, type PositionErrors } from "@collab/notes";
import { diffRefsOf } from "./merge-requests/branches";
import { accessLevels } from "@collab/work-items";
import { eq, sql } from "drizzle-orm";
import { mergeRequestAssignees, mergeRequestReviewers, mergeRequests, noteTables, type MergeRequestRow } from "./db/schema";
import { loadMergeRequest, type LoadedMergeRequest } from "./domain/load";
import { canComment, canReadMergeRequests, canSeeInternalNotes, canSetTimestamps } from "./domain/permissions";

type LoadedMergeRequestNoteable = LoadedMergeRequest & LoadedNoteable<MergeRequestRow>;

/** GitLab's answer to a text position no diff line matches (DiffNote's line_code validations). */
const NO_LINE: PositionErrors = [
  ["line_code", "can't be blank"],
  ["line_code", "must be a valid line code"],
];

/**
 * A DiffNote's position on a merge request: its diff refs must be the merge request's (merge
 * base, target head, source head) and a text position must name a line of the real diff (an
 * added line by new_line, a removed one by old_line, an unchanged one by both). The position is
 * kept with GitLab's line_code; image and file positions are kept as given.
 */
async function checkDiffPosition(ctx: Ctx<unknown>, mr: MergeRequestRow, position: DiffPositionParams): Promise<PositionErrors | { position: DiffPositionParams }> {
  const refs = await diffRefsOf(ctx, mr);
  if (!refs || position.base_sha !== refs.base || position.start_sha !== refs.start || position.head_sha !== refs.head) return NO_LINE;
  if (position.position_type !== "text") return [];
  const path = position.new_path ?? position.old_path;
  if (!path) return NO_LINE;
  const { diffs } = await call(ctx, Repositories.mergeRequests.diff, { project_id: mr.projectId, base_sha: refs.base, head_sha: refs.head, diffs: { all: true, expanded: true } });
  const file = diffs.find((d) => d.new_path === path || d.old_path === path);
  const found = file && findDiffLine(file.new_path, file.diff, position);
  if (!found) return NO_LINE;
  const kept: DiffPositionParams = { ...position, old_path: file.old_path, new_path: file.new_path };
  return { position: Object.assign(kept, { line_code: found.lineCode }) };
}

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
  checkPosition: (l, position, ctx) => checkDiffPosition(ctx, l.mergeRequest, position),
  can: {
    comment: (l) => canComment(l.actor, l.mergeRequest),
    seeInternalNotes: (l) => canSeeInternalNotes(l.actor),
    setTimestamps: (l) => canSetTimestamps(l.actor),
    resolve: (l, note) => mayResolve({ role: l.role, callerId: l.caller?.id ?? null, noteableAuthorId: l.mergeRequest.authorId, noteAuthorId: note?.authorId }),
  },
};
