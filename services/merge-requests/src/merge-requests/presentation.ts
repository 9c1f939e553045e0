import { type Ctx } from "@collab/core";
import type { MergeRequestBasicEntity, MergeRequestEntity, MergeRequestSimpleEntity } from "@collab/merge-requests-contract";
import { labelAndMilestoneMaps, projectMap, userMap, type WorkItemProject } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { and, count, eq, sql } from "drizzle-orm";
import { approvalsLeftFor } from "../approvals/gate";
import { notes } from "../db/schema";
import type { MergeRequestRow } from "../db/schema";
import type { MergeRequestGitState } from "@collab/repositories-contract";
import { presentMergeRequest, presentSimple, type MergeRequestDetail, type MergeRequestPresentation } from "./entity";
import { mergeRequestLinks } from "./finder";

export interface PresentOptions {
  context: MergeRequestPresentation["context"];
  withLabelsDetails?: boolean;
  simple?: boolean;
  /** Summaries already known (the project of a project-scoped request). */
  knownProjects?: WorkItemProject[];
  /** The git state read now for these merge requests (single answers); the rows' stored state otherwise. */
  live?: Map<number, MergeRequestGitState>;
  /** Single merge request answers (GET/POST/PUT one): the detail fields. */
  detail?: (p: MergeRequestPresentation) => Promise<MergeRequestDetail>;
}

/** Unresolved resolvable notes per merge request: one query for a page. */
export async function unresolvedCounts(kit: ServiceKit, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await kit.db
    .select({ id: notes.noteableId, n: count() })
    .from(notes)
    .where(and(eq(notes.noteableType, "MergeRequest"), sql`${notes.noteableId} = ANY(${sql.param(ids)}::int[])`, eq(notes.resolvable, true), sql`${notes.resolvedAt} IS NULL`))
    .groupBy(notes.noteableId);
  return new Map(rows.map((r) => [r.id!, r.n]));
}

/**
 * Presents a page of merge requests with a fixed number of queries and bus calls whatever its
 * size: one local query (labels, assignees, reviewers, unresolved notes) and at most three
 * batched calls (users, labels with milestones, projects) plus the approvals gate. The git state
 * (sha, diff refs, merge status) is the rows' own: no repository is asked per page.
 */
export async function presentMergeRequests(kit: ServiceKit, ctx: Ctx<unknown>, rows: MergeRequestRow[], o: PresentOptions & { detail: NonNullable<PresentOptions["detail"]>; simple?: false }): Promise<MergeRequestEntity[]>;
export async function presentMergeRequests(kit: ServiceKit, ctx: Ctx<unknown>, rows: MergeRequestRow[], o: PresentOptions & { detail?: undefined; simple?: false }): Promise<MergeRequestBasicEntity[]>;
export async function presentMergeRequests(kit: ServiceKit, ctx: Ctx<unknown>, rows: MergeRequestRow[], o: PresentOptions): Promise<(MergeRequestBasicEntity | MergeRequestSimpleEntity)[]>;
export async function presentMergeRequests(kit: ServiceKit, ctx: Ctx<unknown>, rows: MergeRequestRow[], o: PresentOptions): Promise<(MergeRequestBasicEntity | MergeRequestEntity | MergeRequestSimpleEntity)[]> {
  const known = new Map((o.knownProjects ?? []).map((p) => [p.id, p]));
  if (o.simple) {
    const asked = await projectMap(ctx, rows.map((r) => r.projectId).filter((id) => !known.has(id)));
    const p = { baseUrl: kit.baseUrl, projects: new Map<number, WorkItemProject>([...asked, ...known]) } as MergeRequestPresentation;
    return rows.map((r) => presentSimple(r, p));
  }
  const ids = rows.map((r) => r.id);
  const { unresolved, ...links } = await mergeRequestLinks(kit.db, ids);
  const [users, { labels, milestones }, asked, approvalsLeft] = await Promise.all([
    userMap(ctx, rows.flatMap((r) => [r.authorId, r.closedById, r.mergeUserId, ...(links.assigneeIds.get(r.id) ?? []), ...(links.reviewerIds.get(r.id) ?? [])])),
    labelAndMilestoneMaps(ctx, [...links.labelIds.values()].flat(), rows.map((r) => r.milestoneId)),
    projectMap(ctx, rows.map((r) => r.projectId).filter((id) => !known.has(id))),
    approvalsLeftFor(kit, ctx, rows),
  ]);
  const projects = new Map<number, WorkItemProject>([...asked, ...known]);
  const presentation: MergeRequestPresentation = {
    baseUrl: kit.baseUrl,
    now: new Date(),
    projects,
    users,
    labels,
    milestones,
    ...links,
    live: o.live ?? new Map(),
    unresolved,
    approvalsLeft,
    context: o.context,
    withLabelsDetails: o.withLabelsDetails ?? false,
    tier: kit.config.LICENSE_TIER,
  };
  const detail = o.detail ? await o.detail(presentation) : undefined;
  return rows.map((r) => presentMergeRequest(r, presentation, detail));
}
