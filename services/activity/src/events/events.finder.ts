import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import { events, type EventRow } from "../db/schema";
import { TARGET_TYPES, type EventFilters } from "@collab/activity-contract";

/** Which projects' events a caller may see: every project (administrators) or these ids. */
export type ProjectSet = "all" | number[];

export interface EventScope {
  /** Events of this author only (a user's events). */
  authorId?: number;
  /** Projects whose events may be shown. */
  readable: ProjectSet;
  /** Projects where the caller reads confidential issues and internal notes (Reporter and up). */
  reporter: ProjectSet;
  /** The caller sees their own events on confidential issues (they authored or were assigned it). */
  callerId: number | null;
  /** Projects whose issues, or merge requests, the caller may not read (feature disabled or private to members). */
  hidden?: { Issue: number[]; MergeRequest: number[]; Snippet: number[] };
  /**
   * Groups' events (epics and comments on them) too, whichever the group: who may read each is
   * decided on the page (group-events.ts), as GitLab filters each page by Event#visible_to_user?.
   */
  groupEvents?: boolean;
}

/** Events about a kind of target (the target itself or a comment on it) in these projects. */
const aboutTargetsIn = (type: "Issue" | "MergeRequest" | "Snippet", projectIds: number[]): SQL | undefined =>
  projectIds.length
    ? // coalesce: a target-less event (NULL target_type) must not turn the whole test NULL.
      sql`NOT (${inArray(events.projectId, projectIds)} AND coalesce(${events.targetType} = ${type} OR (${events.targetType} = 'Note' AND ${events.note}->>'noteable_type' = ${type}), false))`
    : undefined;

const inSet = (set: ProjectSet): SQL | undefined => (set === "all" ? undefined : set.length ? inArray(events.projectId, set) : sql`false`);

/** The day after `date` (YYYY-MM-DD), at UTC midnight. */
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000);

const defined = (conditions: (SQL | undefined)[]) => conditions.filter((c): c is SQL => c !== undefined);

/** Which projects' events, and which of their targets, the caller may see. */
function projectConditions(scope: EventScope): SQL[] {
  return defined([
    inSet(scope.readable),
    // Confidential targets and internal notes: Reporter and up, or the caller's own non-internal records.
    scope.reporter === "all"
      ? undefined
      : or(
          and(eq(events.confidential, false), eq(events.internal, false)),
          inSet(scope.reporter),
          scope.callerId !== null ? and(eq(events.authorId, scope.callerId), eq(events.internal, false)) : undefined,
        ),
    scope.hidden ? aboutTargetsIn("Issue", scope.hidden.Issue) : undefined,
    scope.hidden ? aboutTargetsIn("MergeRequest", scope.hidden.MergeRequest) : undefined,
    scope.hidden ? aboutTargetsIn("Snippet", scope.hidden.Snippet) : undefined,
  ]);
}

/** Project events as the caller may see them, and (when asked) every group's events. */
function visibility(scope: EventScope): SQL | undefined {
  const inProjects = and(isNotNull(events.projectId), ...projectConditions(scope));
  return scope.groupEvents ? or(isNotNull(events.groupId), inProjects) : inProjects;
}

function conditions(scope: EventScope, f: EventFilters): SQL[] {
  return defined([
    visibility(scope),
    scope.authorId !== undefined ? eq(events.authorId, scope.authorId) : undefined,
    f.action ? eq(events.action, f.action) : undefined,
    f.target_type ? eq(events.targetType, TARGET_TYPES[f.target_type]) : undefined,
    // GitLab: before the start of `before`, after the end of `after` (both exclusive).
    f.before ? lt(events.createdAt, new Date(`${f.before}T00:00:00Z`)) : undefined,
    f.after ? gte(events.createdAt, nextDay(f.after)) : undefined,
  ]);
}

/** One page of visible events, ordered by id, and the number of them all. */
export async function findEvents(db: Db, scope: EventScope, f: EventFilters): Promise<{ rows: EventRow[]; total: number }> {
  const where = and(...conditions(scope, f));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(events)
      .where(where)
      .orderBy(f.sort === "asc" ? asc(events.id) : desc(events.id))
      .limit(f.per_page)
      .offset(offsetOf(f)),
    db.select({ total: count() }).from(events).where(where),
  ]);
  return { rows, total };
}
