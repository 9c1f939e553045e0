import { type Ctx, call, callerOf } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { presentIssue, type IssuePresentation, type WorkItemProject } from "../api/issue.entity";
import { MergeRequests } from "@collab/merge-requests-contract";
import type { IssueRow } from "../db/schema";
import { blockingCounts, issueLinks, type IssueWithLinks } from "../finders/issues.finder";
import { labelAndMilestoneMaps, projectMap, userMap, type LabelDetail, type MilestoneDetail } from "@collab/work-items";
import type { IssueEpic } from "@collab/issues-contract";
import type { EpicRow } from "../db/schema";
import { canReadEpic } from "../epics/epic-permissions";
import { roleOnGroup } from "../epics/epic-groups";
import { epicsOfIssues } from "../epics/epic-issues.finder";
import { groupPathAbove } from "../epics/epic-issues";
import { presentIssueEpic } from "../epics/issue-epic.entity";

export interface PresentOptions {
  context: IssuePresentation["context"];
  withLabelsDetails?: boolean;
  /** Summaries already known (the project of a project-scoped request). */
  knownProjects?: WorkItemProject[];
  /** Labels and milestones already looked up (a write's input checks): only the others are asked for. */
  knownRefs?: KnownRefs;
  subscribed?: boolean;
  /**
   * Issues this request has just created: no merge request closes them yet (as in GitLab, whose
   * closing links are made when a merge request is saved, for issues that exist then), so
   * merge_requests_count is 0 without asking.
   */
  created?: boolean;
  /** The epics of the rows by issue id, when the caller knows them (a create): not read again. */
  knownEpics?: Map<number, EpicRow>;
}

export interface KnownRefs {
  labels: LabelDetail[];
  milestones: MilestoneDetail[];
}

export const NO_KNOWN_REFS: KnownRefs = { labels: [], milestones: [] };

/**
 * Presents a page of issues with a fixed number of queries and bus calls whatever its size: the
 * links (read with the page by list queries, else two local queries) and at most four batched
 * calls (users, labels with milestones, projects, merge request counts); on Premium and up, one
 * query for the page's epics (and a call per group of a confidential one among them, rare).
 */
export async function presentIssues(kit: ServiceKit, ctx: Ctx<unknown>, rows: (IssueRow | IssueWithLinks)[], o: PresentOptions) {
  const { labelIds, assigneeIds } = linksOf(rows) ?? (await issueLinks(kit.db, rows.map((r) => r.id)));
  const known = new Map((o.knownProjects ?? []).map((p) => [p.id, p]));
  const missingProjects = rows.map((r) => r.projectId).filter((id) => !known.has(id));
  const premium = kit.config.LICENSE_TIER !== "free";
  const [users, { labels, milestones }, asked, mergeRequestsCounts, epicRows, blocking] = await Promise.all([
    userMap(ctx, rows.flatMap((r) => [r.authorId, r.closedById, ...(assigneeIds.get(r.id) ?? [])])),
    knownOrAsked(ctx, [...labelIds.values()].flat(), rows.map((r) => r.milestoneId), o.knownRefs ?? NO_KNOWN_REFS),
    projectMap(ctx, missingProjects),
    o.created ? new Map<number, number>() : mergeRequestCounts(ctx, rows),
    premium ? (o.knownEpics ?? epicsOf(kit, rows)) : undefined,
    premium ? blockingOf(kit, rows, o.created ?? false) : undefined,
  ]);
  const projects = new Map<number, WorkItemProject>([...asked, ...known]);
  const epics = epicRows && (await epicsShown(ctx, rows, epicRows, projects));
  const presentation: IssuePresentation = {
    baseUrl: kit.baseUrl,
    projects,
    users,
    labels,
    milestones,
    labelIds,
    assigneeIds,
    context: o.context,
    withLabelsDetails: o.withLabelsDetails ?? false,
    tier: kit.config.LICENSE_TIER,
    subscribed: o.subscribed,
    mergeRequestsCounts,
    epics,
    blockingIssuesCounts: blocking,
  };
  return rows.map((r) => presentIssue(r, presentation));
}

