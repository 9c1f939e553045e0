import { offsetOf, type Caller } from "@collab/core";
import { bySearch, dateCase, valuesTable, type ReadableProjectRef } from "@collab/work-items";
import { preparedList, preparedQuery, type Db } from "@collab/db";
import { and, asc, count, desc, eq, gte, inArray, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import { reactionCondition } from "@collab/notes";
import { awardEmoji, mergeRequestAssignees, mergeRequestLabels, mergeRequestReviewers, mergeRequests, notes, type MergeRequestRow } from "../db/schema";
import { canReadMergeRequests } from "../domain/permissions";
import type { ListMergeRequestsParams, NotParams } from "@collab/merge-requests-contract";

/** Names resolved to ids before the query (labels and milestones in namespaces, users in accounts). */
export interface ResolvedNames {
  labelIds: Record<string, number[]>;
  milestoneIds?: number[] | null;
  notMilestoneIds?: number[] | null;
  /** username → id (null: unknown user). */
  users: Record<string, number | null>;
  milestoneDue?: Record<number, string | null>;
  labelPriority?: Record<number, number | null>;
}

export interface MergeRequestScope {
  caller: Caller | null;
  /** null: every project (administrators on global lists). */
  projects: Pick<ReadableProjectRef, "id" | "access_level" | "visibility" | "merge_requests_access_level">[] | null;
  /** /merge_requests defaults to created_by_me; project and group lists to all. */
  defaultScope: "created_by_me" | "all";
}

const M = mergeRequests;
const linked = (table: string, column: string) => (ids: number[]) =>
  sql`EXISTS (SELECT 1 FROM merge_requests.${sql.raw(table)} x WHERE x.merge_request_id = ${M.id} AND x.${sql.raw(column)} = ANY(${sql.param(ids)}::int[]))`;
const anyLinked = (table: string) => sql`EXISTS (SELECT 1 FROM merge_requests.${sql.raw(table)} x WHERE x.merge_request_id = ${M.id})`;
const assignedTo = linked("merge_request_assignees", "user_id");
const reviewedBy = linked("merge_request_reviewers", "user_id");
const approvedBy = linked("approvals", "user_id");
const hasLabel = linked("merge_request_labels", "label_id");

/**
 * A user (null: anyone) named by the approval rules in force: the merge request's own rules,
 * or its project's when it has none (GitLab's approvers finder).
 */
function ruleApprover(userId: number | null): SQL {
  const user = userId === null ? sql`TRUE` : sql`u.user_id = ${userId}`;
  return sql`(EXISTS (SELECT 1 FROM merge_requests.approval_merge_request_rules r JOIN merge_requests.approval_merge_request_rule_users u ON u.rule_id = r.id
      WHERE r.merge_request_id = ${M.id} AND ${user})
    OR (NOT EXISTS (SELECT 1 FROM merge_requests.approval_merge_request_rules r WHERE r.merge_request_id = ${M.id})
      AND EXISTS (SELECT 1 FROM merge_requests.approval_project_rules r JOIN merge_requests.approval_project_rule_users u ON u.rule_id = r.id
        WHERE r.project_id = ${M.projectId} AND ${user})))`;
}
const FALSE = sql`FALSE`;

/** GitLab's MergeRequestsFinder: one step per filter, each a no-op when its param is absent. */
export function mergeRequestConditions(p: ListMergeRequestsParams, scope: MergeRequestScope, names: ResolvedNames): SQL[] {
  const where: SQL[] = [];
  const idOf = (username: string | undefined) => (username === undefined ? undefined : (names.users[username.toLowerCase()] ?? null));
  byProjects(where, scope);
  byScope(where, p, scope);
  if (p.state !== "all") where.push(eq(M.state, p.state));
  if (p.iids?.length) where.push(inArray(M.iid, p.iids));
  byUser(where, M.authorId, p.author_id, idOf(p.author_username));
  byLinkedUser(where, "merge_request_assignees", assignedTo, p.assignee_id);
  for (const u of p.assignee_username ?? []) where.push(userMatch(assignedTo, idOf(u)));
  byLinkedUser(where, "merge_request_reviewers", reviewedBy, p.reviewer_username === "None" || p.reviewer_username === "Any" ? p.reviewer_username : p.reviewer_id);
  if (p.reviewer_username !== undefined && p.reviewer_username !== "None" && p.reviewer_username !== "Any") where.push(userMatch(reviewedBy, idOf(p.reviewer_username)));
  if (p.merge_user_id !== undefined) where.push(eq(M.mergeUserId, p.merge_user_id));
  if (p.merge_user_username !== undefined) {
    const id = idOf(p.merge_user_username);
    where.push(id ? eq(M.mergeUserId, id) : FALSE);
  }
  byMilestone(where, p.milestone, names.milestoneIds);
  byLabels(where, p.labels, names);
  byReactionEmoji(where, scope.caller, p.my_reaction_emoji);
  bySearch(where, p, M);
  byDates(where, p);
  // There are no deployments nor environments: these filters match nothing, as GitLab's do on a
  // project that never deployed.
  if (p.deployed_after || p.deployed_before || p.environment !== undefined) where.push(FALSE);
  if (p.source_branch !== undefined) where.push(eq(M.sourceBranch, p.source_branch));
  if (p.target_branch !== undefined) where.push(eq(M.targetBranch, p.target_branch));
  if (p.source_project_id !== undefined) where.push(eq(M.sourceProjectId, p.source_project_id));
  if (p.wip !== undefined) where.push(eq(M.draft, p.wip === "yes"));
  if (p.draft !== undefined) where.push(eq(M.draft, p.draft));
  byApprovals(where, p, names);
  if (p.not) byNegations(where, p.not, names);
  if (p.not) byReactionEmoji(where, scope.caller, p.not.my_reaction_emoji, true);
  return where;
}

/** The merge requests of `scope` the caller may read: those of its projects whose merge requests they see. */
export function readableMergeRequestConditions(scope: MergeRequestScope): SQL[] {
  const where: SQL[] = [];
  byProjects(where, scope);
  return where;
}

function byProjects(where: SQL[], scope: MergeRequestScope) {
  if (scope.projects === null) return;
  const ids = scope.projects.filter((pr) => canReadMergeRequests(pr, pr.access_level)).map((pr) => pr.id);
  where.push(ids.length ? inArray(M.projectId, ids) : FALSE);
}

function byScope(where: SQL[], p: ListMergeRequestsParams, scope: MergeRequestScope) {
  const value = p.scope ?? scope.defaultScope;
  if (!scope.caller || value === "all") return;
  if (value === "created_by_me") where.push(eq(M.authorId, scope.caller.id));
  if (value === "assigned_to_me") where.push(assignedTo([scope.caller.id]));
  if (value === "reviews_for_me") where.push(reviewedBy([scope.caller.id]));
}

const userMatch = (linkedTo: (ids: number[]) => SQL, id: number | null | undefined) => (id ? linkedTo([id]) : FALSE);

function byUser(where: SQL[], column: typeof M.authorId, value: number | "None" | "Any" | undefined, usernameId: number | null | undefined) {
  // Every merge request has an author: None matches nothing, Any everything.
  if (value === "None") where.push(FALSE);
  else if (typeof value === "number") where.push(eq(column, value));
  if (usernameId !== undefined) where.push(usernameId ? eq(column, usernameId) : FALSE);
}

function byLinkedUser(where: SQL[], table: string, linkedTo: (ids: number[]) => SQL, value: number | "None" | "Any" | undefined) {
  if (value === "None") where.push(sql`NOT ${anyLinked(table)}`);
  else if (value === "Any") where.push(anyLinked(table));
  else if (typeof value === "number") where.push(linkedTo([value]));
}

function byMilestone(where: SQL[], value: string | undefined, ids: number[] | null | undefined) {
  if (value === undefined) return;
  if (value === "None") where.push(sql`${M.milestoneId} IS NULL`);
  else if (value === "Any") where.push(sql`${M.milestoneId} IS NOT NULL`);
  else where.push(ids?.length ? inArray(M.milestoneId, ids) : FALSE);
}

function byLabels(where: SQL[], labels: ListMergeRequestsParams["labels"], names: ResolvedNames) {
  if (labels === undefined) return;
  if (labels === "None") where.push(sql`NOT ${anyLinked("merge_request_labels")}`);
  else if (labels === "Any") where.push(anyLinked("merge_request_labels"));
  // Every label must be present: one EXISTS per title over the ids carrying it.
  else for (const title of labels) where.push(names.labelIds[title]?.length ? hasLabel(names.labelIds[title]) : FALSE);
}

/** my_reaction_emoji (and not[…] with `negated`): the caller's own reactions, a subquery on the awards' unique index. */
function byReactionEmoji(where: SQL[], caller: Caller | null, value: string | undefined, negated = false) {
  const condition = reactionCondition(awardEmoji, "MergeRequest", M.id, caller?.id, value, negated);
  if (condition) where.push(condition);
}


function byDates(where: SQL[], p: ListMergeRequestsParams) {
  if (p.created_after) where.push(gte(M.createdAt, p.created_after));
  if (p.created_before) where.push(lte(M.createdAt, p.created_before));
  if (p.updated_after) where.push(gte(M.updatedAt, p.updated_after));
  if (p.updated_before) where.push(lte(M.updatedAt, p.updated_before));
  if (p.merged_after) where.push(gte(M.mergedAt, p.merged_after));
  if (p.merged_before) where.push(lte(M.mergedAt, p.merged_before));
}

/**
 * Approval filters (Premium and up; dropped on Free by listParamsForTier):
 * approved_by_ids / approved_by_usernames — approved by every given user (None: by nobody, Any: by someone);
 * approver_ids — the users its approval rules name (its own rules when it has any, else its
 *   project's), every given id (None: no rule names anyone, Any: some rule does);
 * approved — yes: approved by someone, no: by nobody.
 */
function byApprovals(where: SQL[], p: ListMergeRequestsParams, names: ResolvedNames) {
  const anyApproval = anyLinked("approvals");
  if (p.approved_by_ids === "None") where.push(sql`NOT ${anyApproval}`);
  else if (p.approved_by_ids === "Any") where.push(anyApproval);
  else for (const id of p.approved_by_ids ?? []) where.push(approvedBy([id]));
  for (const u of p.approved_by_usernames ?? []) where.push(userMatch(approvedBy, names.users[u.toLowerCase()]));
  if (p.approver_ids === "None") where.push(sql`NOT ${ruleApprover(null)}`);
  else if (p.approver_ids === "Any") where.push(ruleApprover(null));
  else for (const id of p.approver_ids ?? []) where.push(ruleApprover(id));
  if (p.approved === "yes") where.push(anyApproval);
  if (p.approved === "no") where.push(sql`NOT ${anyApproval}`);
}

function byNegations(where: SQL[], not: NotParams, names: ResolvedNames) {
  const idOf = (u: string) => names.users[u.toLowerCase()] ?? null;
  if (not.labels?.length) {
    const ids = not.labels.flatMap((t) => names.labelIds[t] ?? []);
    if (ids.length) where.push(sql`NOT ${hasLabel(ids)}`);
  }
  if (not.milestone === "None") where.push(sql`${M.milestoneId} IS NOT NULL`);
  else if (not.milestone === "Any") where.push(sql`${M.milestoneId} IS NULL`);
  else if (not.milestone !== undefined && names.notMilestoneIds?.length) where.push(or(sql`${M.milestoneId} IS NULL`, notInArray(M.milestoneId, names.notMilestoneIds))!);
  if (not.author_id !== undefined) where.push(sql`${M.authorId} <> ${not.author_id}`);
  if (not.author_username !== undefined) {
    const id = idOf(not.author_username);
    if (id) where.push(sql`${M.authorId} <> ${id}`);
  }
  negateLinked(where, "merge_request_assignees", assignedTo, not.assignee_id);
  const notAssignees = (not.assignee_username ?? []).map(idOf).filter((i): i is number => i !== null);
  if (notAssignees.length) where.push(sql`NOT ${assignedTo(notAssignees)}`);
  negateLinked(where, "merge_request_reviewers", reviewedBy, not.reviewer_id);
  if (not.reviewer_username !== undefined) {
    const id = idOf(not.reviewer_username);
    if (id) where.push(sql`NOT ${reviewedBy([id])}`);
  }
}

function negateLinked(where: SQL[], table: string, linkedTo: (ids: number[]) => SQL, value: number | "None" | "Any" | undefined) {
  if (value === "None") where.push(anyLinked(table));
  else if (value === "Any") where.push(sql`NOT ${anyLinked(table)}`);
  else if (typeof value === "number") where.push(sql`NOT ${linkedTo([value])}`);
}

/** ORDER BY for every order_by GitLab accepts, id as the tie-breaker in the same direction. */
export function mergeRequestOrder(p: ListMergeRequestsParams, names: ResolvedNames): SQL[] {
  const dir = p.sort === "asc" ? asc : desc;
  const nullsLast = (col: SQL | typeof M.mergedAt) => (p.sort === "asc" ? sql`${col} ASC NULLS LAST` : sql`${col} DESC NULLS LAST`);
  const milestoneDue = dateCase(M.milestoneId, names.milestoneDue ?? {});
  const labelPriority = sql`(SELECT min(pr.priority) FROM merge_requests.merge_request_labels ml
    JOIN ${valuesTable(names.labelPriority ?? {})} pr(label_id, priority) ON pr.label_id = ml.label_id WHERE ml.merge_request_id = ${M.id})`;
  switch (p.order_by) {
    case "updated_at":
      return [dir(M.updatedAt), dir(M.id)];
    case "title":
      return [dir(M.title), dir(M.id)];
    case "merged_at":
      return [nullsLast(M.mergedAt), dir(M.id)];
    case "popularity":
      return [dir(sql`(${M.upvotes} - ${M.downvotes})`), dir(M.id)];
    case "milestone_due":
      return [nullsLast(milestoneDue), dir(M.id)];
    case "label_priority":
      return [nullsLast(labelPriority), dir(M.id)];
    case "priority":
      return [nullsLast(milestoneDue), nullsLast(labelPriority), dir(M.id)];
    default:
      return [dir(M.createdAt), dir(M.id)];
  }
}



/** The page of a list and its count: prepared per shape of its filters and order. */
const mergeRequestsList = preparedList(
  (db, where, order, name) => db.select().from(M).where(where).orderBy(order).limit(sql.placeholder("limit")).offset(sql.placeholder("offset")).prepare(name),
  (db, where, name) => db.select({ total: count() }).from(M).where(where).prepare(name),
);

export async function findMergeRequests(db: Db, p: ListMergeRequestsParams, scope: MergeRequestScope, names: ResolvedNames): Promise<{ rows: MergeRequestRow[]; total: number }> {
  const where = and(...mergeRequestConditions(p, scope, names));
  return mergeRequestsList(db, { where, order: mergeRequestOrder(p, names) }, { limit: p.per_page, offset: offsetOf(p) });
}

/** Milestones and labels of the matching merge requests, for the cross-service orders. */
export async function orderingIds(db: Db, p: ListMergeRequestsParams, scope: MergeRequestScope, names: ResolvedNames) {
  const condition = and(...mergeRequestConditions(p, scope, names));
  const [ms, ls] = await Promise.all([
    db.selectDistinct({ id: M.milestoneId }).from(M).where(and(condition, sql`${M.milestoneId} IS NOT NULL`)),
    db.selectDistinct({ id: mergeRequestLabels.labelId }).from(mergeRequestLabels).innerJoin(M, eq(M.id, mergeRequestLabels.mergeRequestId)).where(condition),
  ]);
  return { milestoneIds: ms.map((m) => m.id!), labelIds: ls.map((l) => l.id) };
}

/**
 * Label, assignee (ascending) and reviewer (in the order they were asked) ids per merge request,
 * and its unresolved threads' notes: one prepared statement.
 */
const pageLinks = preparedQuery((db: Db) =>
  db
    .select({
      id: sql<number>`page.id`,
      labelIds: sql<number[]>`ARRAY(SELECT ${mergeRequestLabels.labelId} FROM ${mergeRequestLabels} WHERE ${mergeRequestLabels.mergeRequestId} = page.id ORDER BY 1)`,
      assigneeIds: sql<number[]>`ARRAY(SELECT ${mergeRequestAssignees.userId} FROM ${mergeRequestAssignees} WHERE ${mergeRequestAssignees.mergeRequestId} = page.id ORDER BY 1)`,
      reviewerIds: sql<number[]>`ARRAY(SELECT ${mergeRequestReviewers.userId} FROM ${mergeRequestReviewers} WHERE ${mergeRequestReviewers.mergeRequestId} = page.id
        ORDER BY ${mergeRequestReviewers.createdAt}, ${mergeRequestReviewers.userId})`,
      unresolved: sql<number>`(SELECT count(*)::int FROM ${notes} WHERE ${notes.noteableType} = 'MergeRequest' AND ${notes.noteableId} = page.id
        AND ${notes.resolvable} AND ${notes.resolvedAt} IS NULL)`,
    })
    .from(sql`unnest(${sql.placeholder("ids")}::int[]) AS page(id)`)
    .prepare("merge_requests_page_links"),
);

/** Labels, assignees, reviewers and unresolved notes of a page of merge requests: one statement whatever the page holds. */
export async function mergeRequestLinks(db: Db, ids: number[]) {
  const rows = ids.length ? await pageLinks(db, { ids }) : [];
  const byId = (pick: (r: (typeof rows)[number]) => number[]) => new Map(rows.filter((r) => pick(r).length).map((r) => [r.id, pick(r)]));
  return {
    labelIds: byId((r) => r.labelIds),
    assigneeIds: byId((r) => r.assigneeIds),
    reviewerIds: byId((r) => r.reviewerIds),
    unresolved: new Map(rows.filter((r) => r.unresolved > 0).map((r) => [r.id, r.unresolved])),
  };
}
