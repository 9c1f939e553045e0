import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, or, sql, type SQL } from "drizzle-orm";
import { events, type ProjectEventRow } from "../db/schema";
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
}

/** Events about a kind of target (the target itself or a comment on it) in these projects. */
const aboutTargetsIn = (type: "Issue" | "MergeRequest" | "Snippet", projectIds: number[]): SQL | undefined =>
  projectIds.length
    ? // coalesce: a target-less event (NULL target_type) must not turn the whole test NULL.
      sql`NOT (${inArray(events.projectId, projectIds)} AND coalesce(${events.targetType} = ${type} OR (${events.targetType} = 'Note' AND ${events.note}->>'noteable_type' = ${type}), false))`
    : undefined;

const inSet = (set: ProjectSet): SQL | undefined => (set === "all" ? undefined : set.length ? inArray(events.projectId, set) : sql`false`);

/**
 * Events of these projects, and of projects only: the spec's Events API excludes epic events, so
 * groups' events (project_id null: epics and comments on them) are never listed, not even to
 * administrators. A list of ids excludes them already; "all" says so, a filter on the scans the
 * plans already use (author, primary key), which EXPLAIN shows otherwise unchanged.
 */
const inProjects = (set: ProjectSet): SQL | undefined => (set === "all" ? isNotNull(events.projectId) : inSet(set));

/** The day after `date` (YYYY-MM-DD), at UTC midnight. */
const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000);

function conditions(scope: EventScope, f: EventFilters): SQL[] {
  const where: (SQL | undefined)[] = [
    inProjects(scope.readable),
    scope.authorId !== undefined ? eq(events.authorId, scope.authorId) : undefined,
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
    f.action ? eq(events.action, f.action) : undefined,
    // epic is a valid filter (EE's Event.target_types) that finds nothing: no group event is listed.
    f.target_type ? eq(events.targetType, TARGET_TYPES[f.target_type]) : undefined,
    // GitLab: before the start of `before`, after the end of `after` (both exclusive).
    f.before ? lt(events.createdAt, new Date(`${f.before}T00:00:00Z`)) : undefined,
    f.after ? gte(events.createdAt, nextDay(f.after)) : undefined,
  ];
  return where.filter((c): c is SQL => c !== undefined);
}

/** One page of visible events, ordered by id, and the number of them all. */
export async function findEvents(db: Db, scope: EventScope, f: EventFilters): Promise<{ rows: ProjectEventRow[]; total: number }> {
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
  // inProjects: every row has its project.
  return { rows: rows as ProjectEventRow[], total };
}
