import { AccessLevel, callerOf, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { presentGroup } from "../groups/group.entity";
import { members, namespaces } from "../db/schema";
import { activeMember, groupsVisibleTo } from "./access";

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Batched lookups for merge request approvals: a fixed number of queries whatever the number of
 * projects, users or groups asked about.
 */
export const batchLookupActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /**
     * Effective access levels (project, ancestor groups, personal namespace ownership) of users on
     * several projects: `{ [project_id]: { [user_id]: level } }`, 0 for non-members.
     */
    implement(Namespaces.access.levelsOnProjects, async (ctx) => {
      const projectIds = [...new Set(ctx.params.pairs.map((p) => p.project_id))];
      const userIds = [...new Set(ctx.params.pairs.flatMap((p) => p.user_ids))];
      const out: Record<number, Record<number, number>> = {};
      for (const pair of ctx.params.pairs) {
        out[pair.project_id] ??= {};
        for (const u of pair.user_ids) out[pair.project_id][u] = 0;
      }
      if (!projectIds.length || !userIds.length) return out;
      const levels = rowsOf<{ project_id: number; user_id: number; level: number }>(
        await kit.db.execute(sql`
          SELECT p.id AS project_id, m.user_id, max(m.access_level)::int AS level
          FROM namespaces.projects p
          JOIN namespaces.namespaces n ON n.id = p.namespace_id
          JOIN namespaces.members m ON m.user_id = ANY(${sql.param(userIds)}::int[]) AND (m.expires_at IS NULL OR m.expires_at > current_date)
            AND ((m.source_type = 'Project' AND m.source_id = p.id) OR (m.source_type = 'Namespace' AND m.source_id = ANY(n.traversal_ids)))
          WHERE p.id = ANY(${sql.param(projectIds)}::int[])
          GROUP BY p.id, m.user_id
          UNION ALL
          SELECT p.id, n.owner_id, ${AccessLevel.OWNER}
          FROM namespaces.projects p JOIN namespaces.namespaces n ON n.id = p.namespace_id
          WHERE p.id = ANY(${sql.param(projectIds)}::int[]) AND n.kind = 'user' AND n.owner_id = ANY(${sql.param(userIds)}::int[])`),
      );
      for (const r of levels) {
        const forProject = out[r.project_id];
        if (forProject && r.user_id in forProject) forProject[r.user_id] = Math.max(forProject[r.user_id], r.level);
      }
      return out;
    }),

    /** Direct members (Guest and up, not expired) of each group: `{ [group_id]: user_id[] }`. */
    implement(Namespaces.members.groupUserIds, async (ctx) => {
      const ids = [...new Set(ctx.params.group_ids)];
      const out: Record<number, number[]> = Object.fromEntries(ids.map((id) => [id, [] as number[]]));
      if (!ids.length) return out;
      const rows = await kit.db
        .select({ groupId: members.sourceId, userId: members.userId })
        .from(members)
        .where(and(eq(members.sourceType, "Namespace"), inArray(members.sourceId, ids), activeMember, sql`${members.accessLevel} >= ${AccessLevel.GUEST}`))
        .orderBy(members.userId);
      for (const r of rows) out[r.groupId].push(r.userId);
      return out;
    }),

    /** Groups among these ids that the caller may see, presented (approval rule groups). */
    implement(Namespaces.groups.visibleByIds, async (ctx) => {
      const ids = [...new Set(ctx.params.ids)];
      if (!ids.length) return [];
      const rows = await kit.db
        .select()
        .from(namespaces)
        .where(and(eq(namespaces.kind, "group"), inArray(namespaces.id, ids), groupsVisibleTo(callerOf(ctx))))
        .orderBy(namespaces.id);
      return rows.map((g) => ({ ...presentGroup(g, kit.baseUrl), ldap_cn: null, ldap_access: null }));
    }),
  ]);
