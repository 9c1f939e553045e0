import { call, errorBodyOf, implement, page, type Ctx } from "@collab/core";
import { authorizeProject } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { MergeRequests } from "@collab/merge-requests-contract";
import { closingIssueRefs, mergeRequests } from "./db/schema";
import { loadMergeRequest } from "./domain/load";
import { canReadMergeRequests } from "./domain/permissions";
import { presentMergeRequests } from "./merge-requests/presentation";

const slice = <T>(items: T[], p: { page: number; per_page: number }) => items.slice((p.page - 1) * p.per_page, p.page * p.per_page);

/** The links between merge requests and the issues their descriptions close, both ways. */
export const closingIssueRoutesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** GET /projects/:id/merge_requests/:merge_request_iid/closes_issues: the issues the caller may read. */
  "closingIssues.closesIssues": implement(
    MergeRequests.closingIssues.closesIssues,
    async (ctx) => {
      const { access, mergeRequest } = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const refs = await kit.db.select().from(closingIssueRefs).where(eq(closingIssueRefs.mergeRequestId, mergeRequest.id));
      const issues = await call(ctx, Issues.mergeRequestLinks.readableIssues, {
        refs: refs.map((r) => ({ project_id: r.issueProjectId, iid: r.issueIid })),
        context_project_id: access.project.id,
      });
      return page(slice(issues, ctx.params), issues.length, ctx.params);
    },
    { visibility: "published" },
  ),

  /** GET /projects/:id/issues/:issue_iid/closed_by: merge requests closing the issue that the caller may read. */
  "closingIssues.closedBy": implement(
    MergeRequests.closingIssues.closedBy,
    async (ctx) => {
      // The issue must be readable: the issues service answers its own 404s.
      const issue = await call(ctx, Issues.mergeRequestLinks.readableIssue, { id: ctx.params.id, issue_iid: ctx.params.issue_iid });
      const links = await kit.db
        .select({ id: closingIssueRefs.mergeRequestId })
        .from(closingIssueRefs)
        .where(and(eq(closingIssueRefs.issueProjectId, issue.project_id), eq(closingIssueRefs.issueIid, issue.iid)));
      const rows = links.length ? await kit.db.select().from(mergeRequests).where(inArray(mergeRequests.id, links.map((l) => l.id))).orderBy(desc(mergeRequests.createdAt), desc(mergeRequests.id)) : [];
      const readable = await readableProjectIds(ctx, [...new Set(rows.map((r) => r.projectId))]);
      const visible = rows.filter((r) => readable.has(r.projectId));
      const items = await presentMergeRequests(kit, ctx, slice(visible, ctx.params), { context: { projectId: issue.project_id } });
      return page(items, visible.length, ctx.params);
    },
    { visibility: "published" },
  ),
});

/** Projects (of a few) whose merge requests the caller may read. */
async function readableProjectIds(ctx: Ctx<unknown>, ids: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  await Promise.all(
    ids.map(async (id) => {
      try {
        const access = await authorizeProject(ctx, id);
        if (canReadMergeRequests(access.project, access.role)) out.add(id);
      } catch (err) {
        if (errorBodyOf(err)?.status !== 404) throw err;
      }
    }),
  );
  return out;
}
