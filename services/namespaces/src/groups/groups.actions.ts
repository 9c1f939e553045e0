import { Namespaces } from "@collab/namespaces-contract";
import { action, implement, assertCanCreateTopLevelGroup, callerOf, currentSettings, page, requireCaller, AccessLevel } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import type { NamespaceRow } from "../db/schema";
import { withTierFilters } from "../deletion/deletion";
import { requireRole } from "../members/access";
import { readableGroup } from "../members/authorize";
import { presentProjects } from "../projects/present-projects";
import { findProjects } from "../projects/projects.finder";
import { ListGroupProjectsParams, ListProjectsParams } from "../projects/projects.params";
import { restrictedVisibilityErrors } from "../shared/visibility-settings";
import { presentGroupWithProjects } from "./group-detail";
import { presentGroup, presentGroupDetail } from "./group.entity";
import { descendantNamespaceIds, findGroups } from "./groups.finder";
import { CreateGroupParams, GroupRefParams, ListGroupsParams, ListSubgroupsParams, UpdateGroupParams } from "./groups.params";
import { assertCanCreateIn, createGroup, updateGroup } from "./groups";

/** The groups API: lists, one group, creation and settings, and a group's projects. */
export const groupsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "groups.list": action({
    idempotent: true,
    input: () => ListGroupsParams,
    async handler(ctx) {
      const { rows, total } = await findGroups(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params));
      return page(rows.map((g) => presentGroup(g, kit.baseUrl)), total, ctx.params);
    },
  }),

  "groups.subgroups": action({
    idempotent: true,
    input: () => ListSubgroupsParams,
    async handler(ctx) {
      const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
      const { rows, total } = await findGroups(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params), { parentId: group.id });
      return page(rows.map((g) => presentGroup(g, kit.baseUrl)), total, ctx.params);
    },
  }),

  "groups.descendants": action({
    idempotent: true,
    input: () => ListSubgroupsParams,
    async handler(ctx) {
      const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
      const { rows, total } = await findGroups(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params), { descendantsOf: group.id });
      return page(rows.map((g) => presentGroup(g, kit.baseUrl)), total, ctx.params);
    },
  }),

  "groups.get": action({
    idempotent: true,
    input: () => GroupRefParams.extend({ with_projects: z.stringbool().optional() }),
    async handler(ctx) {
      const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
      if (ctx.params.with_projects === false) return presentGroup(group, kit.baseUrl);
      const { rows } = await findProjects(kit.db, callerOf(ctx), ListProjectsParams.parse({ per_page: 100 }), { namespaceIds: [group.id] });
      return presentGroupDetail(group, await presentProjects(kit, ctx, rows), kit.baseUrl);
    },
  }),

  // Also asked over the bus (a group import creates its group), hence a contract entry.
  "groups.create": implement(
    Namespaces.groups.create,
    async (ctx) => {
      const caller = requireCaller(ctx);
      let parent: NamespaceRow | null = null;
      if (ctx.params.parent_id !== undefined) {
        const p = await readableGroup(kit.db, ctx, ctx.params.parent_id);
        assertCanCreateIn(p.group, p.role, "subgroup");
        parent = p.group;
      } else {
        await assertCanCreateTopLevelGroup(ctx);
      }
      const visibility = ctx.params.visibility ?? (parent ? undefined : currentSettings().default_group_visibility);
      restrictedVisibilityErrors(caller, visibility ?? "private");
      const group = await createGroup(kit.db, caller, { ...ctx.params, visibility }, parent);
      return presentGroupDetail(group, [], kit.baseUrl);
    },
    { visibility: "published" },
  ),

  "groups.update": action({
    input: () => UpdateGroupParams,
    async handler(ctx) {
      const caller = requireCaller(ctx);
      const { id, ...changes } = ctx.params;
      const g = await readableGroup(kit.db, ctx, id);
      requireRole(g.role, AccessLevel.OWNER);
      if (changes.visibility !== undefined && changes.visibility !== g.group.visibility) restrictedVisibilityErrors(caller, changes.visibility);
      const group = await updateGroup(kit.db, g.group, changes);
      return presentGroupWithProjects(kit, ctx, group);
    },
  }),

  "groups.projects": action({
    idempotent: true,
    input: () => ListGroupProjectsParams,
    async handler(ctx) {
      const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
      const namespaceIds = ctx.params.include_subgroups ? await descendantNamespaceIds(kit.db, group.id) : [group.id];
      const { rows, total } = await findProjects(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params), { namespaceIds });
      return page(await presentProjects(kit, ctx, rows, ctx.params.simple), total, ctx.params);
    },
  }),
});
