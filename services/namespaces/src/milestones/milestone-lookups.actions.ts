import { notFound, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { milestones } from "../db/schema";
import { projectGroupIds } from "../shared/labels-milestones-parent";
import { findProject } from "../shared/lookup";
import { presentMilestones } from "./milestone.entity";
import { findMilestoneByTitle, findMilestoneInScope, milestonesByIds } from "./milestones.finder";

/** Bus actions that look milestones up for other services (issues), batch-shaped: one call per page. */
export const milestoneLookupActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /** Milestone entities (as issues embed them) for these ids; unknown ids are skipped. */
    implement(Namespaces.milestones.byIds, async (ctx) => {
      return presentMilestones(await milestonesByIds(kit.db, [...new Set(ctx.params.ids)]), kit.baseUrl);
    }),

    /**
     * The milestone with this id (or else this exact title) if it belongs to the project or one of
     * its ancestor groups — what an issue or merge request may be assigned — or null.
     */
    implement(Namespaces.milestones.findForProject, async (ctx) => {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) throw notFound("Project");
      const scope = { projectIds: [found.project.id], groupIds: projectGroupIds(found.namespace) };
      const row =
        ctx.params.id !== undefined ? await findMilestoneInScope(kit.db, scope, ctx.params.id) : await findMilestoneByTitle(kit.db, scope, ctx.params.title!);
      return row ? presentMilestones([row], kit.baseUrl)[0] : null;
    }),

    /** Milestone ids matching a filter value: titles, or the Upcoming / Started / Any sentinels. */
    implement(Namespaces.milestones.idsMatching, async (ctx) => {
      const { titles, sentinel } = ctx.params;
      let where;
      if (titles) where = inArray(milestones.title, titles);
      else if (sentinel === "Started") where = and(eq(milestones.state, "active"), isNotNull(milestones.startDate), sql`${milestones.startDate} <= current_date`);
      else if (sentinel === "Upcoming")
        // GitLab: the active milestone(s) with the nearest due date in the future, per container.
        where = sql`${milestones.id} IN (SELECT DISTINCT ON (coalesce(project_id, 0), coalesce(group_id, 0)) id FROM namespaces.milestones
          WHERE state = 'active' AND due_date > current_date ORDER BY coalesce(project_id, 0), coalesce(group_id, 0), due_date)`;
      else where = undefined;
      const rows = await kit.db.select({ id: milestones.id }).from(milestones).where(where);
      return rows.map((r) => r.id);
    }),
  ]);
