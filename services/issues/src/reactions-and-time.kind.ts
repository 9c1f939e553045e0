import { announce } from "@collab/core";
import { Issues } from "@collab/issues-contract";
import type { AwardableKind, BumpVotes, TimeTrackableKind } from "@collab/notes";
import { eq, sql } from "drizzle-orm";
import { issues } from "./db/schema";
import { issuePayload } from "./domain/events";
import { canAdminIssue } from "./domain/permissions";
import { issueNotes } from "./notes.kind";

type LoadedIssueNoteable = Parameters<(typeof issueNotes)["can"]["comment"]>[0];

const bumpVotes: BumpVotes = (tx, id, column, delta) =>
  tx.update(issues).set({ [column]: sql`GREATEST(${issues[column]} + ${delta}, 0)` }).where(eq(issues.id, id));

/** Issues and their notes take emoji reactions; thumbsup and thumbsdown move the issue's upvotes and downvotes. */
export const issueAwards: AwardableKind<LoadedIssueNoteable> = { notes: issueNotes, bumpVotes, events: Issues.events };

/** Time tracking of issues: GitLab's admin_issue (Planner and up) changes it. */
export const issueTimeTracking: TimeTrackableKind<LoadedIssueNoteable> = {
  notes: issueNotes,
  columns: { table: issues, id: issues.id, timeEstimate: issues.timeEstimate, totalTimeSpent: issues.totalTimeSpent, updatedAt: issues.updatedAt },
  timelogColumn: "issueId",
  times: (l) => ({ estimate: l.issue.timeEstimate, spent: l.issue.totalTimeSpent }),
  canAdmin: (l) => canAdminIssue(l.actor),
  updated: (l, actorId, changes) => announce(Issues.events.issueUpdated, { ...issuePayload(l.issue, actorId), changes }),
};
