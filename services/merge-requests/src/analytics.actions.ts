import { actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { MergeRequests } from "@collab/merge-requests-contract";
import { and, count, gt, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { mergeRequests } from "./db/schema";

/** Bus only: group activity analytics (activity service) counts recent merge requests here, where they live. */
export const analyticsActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("merge-requests", [
    /** Merge requests created after `since` in these projects (the caller's readable ones). */
    implement(MergeRequests.analytics.createdSince, async (ctx) => {
      if (!ctx.params.project_ids.length) return 0;
      const [{ n }] = await kit.db
        .select({ n: count() })
        .from(mergeRequests)
        .where(and(inArray(mergeRequests.projectId, ctx.params.project_ids), gt(mergeRequests.createdAt, ctx.params.since)));
      return n;
    }),
  ]);
