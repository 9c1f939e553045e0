import { action } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, count, gt, inArray } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import { mergeRequests } from "./db/schema";

/** Bus only: group activity analytics (activity service) counts recent merge requests here, where they live. */
export const analyticsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** Merge requests created after `since` in these projects (the caller's readable ones). */
  "analytics.createdSince": action({
    idempotent: true,
    visibility: "public",
    input: () => z.object({ project_ids: z.array(z.number().int()).max(100_000), since: z.coerce.date() }),
    async handler(ctx) {
      if (!ctx.params.project_ids.length) return 0;
      const [{ n }] = await kit.db
        .select({ n: count() })
        .from(mergeRequests)
        .where(and(inArray(mergeRequests.projectId, ctx.params.project_ids), gt(mergeRequests.createdAt, ctx.params.since)));
      return n;
    },
  }),
});
