import { actionsOf, implement } from "@collab/core";
import { preparedQuery, type Db, type ServiceKit } from "@collab/db";
import { MergeRequests } from "@collab/merge-requests-contract";
import { sql } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { closingIssueRefs } from "./db/schema";

/** Closing merge requests per (project, iid): asked for every page of issues, so prepared. */
const closingCounts = preparedQuery((db: Db) =>
  db
    .select({ projectId: closingIssueRefs.issueProjectId, iid: closingIssueRefs.issueIid, count: sql<number>`count(*)::int` })
    .from(closingIssueRefs)
    .where(
      sql`${closingIssueRefs.closes} AND (${closingIssueRefs.issueProjectId}, ${closingIssueRefs.issueIid}) IN (SELECT * FROM unnest(${sql.placeholder("projectIds")}::int[], ${sql.placeholder("iids")}::int[]))`,
    )
    .groupBy(closingIssueRefs.issueProjectId, closingIssueRefs.issueIid)
    .prepare("merge_requests_closing_counts"),
);

/** What the issues service asks about the merge requests that close its issues. */
export const closingIssuesActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("merge-requests", [
    /**
     * How many merge requests reference each issue with the closing pattern (the issue's
     * merge_requests_count): `[{ project_id, iid, count }]` in one query for a page of issues.
     */
    implement(MergeRequests.closingIssues.counts, async (ctx) => {
      const refs = ctx.params.refs;
      if (!refs.length) return [];
      const projectIds = refs.map((r) => r.project_id);
      const iids = refs.map((r) => r.iid);
      const rows = await closingCounts(kit.db, { projectIds, iids });
      const found = new Map(rows.map((r) => [`${r.projectId}:${r.iid}`, r.count]));
      return refs.map((r) => ({ project_id: r.project_id, iid: r.iid, count: found.get(`${r.project_id}:${r.iid}`) ?? 0 }));
    }),
  ]);
