import { AccessLevel, featureHidden, offsetOf, type Caller } from "@collab/core";
import { preparedList, preparedQuery, type Db } from "@collab/db";
import { bySearch, dateCase, valuesTable } from "@collab/work-items";
import { and, asc, count, desc, eq, getTableColumns, gte, inArray, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { ListIssuesParams, NotParams } from "@collab/issues-contract";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { reactionCondition } from "@collab/notes";
import { awardEmoji, epicIssues, issueAssignees, issueLabels, issues, type IssueRow } from "../db/schema";

/** A project the caller may list issues of, with their access level there. */
export interface ReadableProject {
  id: number;
  access_level: number;
  issues_access_level: string;
  archived?: boolean;
}

/**
 * Names resolved to ids by the caller before the query: labels and milestones live in the
 * namespaces service, users in accounts (one bus call per kind, never per row).
 */
export interface ResolvedNames {
  labelIds: Record<string, number[]>;
  milestoneIds?: number[] | null;
  notMilestoneIds?: number[] | null;
  authorId?: number | null;
  notAuthorId?: number | null;
  assigneeIds?: number[] | null;
  notAssigneeIds?: number[] | null;
  /** milestone id → due date, for order_by=milestone_due / priority. */
  milestoneDue?: Record<number, string | null>;
  /** label id → priority, for order_by=label_priority / priority. */
  labelPriority?: Record<number, number | null>;
}

export interface IssueScope {
  caller: Caller | null;
  /** null: every project (administrators on global lists). */
  projects: ReadableProject[] | null;
  /** Default scope of /issues is created_by_me; project and group lists default to all. */
  defaultScope: "created_by_me" | "all";
}

const hasAssignee = sql`EXISTS (SELECT 1 FROM issues.issue_assignees a WHERE a.issue_id = ${issues.id})`;
const assignedTo = (ids: number[]) =>
  sql`EXISTS (SELECT 1 FROM issues.issue_assignees a WHERE a.issue_id = ${issues.id} AND a.user_id = ANY(${sql.param(ids)}::int[]))`;
const hasLabel = (ids: number[]) =>
  sql`EXISTS (SELECT 1 FROM issues.issue_labels l WHERE l.issue_id = ${issues.id} AND l.label_id = ANY(${sql.param(ids)}::int[]))`;
const hasAnyLabel = sql`EXISTS (SELECT 1 FROM issues.issue_labels l WHERE l.issue_id = ${issues.id})`;

/** GitLab's IssuesFinder: an explicit pipeline of steps, each a no-op when its param is absent. */
export function issueConditions(p: ListIssuesParams, scope: IssueScope, names: ResolvedNames, byProjectIds = true): SQL[] {
  const where = readableIssueConditions(scope, byProjectIds);
  byScope(where, p, scope);
  byState(where, p);
  byIids(where, p.iids);
  byAuthor(where, p, names);
  byAssignee(where, p, names);
  byMilestone(where, p, names);
  byLabels(where, p.labels, names);
  bySearch(where, p, issues);
  byDates(where, p);
  if (p.confidential !== undefined) where.push(eq(issues.confidential, p.confidential));
  byDueDate(where, p.due_date);
  if (p.issue_type) where.push(eq(issues.issueType, p.issue_type));
  byReactionEmoji(where, scope.caller, p.my_reaction_emoji);
  if (p.closed_by_id !== undefined) where.push(eq(issues.closedById, p.closed_by_id));
  byIntOrSentinel(where, issues.weight, p.weight);
  byEpic(where, p.epic_id);
  byIntOrSentinel(where, issues.iterationId, p.iteration_id);
  if (p.iteration_title !== undefined) where.push(sql`FALSE`); // no iterations exist to match a title
  byHealthStatus(where, p.health_status);
  if (p.not) byNegations(where, p.not, names);
  if (p.not) byReactionEmoji(where, scope.caller, p.not.my_reaction_emoji, true);
  return where;
}

/**
 * The issues of `scope` the caller may read: its projects with issues visible, confidential ones
 * where allowed. Without `byProjectIds` the statement restricts the project ids itself.
 */
export function readableIssueConditions(scope: IssueScope, byProjectIds = true): SQL[] {
  const where: SQL[] = [];
  if (byProjectIds) byProjects(where, scope);
  byConfidentiality(where, scope);
  return where;
}

/** The projects of `scope` whose issues the caller may list (null: every project). */
function listedProjectIds(scope: IssueScope): number[] | null {
  if (scope.projects === null) return null;
  return scope.projects.filter((pr) => !featureHidden(pr.issues_access_level, pr.access_level)).map((pr) => pr.id);
}

function byProjects(where: SQL[], scope: IssueScope) {
  const ids = listedProjectIds(scope);
  if (ids === null) return;
  where.push(ids.length ? inArray(issues.projectId, ids) : sql`FALSE`);
}

/** Confidential issues: Reporter+ of the project, their author and assignees (and administrators). */
function byConfidentiality(where: SQL[], scope: IssueScope) {
  const caller = scope.caller;
  if (caller?.admin) return;
  if (!caller) {
    where.push(eq(issues.confidential, false));
    return;
  }
  const trusted = (scope.projects ?? []).filter((pr) => pr.access_level >= AccessLevel.REPORTER).map((pr) => pr.id);
  // Reporter+ on every project in scope sees every issue there: no per-row predicate, so counts stay on the index.
  if (scope.projects !== null && scope.projects.length > 0 && trusted.length === scope.projects.length) return;
  where.push(
    or(
      eq(issues.confidential, false),
      trusted.length ? inArray(issues.projectId, trusted) : undefined,
      eq(issues.authorId, caller.id),
      assignedTo([caller.id]),
    )!,
  );
}

function byScope(where: SQL[], p: ListIssuesParams, scope: IssueScope) {
  const value = p.scope ?? scope.defaultScope;
  if (!scope.caller || value === "all") return;
  if (value === "created_by_me") where.push(eq(issues.authorId, scope.caller.id));
  if (value === "assigned_to_me") where.push(assignedTo([scope.caller.id]));
}

function byState(where: SQL[], p: ListIssuesParams) {
  if (p.state !== "all") where.push(eq(issues.state, p.state));
}

function byIids(where: SQL[], iids: number[] | undefined) {
  if (iids?.length) where.push(inArray(issues.iid, iids));
}

function byAuthor(where: SQL[], p: ListIssuesParams, names: ResolvedNames) {
  if (p.author_id === "None") where.push(sql`FALSE`);
  else if (typeof p.author_id === "number") where.push(eq(issues.authorId, p.author_id));
  if (p.author_username !== undefined) where.push(names.authorId ? eq(issues.authorId, names.authorId) : sql`FALSE`);
}

function byAssignee(where: SQL[], p: ListIssuesParams, names: ResolvedNames) {
  if (p.assignee_id === "None") where.push(sql`NOT ${hasAssignee}`);
  else if (p.assignee_id === "Any") where.push(hasAssignee);
  else if (typeof p.assignee_id === "number") where.push(assignedTo([p.assignee_id]));
  if (p.assignee_username?.length) {
    // Every named user must be assigned.
    const ids = names.assigneeIds ?? [];
    if (ids.length < p.assignee_username.length) where.push(sql`FALSE`);
    else for (const id of ids) where.push(assignedTo([id]));
  }
}

function byMilestone(where: SQL[], p: ListIssuesParams, names: ResolvedNames) {
  const value = p.milestone_id ?? p.milestone;
  if (value === undefined) return;
  if (value === "None") where.push(sql`${issues.milestoneId} IS NULL`);
  else if (value === "Any") where.push(sql`${issues.milestoneId} IS NOT NULL`);
  else {
    const ids = names.milestoneIds ?? [];
    where.push(ids.length ? inArray(issues.milestoneId, ids) : sql`FALSE`);
  }
}

function byLabels(where: SQL[], labels: ListIssuesParams["labels"], names: ResolvedNames) {
  if (labels === undefined) return;
  if (labels === "None") where.push(sql`NOT ${hasAnyLabel}`);
  else if (labels === "Any") where.push(hasAnyLabel);
  // All labels must match: one EXISTS per title over the ids carrying that title.
  else for (const title of labels) where.push(names.labelIds[title]?.length ? hasLabel(names.labelIds[title]) : sql`FALSE`);
}


function byDates(where: SQL[], p: ListIssuesParams) {
  if (p.created_after) where.push(gte(issues.createdAt, p.created_after));
  if (p.created_before) where.push(lte(issues.createdAt, p.created_before));
  if (p.updated_after) where.push(gte(issues.updatedAt, p.updated_after));
  if (p.updated_before) where.push(lte(issues.updatedAt, p.updated_before));
}

function byDueDate(where: SQL[], value: ListIssuesParams["due_date"]) {
  const d = issues.dueDate;
  switch (value) {
    case "0":
      return where.push(sql`${d} IS NULL`);
    case "any":
      return where.push(sql`${d} IS NOT NULL`);
    case "today":
      return where.push(sql`${d} = current_date`);
    case "tomorrow":
      return where.push(sql`${d} = current_date + 1`);
    case "overdue":
      return where.push(sql`${d} < current_date`);
    case "week":
      return where.push(sql`${d} BETWEEN date_trunc('week', current_date)::date AND (date_trunc('week', current_date) + interval '6 days')::date`);
    case "month":
      return where.push(sql`${d} BETWEEN date_trunc('month', current_date)::date AND (date_trunc('month', current_date) + interval '1 month - 1 day')::date`);
    case "next_month_and_previous_two_weeks":
      return where.push(sql`${d} BETWEEN (current_date - 14) AND (date_trunc('month', current_date) + interval '2 months - 1 day')::date`);
  }
}

/** my_reaction_emoji (and not[…] with `negated`): the caller's own reactions, a subquery on the awards' unique index. */
function byReactionEmoji(where: SQL[], caller: Caller | null, value: string | undefined, negated = false) {
  const condition = reactionCondition(awardEmoji, "Issue", issues.id, caller?.id, value, negated);
  if (condition) where.push(condition);
}

function byIntOrSentinel(where: SQL[], column: AnyPgColumn, value: number | "None" | "Any" | undefined) {
  if (value === undefined) return;
  if (value === "None") where.push(sql`${column} IS NULL`);
  else if (value === "Any") where.push(sql`${column} IS NOT NULL`);
  else where.push(eq(column, value));
}

/** An issue's epic is its epic_issues row (at most one): a subquery on its unique issue_id index. */
const epicCondition = (value: number | "None" | "Any") =>
  value === "None"
    ? sql`NOT EXISTS (SELECT 1 FROM ${epicIssues} ei WHERE ei.issue_id = ${issues.id})`
    : value === "Any"
      ? sql`EXISTS (SELECT 1 FROM ${epicIssues} ei WHERE ei.issue_id = ${issues.id})`
      : sql`EXISTS (SELECT 1 FROM ${epicIssues} ei WHERE ei.issue_id = ${issues.id} AND ei.epic_id = ${value})`;

function byEpic(where: SQL[], value: number | "None" | "Any" | undefined) {
  if (value !== undefined) where.push(epicCondition(value));
}

function byHealthStatus(where: SQL[], value: ListIssuesParams["health_status"]) {
  if (value === undefined) return;
  if (value === "None") where.push(sql`${issues.healthStatus} IS NULL`);
  else if (value === "Any") where.push(sql`${issues.healthStatus} IS NOT NULL`);
  else where.push(eq(issues.healthStatus, value));
}

function byNegations(where: SQL[], not: NotParams, names: ResolvedNames) {
  // not[labels]: issues carrying none of the given labels.
  if (not.labels?.length) {
    const ids = not.labels.flatMap((t) => names.labelIds[t] ?? []);
    if (ids.length) where.push(sql`NOT ${hasLabel(ids)}`);
  }
  if (not.milestone !== undefined || not.milestone_id !== undefined) {
    const v = not.milestone_id ?? not.milestone;
    if (v === "None") where.push(sql`${issues.milestoneId} IS NOT NULL`);
    else if (v === "Any") where.push(sql`${issues.milestoneId} IS NULL`);
    else if (names.notMilestoneIds?.length) where.push(or(sql`${issues.milestoneId} IS NULL`, notInArray(issues.milestoneId, names.notMilestoneIds))!);
  }
  if (not.iids?.length) where.push(notInArray(issues.iid, not.iids));
  if (not.author_id !== undefined) where.push(sql`${issues.authorId} <> ${not.author_id}`);
  if (not.author_username !== undefined && names.notAuthorId) where.push(sql`${issues.authorId} <> ${names.notAuthorId}`);
  if (not.assignee_id === "None") where.push(hasAssignee);
  else if (not.assignee_id === "Any") where.push(sql`NOT ${hasAssignee}`);
  else if (typeof not.assignee_id === "number") where.push(sql`NOT ${assignedTo([not.assignee_id])}`);
  if (not.assignee_username?.length && names.notAssigneeIds?.length) where.push(sql`NOT ${assignedTo(names.notAssigneeIds)}`);
  negateIntOrSentinel(where, issues.weight, not.weight);
  if (not.epic_id !== undefined) where.push(sql`NOT ${epicCondition(not.epic_id)}`);
  negateIntOrSentinel(where, issues.iterationId, not.iteration_id);
  if (not.health_status !== undefined) where.push(sql`${issues.healthStatus} IS DISTINCT FROM ${not.health_status}`);
}

function negateIntOrSentinel(where: SQL[], column: AnyPgColumn, value: number | "None" | "Any" | undefined) {
  if (value === undefined) return;
  if (value === "None") where.push(sql`${column} IS NOT NULL`);
  else if (value === "Any") where.push(sql`${column} IS NULL`);
  else where.push(sql`${column} IS DISTINCT FROM ${value}`);
}

/** ORDER BY for every order_by GitLab accepts, id as the tie-breaker in the same direction. */
export function issueOrder(p: ListIssuesParams, names: ResolvedNames): SQL[] {
  const dir = p.sort === "asc" ? asc : desc;
  const nullsLast = (col: SQL | typeof issues.dueDate) => (p.sort === "asc" ? sql`${col} ASC NULLS LAST` : sql`${col} DESC NULLS LAST`);
  const milestoneDue = dateCase(issues.milestoneId, names.milestoneDue ?? {});
  const labelPriority = sql`(SELECT min(pr.priority) FROM issues.issue_labels il
    JOIN ${valuesTable(names.labelPriority ?? {})} pr(label_id, priority) ON pr.label_id = il.label_id WHERE il.issue_id = ${issues.id})`;
  switch (p.order_by) {
    case "updated_at":
      return [dir(issues.updatedAt), dir(issues.id)];
    case "title":
      return [dir(issues.title), dir(issues.id)];
    case "due_date":
      return [nullsLast(issues.dueDate), dir(issues.id)];
    case "relative_position":
      return [nullsLast(issues.relativePosition as unknown as SQL), dir(issues.id)];
    case "weight":
      return [nullsLast(issues.weight as unknown as SQL), dir(issues.id)];
    case "popularity":
      return [dir(sql`(${issues.upvotes} - ${issues.downvotes})`), dir(issues.id)];
    case "milestone_due":
      return [nullsLast(milestoneDue), dir(issues.id)];
    // The highest priority of an issue's labels is the lowest number; sort=desc reverses it.
    case "label_priority":
      return [nullsLast(labelPriority), dir(issues.id)];
    // GitLab's priority order: milestone due date first, then label priority, both in `sort`.
    case "priority":
      return [nullsLast(milestoneDue), nullsLast(labelPriority), dir(issues.id)];
    default:
      return [dir(issues.createdAt), dir(issues.id)];
  }
}



/**
 * An issue row with its label and assignee ids, as list queries read them in one statement, and
 * the id of the epic it is in (null: none; absent when not read), so that a page without epics
 * needs no epic lookup, and how many open issues it blocks (rows rebuilt after a write may lack both).
 */
export type IssueWithLinks = IssueRow & { labelIds: number[]; assigneeIds: number[]; epicId?: number | null; blockingIssuesCount?: number };

/**
 * GitLab's blocking_issues_count: the open issues `issueId` blocks (its `blocks` links; an
 * `is_blocked_by` is stored as the other's `blocks`), on the partial index of blocking links.
 */
export const blockingCount = (issueId: SQL) =>
  sql`(SELECT count(*)::int FROM issues.issue_links bl JOIN issues.issues bt ON bt.id = bl.target_id
    WHERE bl.source_id = ${issueId} AND bl.link_type = 'blocks' AND bt.state = 'opened')`;

/**
 * The links of each row, as subqueries of the page query (the links are this service's own tables).
 * The row's id is written qualified: drizzle leaves a lone table's columns bare, and a bare "id"
 * inside a subquery would be the subquery's own (epic_issues has one).
 */
const issueId = sql`${issues}.${sql.identifier(issues.id.name)}`;
export const linkColumns = {
  labelIds: sql<number[]>`array(SELECT l.label_id FROM issues.issue_labels l WHERE l.issue_id = ${issueId})`.as("label_ids"),
  assigneeIds: sql<number[]>`array(SELECT a.user_id FROM issues.issue_assignees a WHERE a.issue_id = ${issueId})`.as("assignee_ids"),
  epicId: sql<number | null>`(SELECT e.epic_id FROM issues.epic_issues e WHERE e.issue_id = ${issueId})`.as("in_epic_id"),
  blockingIssuesCount: sql<number>`${blockingCount(issueId)}`.as("blocking_issues_count"),
};

/** The page of a list with its links, and its count: prepared per shape of its filters and order. */
const issuesList = preparedList(
  (db, where, order, name) =>
    db
      .select({ ...getTableColumns(issues), ...linkColumns })
      .from(issues)
      .where(where)
      .orderBy(order)
      .limit(sql.placeholder("limit"))
      .offset(sql.placeholder("offset"))
      .prepare(name),
  (db, where, name) => db.select({ total: count() }).from(issues).where(where).prepare(name),
);

const window = { limit: sql`${sql.placeholder("limit")}::int`, offset: sql`${sql.placeholder("offset")}::int` };

/**
 * The same page over several projects in created_at or updated_at order, read as a merge: each
 * project's first offset+limit matching rows through its (project_id, <column>, id) index (a
 * LATERAL subquery per project id), ordered again and cut to the page, then those rows read by
 * primary key with their links. Without it PostgreSQL reads every matching issue of every project
 * and sorts them to keep a page. The subquery's `row_filters` are the list's filters but the
 * project ids, which the unnest gives (an `IN` list there too would be an index condition of every
 * project's scan); the count keeps `where`. `merge_order` names the subquery's columns: the
 * filters and the order name the table's, which inside the subquery is its own.
 */
const mergedIssuesList = preparedList(
  (db, _where, order, name, { projects, row_filters, merge_order }) =>
    db
      .select({ ...getTableColumns(issues), ...linkColumns })
      .from(issues)
      .where(
        sql`${issues.id} = ANY(ARRAY(SELECT m.id FROM unnest(${projects}) AS listed(project_id) CROSS JOIN LATERAL (
          SELECT ${issues.id}, ${issues.createdAt}, ${issues.updatedAt} FROM ${issues}
          WHERE ${issues.projectId} = listed.project_id AND ${row_filters} ORDER BY ${order} LIMIT ${window.limit} + ${window.offset}) m
          ORDER BY ${merge_order} LIMIT ${window.limit} OFFSET ${window.offset}))`,
      )
      .orderBy(order)
      .prepare(name),
  (db, where, name) => db.select({ total: count() }).from(issues).where(where).prepare(name),
);

/** The merge's order over its subquery's columns, when the list can be read as one (see mergedIssuesList). */
function mergeOrder(p: ListIssuesParams, projectIds: number[] | null): SQL | undefined {
  if (projectIds === null || projectIds.length < 2) return undefined;
  const column = p.order_by === "updated_at" ? issues.updatedAt : p.order_by === "created_at" || p.order_by === undefined ? issues.createdAt : undefined;
  if (!column) return undefined;
  const dir = sql.raw(p.sort === "asc" ? "ASC" : "DESC");
  return sql`m.${sql.identifier(column.name)} ${dir}, m.${sql.identifier(issues.id.name)} ${dir}`;
}

export async function findIssues(
  db: Db,
  p: ListIssuesParams,
  scope: IssueScope,
  names: ResolvedNames,
): Promise<{ rows: IssueWithLinks[]; total: number }> {
  const where = and(...issueConditions(p, scope, names));
  const order = issueOrder(p, names);
  const page = { limit: p.per_page, offset: offsetOf(p) };
  const projectIds = listedProjectIds(scope);
  const merge = mergeOrder(p, projectIds);
  if (merge) {
    const rowFilters = and(...issueConditions(p, scope, names, false)) ?? sql`TRUE`;
    return mergedIssuesList(db, { where, order, parts: { projects: sql`${sql.param(projectIds)}::int[]`, row_filters: rowFilters, merge_order: merge } }, page);
  }
  return issuesList(db, { where, order }, page);
}

const labelLinks = preparedQuery((db: Db) =>
  db.select().from(issueLabels).where(sql`${issueLabels.issueId} = ANY(${sql.placeholder("ids")}::int[])`).prepare("issues_label_links"),
);
const assigneeLinks = preparedQuery((db: Db) =>
  db.select().from(issueAssignees).where(sql`${issueAssignees.issueId} = ANY(${sql.placeholder("ids")}::int[])`).prepare("issues_assignee_links"),
);

/** Label and assignee ids of a page of issues: two queries whatever the page holds. */
export async function issueLinks(db: Db, issueIds: number[]) {
  if (issueIds.length === 0) return { labelIds: new Map<number, number[]>(), assigneeIds: new Map<number, number[]>() };
  const [labelRows, assigneeRows] = await Promise.all([labelLinks(db, { ids: issueIds }), assigneeLinks(db, { ids: issueIds })]);
  const group = <T extends { issueId: number }>(rows: T[], pick: (r: T) => number) => {
    const m = new Map<number, number[]>();
    for (const r of rows) m.set(r.issueId, [...(m.get(r.issueId) ?? []), pick(r)]);
    return m;
  };
  return { labelIds: group(labelRows, (r) => r.labelId), assigneeIds: group(assigneeRows, (r) => r.userId) };
}

const issueWithLinksByIid = preparedQuery((db: Db) =>
  db
    .select({ ...getTableColumns(issues), ...linkColumns })
    .from(issues)
    .where(and(eq(issues.projectId, sql.placeholder("projectId")), eq(issues.iid, sql.placeholder("iid"))))
    .prepare("issues_issue_with_links_by_iid"),
);

/**
 * An issue by iid with its assignee ids (who may read or edit it depends on them), label ids
 * (what a write changes and a presenter shows) and epic id: one statement.
 */
export async function findIssueWithLinks(
  db: Db,
  projectId: number,
  iid: number,
): Promise<{ issue: IssueRow; assigneeIds: number[]; labelIds: number[]; epicId: number | null; blockingIssuesCount: number } | undefined> {
  const [row] = await issueWithLinksByIid(db, { projectId, iid });
  if (!row) return undefined;
  // The row alone: writes spread it back into the table, which has no column for the others.
  const { assigneeIds, labelIds, epicId, blockingIssuesCount, ...issue } = row;
  return { issue, assigneeIds, labelIds, epicId, blockingIssuesCount };
}

/** blocking_issues_count of issues read without it: one statement for them all. */
export async function blockingCounts(db: Db, issueIds: number[]): Promise<Map<number, number>> {
  if (issueIds.length === 0) return new Map();
  const rows = await db
    .select({ id: issues.id, count: sql<number>`${blockingCount(issueId)}` })
    .from(issues)
    .where(sql`${issues.id} = ANY(${sql.param(issueIds)}::int[])`);
  return new Map(rows.map((r) => [r.id, r.count]));
}

/** GitLab's IssuablesCountForState: the issues matching the filters (state aside), by state, in one statement. */
export async function countIssuesByState(db: Db, p: ListIssuesParams, scope: IssueScope, names: ResolvedNames): Promise<{ all: number; opened: number; closed: number }> {
  const where = and(...issueConditions({ ...p, state: "all" }, scope, names));
  const [row] = await db
    .select({
      all: sql<number>`count(*)::int`,
      opened: sql<number>`(count(*) FILTER (WHERE ${issues.state} = 'opened'))::int`,
      closed: sql<number>`(count(*) FILTER (WHERE ${issues.state} = 'closed'))::int`,
    })
    .from(issues)
    .where(where);
  return row;
}