/** The labels and milestones of the rows: those known, and the others in one call (none when all are known). */
async function knownOrAsked(ctx: Ctx<unknown>, labelIds: number[], milestoneIds: (number | null)[], known: KnownRefs) {
  const labels = new Map(known.labels.map((l) => [l.id, l]));
  const milestones = new Map(known.milestones.map((m) => [m.id, m]));
  const asked = await labelAndMilestoneMaps(
    ctx,
    labelIds.filter((id) => !labels.has(id)),
    milestoneIds.filter((id) => id !== null && !milestones.has(id)),
  );
  for (const [id, l] of asked.labels) labels.set(id, l);
  for (const [id, m] of asked.milestones) milestones.set(id, m);
  return { labels, milestones };
}

/**
 * blocking_issues_count of the rows: read with them by list and load queries, 0 for issues this
 * request created (nothing links to them yet), and the others' in one statement.
 */
async function blockingOf(kit: ServiceKit, rows: (IssueRow | IssueWithLinks)[], created: boolean): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const missing: number[] = [];
  for (const r of rows) {
    const known = "blockingIssuesCount" in r ? r.blockingIssuesCount : created ? 0 : undefined;
    if (known === undefined) missing.push(r.id);
    else out.set(r.id, known);
  }
  for (const [id, count] of await blockingCounts(kit.db, missing)) out.set(id, count);
  return out;
}

/** The links list queries read with the rows (findIssues), when every row has them. */
function linksOf(rows: (IssueRow | IssueWithLinks)[]) {
  if (!rows.every((r): r is IssueWithLinks => "labelIds" in r && "assigneeIds" in r)) return undefined;
  return { labelIds: new Map(rows.map((r) => [r.id, r.labelIds])), assigneeIds: new Map(rows.map((r) => [r.id, r.assigneeIds])) };
}

/**
 * The epics of the rows by issue id: none asked for when the rows were read with their epic ids
 * and none is in an epic (the common page), else one query for those in one.
 */
async function epicsOf(kit: ServiceKit, rows: (IssueRow | IssueWithLinks)[]): Promise<Map<number, EpicRow>> {
  const read = rows.every((r): r is IssueWithLinks => "epicId" in r && r.epicId !== undefined);
  const ids = read ? rows.filter((r) => r.epicId !== null).map((r) => r.id) : rows.map((r) => r.id);
  return ids.length ? epicsOfIssues(kit.db, ids) : new Map();
}

/**
 * merge_requests_count of a page of issues: the merge requests whose description closes each, in
 * one call to the merge-requests service. Merge requests are a pluggable service: when it is not
 * running every count is 0.
 */
const COUNTS = MergeRequests.closingIssues.counts;
async function mergeRequestCounts(ctx: Ctx<unknown>, rows: IssueRow[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!rows.length || !ctx.broker.registry.getActionEndpoints(COUNTS.name)?.hasAvailable()) return out;
  try {
    const counts = await call(ctx, COUNTS, {
      refs: rows.map((r) => ({ project_id: r.projectId, iid: r.iid })),
    });
    const byRef = new Map(counts.map((c) => [`${c.project_id}:${c.iid}`, c.count]));
    for (const r of rows) out.set(r.id, byRef.get(`${r.projectId}:${r.iid}`) ?? 0);
  } catch (err) {
    ctx.broker.logger.warn({ err: (err as Error).message }, "merge request counts unavailable");
  }
  return out;
}

/**
 * The epic each issue shows (GitLab's authorized_epic_for): any epic of a group the caller reads
 * the issue under (its project's group or one above), a confidential one only to Planners and up
 * of the epic's group, asked once per such group.
 */
async function epicsShown(ctx: Ctx<unknown>, rows: IssueRow[], epics: Map<number, EpicRow>, projects: Map<number, WorkItemProject>): Promise<Map<number, IssueEpic>> {
  const confidentialGroups = [...new Set([...epics.values()].filter((e) => e.confidential).map((e) => e.groupId))];
  const roles = new Map(await Promise.all(confidentialGroups.map(async (id) => [id, await roleOnGroup(ctx, id)] as const)));
  const caller = callerOf(ctx);
  const now = new Date();
  const out = new Map<number, IssueEpic>();
  for (const r of rows) {
    const epic = epics.get(r.id);
    const project = projects.get(r.projectId);
    if (!epic || !project || !canReadEpic({ caller, role: roles.get(epic.groupId) ?? 0 }, epic)) continue;
    out.set(r.id, presentIssueEpic(epic, groupPathAbove(project, epic.groupId) ?? "", now));
  }
  return out;
}
