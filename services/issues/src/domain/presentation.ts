import type { Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { presentIssue, type IssuePresentation, type ProjectSummary } from "../api/issue.entity";
import type { IssueRow } from "../db/schema";
import { issueLinks } from "../finders/issues.finder";
import { labelMap, milestoneMap, projectMap, userMap } from "./remote";

export interface PresentOptions {
  context: IssuePresentation["context"];
  withLabelsDetails?: boolean;
  /** Summaries already known (the project of a project-scoped request). */
  knownProjects?: ProjectSummary[];
  subscribed?: boolean;
}

/**
 * Presents a page of issues with a fixed number of queries and bus calls whatever its size:
 * two local queries (labels, assignees) and at most four batched calls (users, labels, milestones, projects).
 */
export async function presentIssues(kit: ServiceKit, ctx: Ctx<unknown>, rows: IssueRow[], o: PresentOptions) {
  const { labelIds, assigneeIds } = await issueLinks(kit.db, rows.map((r) => r.id));
  const known = new Map((o.knownProjects ?? []).map((p) => [p.id, p]));
  const missingProjects = rows.map((r) => r.projectId).filter((id) => !known.has(id));
  const [users, labels, milestones, projects] = await Promise.all([
    userMap(ctx, rows.flatMap((r) => [r.authorId, r.closedById, ...(assigneeIds.get(r.id) ?? [])])),
    labelMap(ctx, [...labelIds.values()].flat()),
    milestoneMap(ctx, rows.map((r) => r.milestoneId)),
    projectMap(ctx, missingProjects),
  ]);
  for (const p of known.values()) projects.set(p.id, p);
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
  };
  return rows.map((r) => presentIssue(r, presentation));
}
