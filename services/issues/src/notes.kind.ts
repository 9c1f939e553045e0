import { AccessLevel, featureHidden, recordNotFound } from "@collab/core";
import { Issues } from "@collab/issues-contract";
import { mayResolve, type LoadedNoteable, type NoteableKind } from "@collab/notes";
import { accessLevels } from "@collab/work-items";
import { eq, sql } from "drizzle-orm";
import { issues, noteTables, type IssueRow } from "./db/schema";
import { loadIssue, type LoadedIssue } from "./domain/load";
import { canComment, canSeeInternalNotes, canSetTimestamps } from "./domain/permissions";

type LoadedIssueNoteable = LoadedIssue & LoadedNoteable<IssueRow>;

/**
 * Issues as noteables of the shared notes code: GitLab's IssuePolicy decides, threads are not
 * resolvable, and a missing or hidden issue is ActiveRecord's "404 Not found".
 */
export const issueNotes: NoteableKind<LoadedIssueNoteable> = {
  noteableType: "Issue",
  pathParam: "issue_iid",
  tables: noteTables,
  events: Issues.events,
  resolvable: false,
  // Weight and iterations are Premium: on the free tier their event routes do not exist (GitLab CE).
  servesEvents: (kit, family) => kit.config.LICENSE_TIER !== "free" || (family !== "weightEvents" && family !== "iterationEvents"),
  missing: recordNotFound,
  async load(kit, ctx, projectRef, iid, missing) {
    const loaded = await loadIssue(kit, ctx, projectRef, iid, missing);
    return { ...loaded, noteable: loaded.issue, caller: loaded.actor.caller, role: loaded.actor.role };
  },
  bumpUserNotesCount: (tx, issueId, delta) =>
    tx.update(issues).set({ userNotesCount: sql`GREATEST(${issues.userNotesCount} + ${delta}, 0)` }).where(eq(issues.id, issueId)),
  participants: {
    of: async (_kit, _ctx, l) => ({ userIds: [l.issue.authorId, ...l.assigneeIds], texts: [l.issue.title, l.issue.description] }),
    /** Those who may read the issue: its project (and its issues), a confidential one as Reporters, its author or assignees. */
    async readers(ctx, l, userIds) {
      const levels = await accessLevels(ctx, l.access.project.id, userIds);
      const { issue } = l;
      return new Set(
        userIds.filter((id) => {
          const level = levels[id];
          if (!level?.can_read || featureHidden(l.access.project.issues_access_level, level.access_level)) return false;
          return !issue.confidential || level.access_level >= AccessLevel.REPORTER || id === issue.authorId || l.assigneeIds.includes(id);
        }),
      );
    },
  },
  can: {
    comment: (l) => canComment(l.actor, l.issue),
    seeInternalNotes: (l) => canSeeInternalNotes(l.actor),
    setTimestamps: (l) => canSetTimestamps(l.actor),
    resolve: (l, note) => mayResolve({ role: l.role, callerId: l.caller?.id ?? null, noteableAuthorId: l.issue.authorId, noteAuthorId: note?.authorId }),
  },
};
