import { announce } from "@collab/core";
import { MergeRequests } from "@collab/merge-requests-contract";
import type { AwardableKind, BumpVotes, TimeTrackableKind } from "@collab/notes";
import { eq, sql } from "drizzle-orm";
import { mergeRequests } from "./db/schema";
import { canAdminMergeRequest } from "./domain/permissions";
import { eventPayload } from "./merge-requests/events";
import { mergeRequestNotes } from "./notes.kind";

type LoadedMergeRequestNoteable = Parameters<(typeof mergeRequestNotes)["can"]["comment"]>[0];

const bumpVotes: BumpVotes = (tx, id, column, delta) =>
  tx.update(mergeRequests).set({ [column]: sql`GREATEST(${mergeRequests[column]} + ${delta}, 0)` }).where(eq(mergeRequests.id, id));

/** Merge requests and their notes take emoji reactions; thumbsup and thumbsdown move upvotes and downvotes. */
export const mergeRequestAwards: AwardableKind<LoadedMergeRequestNoteable> = { notes: mergeRequestNotes, bumpVotes, events: MergeRequests.events };

/** Time tracking of merge requests: GitLab's admin_merge_request (Developer and up) changes it. */
export const mergeRequestTimeTracking: TimeTrackableKind<LoadedMergeRequestNoteable> = {
  notes: mergeRequestNotes,
  columns: {
    table: mergeRequests,
    id: mergeRequests.id,
    timeEstimate: mergeRequests.timeEstimate,
    totalTimeSpent: mergeRequests.totalTimeSpent,
    updatedAt: mergeRequests.updatedAt,
  },
  timelogColumn: "mergeRequestId",
  times: (l) => ({ estimate: l.mergeRequest.timeEstimate, spent: l.mergeRequest.totalTimeSpent }),
  canAdmin: (l) => canAdminMergeRequest(l.actor),
  updated: (l, actorId, changes) => announce(MergeRequests.events.mergeRequestUpdated, { ...eventPayload(l.mergeRequest, actorId), changes }),
};
