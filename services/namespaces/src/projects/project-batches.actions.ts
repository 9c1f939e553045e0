import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { AccessLevel, callerOf, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import { namespaces, projects } from "../db/schema";
import { projectsVisibleTo } from "../members/access";
import { readableGroup } from "../members/authorize";
import { projectFullPath, projectWebUrl } from "./project.entity";

/** Bus-only actions about projects, batch-shaped so callers make one call per page. */
export const projectBatchActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /** Summaries of these projects, readable or not: callers have already authorized the rows. */
    implement(Namespaces.projects.summaries, async (ctx) => {
      const ids = [...new Set(ctx.params.ids)];
      if (ids.length === 0) return [];
      const rows = await kit.db
        .select({ project: projects, namespace: namespaces })
        .from(projects)
        .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
        .where(inArray(projects.id, ids));
      return rows.map(({ project, namespace }) => ({
        id: project.id,
        name: project.name,
        path: project.path,
        path_with_namespace: projectFullPath(project, namespace),
        namespace_id: namespace.id,
        namespace_name: namespace.name,
        namespace_kind: namespace.kind,
        group_ids: namespace.kind === "group" ? namespace.traversalIds : [],
        visibility: project.visibility,
        web_url: projectWebUrl(project, namespace, kit.baseUrl),
        default_branch: project.defaultBranch,
        only_allow_merge_if_all_discussions_are_resolved: project.onlyAllowMergeIfAllDiscussionsAreResolved,
      }));
    }),

    /**
     * Projects the caller may read (optionally inside one group and its subgroups) with the caller's
     * access level on each (and whether it is archived, for non_archived filters). `all: true` means
     * no restriction (administrators, no group scope).
     */
    implement(Namespaces.projects.readable, async (ctx) => {
      const caller = callerOf(ctx);
      const where = [] as ReturnType<typeof sql>[];
      if (ctx.params.group !== undefined) {
        const { group } = await readableGroup(kit.db, ctx, ctx.params.group);
        where.push(sql`${namespaces.traversalIds} @> ARRAY[${group.id}]::int[]`);
      } else if (caller?.admin && !ctx.params.membership_only) {
        return { all: true, projects: [] };
      }
      const visible = projectsVisibleTo(caller);
      if (visible && !(caller?.admin)) where.push(visible);
      const level = caller
        ? sql<number>`GREATEST(
            CASE WHEN ${namespaces.ownerId} = ${caller.id} THEN ${AccessLevel.OWNER} ELSE 0 END,
            COALESCE((SELECT max(m.access_level) FROM namespaces.members m WHERE m.user_id = ${caller.id}
              AND (m.expires_at IS NULL OR m.expires_at > current_date)
              AND ((m.source_type = 'Project' AND m.source_id = ${projects.id}) OR (m.source_type = 'Namespace' AND m.source_id = ANY(${namespaces.traversalIds})))), 0))::int`
        : sql<number>`0`;
      const rows = await kit.db
        .select({ id: projects.id, level, issuesAccessLevel: projects.issuesAccessLevel, mergeRequestsAccessLevel: projects.mergeRequestsAccessLevel, snippetsAccessLevel: projects.snippetsAccessLevel, visibility: projects.visibility, archived: projects.archived })
        .from(projects)
        .innerJoin(namespaces, eq(namespaces.id, projects.namespaceId))
        .where(where.length ? and(...where) : undefined);
      const filtered = ctx.params.membership_only ? rows.filter((r) => r.level >= AccessLevel.GUEST) : rows;
      return {
        all: false,
        projects: filtered.map((r) => ({
          id: r.id,
          access_level: caller?.admin ? AccessLevel.ADMIN : r.level,
          issues_access_level: r.issuesAccessLevel,
          merge_requests_access_level: r.mergeRequestsAccessLevel,
          snippets_access_level: r.snippetsAccessLevel,
          visibility: r.visibility,
          archived: r.archived,
        })),
      };
    }),
  ]);
