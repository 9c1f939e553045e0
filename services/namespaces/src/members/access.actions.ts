import { actionsOf, callerOf, forbidden, implement, notFound } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { sql } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { presentGroup } from "../groups/group.entity";
import { findGroup, findProject } from "../shared/lookup";
import { groupAccessLevel, projectAccess, readAccessOfUsers } from "./access";
import { projectAccessAnswer } from "./access.entity";
import { readableGroup, readableProject } from "./authorize";

/**
 * What other services ask before acting: a project or group as the caller may see it, and access
 * levels of users on projects and groups (inherited down the hierarchy).
 */
export const accessActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /**
     * The project as the caller may read it, with their level and role (404 otherwise). A pure
     * read: an issue write that also checks its input asks workItems.authorizeIssueWrite.
     */
    implement(Namespaces.access.project, async (ctx) => {
      const p = await readableProject(kit.db, ctx, ctx.params.project);
      return projectAccessAnswer(kit, p);
    }),

    implement(Namespaces.access.group, async (ctx) => {
      const g = await readableGroup(kit.db, ctx, ctx.params.group);
      return { group: presentGroup(g.group, kit.baseUrl), traversal_ids: g.group.traversalIds, access_level: g.level, role: g.role };
    }),

    /** "What access does user U have on project/group X": inheritance group → subgroup → project. */
    implement(Namespaces.access.level, async (ctx) => {
      if (ctx.params.project_id !== undefined) {
        const found = await findProject(kit.db, ctx.params.project_id);
        if (!found) throw notFound("Project");
        return { access_level: (await projectAccess(kit.db, found.project, found.namespace, ctx.params.user_id)).level };
      }
      if (ctx.params.group_id !== undefined) {
        const group = await findGroup(kit.db, ctx.params.group_id);
        if (!group) throw notFound("Group");
        return { access_level: await groupAccessLevel(kit.db, group, ctx.params.user_id) };
      }
      throw forbidden();
    }),

    /** Access levels of several users on one project (assignee checks), in one query per user set. */
    implement(Namespaces.access.levelsOnProject, async (ctx) => {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) return {};
      return readAccessOfUsers(kit.db, found.project, found.namespace, ctx.params.user_ids);
    }),

    /**
     * Groups where the caller's effective level (inherited down the hierarchy) is at least
     * `min_access_level`: `[{id, access_level}]`, subgroups included.
     */
    implement(Namespaces.access.callerGroups, async (ctx) => {
      const caller = callerOf(ctx);
      if (!caller) return [];
      const result = await kit.db.execute<{ id: number; access_level: number }>(sql`
        SELECT n.id, max(m.access_level)::int AS access_level
        FROM namespaces.namespaces n
        JOIN namespaces.members m ON m.source_type = 'Namespace' AND m.source_id = ANY(n.traversal_ids)
        WHERE n.kind = 'group' AND m.user_id = ${caller.id} AND (m.expires_at IS NULL OR m.expires_at > current_date)
        GROUP BY n.id HAVING max(m.access_level) >= ${ctx.params.min_access_level}
        ORDER BY n.id`);
      return (result as unknown as { rows: { id: number; access_level: number }[] }).rows;
    }),
  ]);
