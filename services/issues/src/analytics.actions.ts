import { actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { and, count, eq, gt, inArray, or } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { issues } from "./db/schema";

/** Bus only: group activity analytics (activity service) counts recent issues here, where they live. */
export const analyticsActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("issues", [
    /**
     * Issues created after `since` in these projects that the caller sees: confidential ones only in
     * `reporter_project_ids` or when the caller wrote them.
     */
    implement(Issues.analytics.createdSince, async (ctx) => {
      const p = ctx.params;
      if (!p.project_ids.length) return 0;
      const [{ n }] = await kit.db
        .select({ n: count() })
        .from(issues)
        .where(
          and(
            inArray(issues.projectId, p.project_ids),
            gt(issues.createdAt, p.since),
            or(
              eq(issues.confidential, false),
              p.reporter_project_ids.length ? inArray(issues.projectId, p.reporter_project_ids) : undefined,
              p.user_id !== null ? eq(issues.authorId, p.user_id) : undefined,
            ),
          ),
        );
      return n;
    }),
  ]);
