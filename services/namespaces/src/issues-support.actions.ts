import type { ActionSchema } from "moleculer";
import { AccessLevel, action } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { z } from "zod";
import { labels, milestones, namespaces, projects } from "./db/schema";
import { projectAccess } from "./domain/access";
import { findProject } from "./domain/lookup";

/** Bus actions the issues and merge-request services use to filter and validate by name. */
export const issuesSupportActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** Label ids per exact title, among the labels of the given projects and their ancestor groups. */
  "labels.idsByTitles": action({
    idempotent: true,
    visibility: "public",
    input: () => z.object({ titles: z.array(z.string()).max(100), project_ids: z.array(z.number().int()).nullable().default(null) }),
    async handler(ctx) {
      const out: Record<string, number[]> = Object.fromEntries(ctx.params.titles.map((t) => [t, [] as number[]]));
      if (ctx.params.titles.length === 0) return out;
      const scope = ctx.params.project_ids;
      let where = inArray(labels.title, ctx.params.titles);
      if (scope) {
        const groupIds = scope.length
          ? (await kit.db.select({ ids: namespaces.traversalIds }).from(projects).innerJoin(namespaces, eq(namespaces.id, projects.namespaceId)).where(inArray(projects.id, scope)))
              .flatMap((r) => r.ids)
          : [];
        where = and(where, or(scope.length ? inArray(labels.projectId, scope) : sql`FALSE`, groupIds.length ? inArray(labels.groupId, groupIds) : sql`FALSE`))!;
      }
      for (const row of await kit.db.select({ id: labels.id, title: labels.title }).from(labels).where(where)) out[row.title].push(row.id);
      return out;
    },
  }),

  /** Milestone ids matching a filter value: titles, or the Upcoming / Started / Any sentinels. */
  "milestones.idsFor": action({
    idempotent: true,
    visibility: "public",
    input: () => z.object({ titles: z.array(z.string()).max(100).optional(), sentinel: z.enum(["Any", "Upcoming", "Started"]).optional() }),
    async handler(ctx) {
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
    },
  }),

  /** Access levels of several users on one project (assignee checks), in one query per user set. */
  "access.levels": action({
    idempotent: true,
    visibility: "public",
    input: () => z.object({ project_id: z.number().int(), user_ids: z.array(z.number().int()).max(1000) }),
    async handler(ctx) {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) return {};
      const out: Record<number, { access_level: number; can_read: boolean }> = {};
      const publicish = found.project.visibility !== "private";
      await Promise.all(
        [...new Set(ctx.params.user_ids)].map(async (userId) => {
          const { level } = await projectAccess(kit.db, found.project, found.namespace, userId);
          out[userId] = { access_level: level, can_read: publicish || level >= AccessLevel.GUEST };
        }),
      );
      return out;
    },
  }),
});
