import { AccessLevel, callerOf, notFound, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { labels, namespaces, projects } from "../db/schema";
import { groupAccessLevel, projectAccess, roleOf } from "../members/access";
import { projectGroupIds } from "../shared/labels-milestones-parent";
import { findGroup, findProject } from "../shared/lookup";
import { presentLabelBasic, presentLabelHookAttrs, presentLabelLookup } from "./label.entity";
import { labelsByIds } from "./labels.finder";
import { resolveContainerLabels } from "./labels";

/** Bus actions that look labels up for other services (issues), batch-shaped: one call per page. */
export const labelLookupActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /**
     * Labels by exact name as the project sees them (its own, then its groups' from the nearest
     * up), one per name, as LabelBasic objects sorted by title. With `create_missing`, unknown
     * names become project labels, as GitLab does on issue edits, when the caller may manage
     * labels there (or the call carries no caller: a system action). The caller service has
     * already authorized reading the project.
     */
    implement(Namespaces.labels.resolveForProject, async (ctx) => {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) throw notFound("Project");
      const { project, namespace } = found;
      const container = {
        kind: "project" as const,
        id: project.id,
        ancestorGroupIds: projectGroupIds(namespace),
        parentGroup: namespace.kind === "group" ? { id: namespace.id, name: namespace.name } : null,
      };
      let create = ctx.params.create_missing && !project.archived;
      const caller = callerOf(ctx);
      if (create && caller && !caller.admin) create = roleOf(caller, (await projectAccess(kit.db, project, namespace, caller.id)).level) >= AccessLevel.PLANNER;
      const rows = await resolveContainerLabels(kit.db, container, ctx.params.names, create);
      return rows.map(presentLabelBasic);
    }),

    /** Labels by exact name as the group sees them; unknown ones become group labels when asked and the caller is Planner+ there. */
    implement(Namespaces.labels.resolveForGroup, async (ctx) => {
      const group = await findGroup(kit.db, ctx.params.group_id);
      if (!group) throw notFound("Group");
      let create = ctx.params.create_missing;
      const caller = callerOf(ctx);
      if (create && caller && !caller.admin) create = roleOf(caller, await groupAccessLevel(kit.db, group, caller.id)) >= AccessLevel.PLANNER;
      const rows = await resolveContainerLabels(kit.db, { kind: "group", id: group.id, ancestorGroupIds: group.traversalIds }, ctx.params.names, create);
      return rows.map(presentLabelBasic);
    }),

    /**
     * LabelBasic objects for these ids (any container), sorted by title; unknown ids are skipped.
     * Each also carries the label's `priority` (project labels; null for group labels), which
     * issue lists sort by (order_by=label_priority / priority); callers embed only LabelBasic.
     */
    implement(Namespaces.labels.byIds, async (ctx) => {
      return (await labelsByIds(kit.db, [...new Set(ctx.params.ids)])).map(presentLabelLookup);
    }),

    /** Labels by id as webhooks show them (no caller: the service asking shows them to a hook it authorized). */
    implement(Namespaces.labels.hookAttrs, async (ctx) => (await labelsByIds(kit.db, [...new Set(ctx.params.ids)])).map(presentLabelHookAttrs)),

    /** Label ids per exact title, among the labels of the given projects and their ancestor groups. */
    implement(Namespaces.labels.idsByTitles, async (ctx) => {
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
    }),
  ]);
