import { Namespaces, ListProjectsParams } from "@collab/namespaces-contract";
import { implement, assertCanCreateTopLevelGroup, callerOf, currentSettings, page, requireCaller, AccessLevel } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import type { NamespaceRow } from "../db/schema";
import { withTierFilters } from "../deletion/deletion";
import { requireRole } from "../members/access";
import { readableGroup } from "../members/authorize";
import { presentProjects } from "../projects/present-projects";
import { findProjects } from "../projects/projects.finder";
import { restrictedVisibilityErrors } from "../shared/visibility-settings";
import { presentGroupWithProjects } from "./group-detail";
import { presentGroup, presentGroupDetail } from "./group.entity";
import { descendantNamespaceIds, findGroups } from "./groups.finder";
import { assertCanCreateIn, createGroup, updateGroup } from "./groups";

/** The groups API: lists, one group, creation and settings, and a group's projects. */
export const groupsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "groups.list": implement(
    Namespaces.groups.list,
    async (ctx) => {
      const { rows, total } = await findGroups(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params));
      return page(rows.map((g) => presentGroup(g, kit.baseUrl)), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "groups.subgroups": implement(
    Namespaces.groups.subgroups,
    async (ctx) => {
      const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
      const { rows, total } = await findGroups(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params), { parentId: group.id });
      return page(rows.map((g) => presentGroup(g, kit.baseUrl)), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "groups.descendants": implement(
    Namespaces.groups.descendants,
    async (ctx) => {
      const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
      const { rows, total } = await findGroups(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params), { descendantsOf: group.id });
      return page(rows.map((g) => presentGroup(g, kit.baseUrl)), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "groups.get": implement(
    Namespaces.groups.get,
    async (ctx) => {
      const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
      if (ctx.params.with_projects === false) return presentGroup(group, kit.baseUrl);
      const { rows } = await findProjects(kit.db, callerOf(ctx), ListProjectsParams.parse({ per_page: 100 }), { namespaceIds: [group.id] });
      return presentGroupDetail(group, await presentProjects(kit, ctx, rows), kit.baseUrl);
    },
    { visibility: "published" },
  ),

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

  "groups.update": implement(
    Namespaces.groups.update,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const { id, ...changes } = ctx.params;
      const g = await readableGroup(kit.db, ctx, id);
      requireRole(g.role, AccessLevel.OWNER);
      if (changes.visibility !== undefined && changes.visibility !== g.group.visibility) restrictedVisibilityErrors(caller, changes.visibility);
      const group = await updateGroup(kit.db, g.group, changes);
      return presentGroupWithProjects(kit, ctx, group);
    },
    { visibility: "published" },
  ),

  "groups.projects": implement(
    Namespaces.groups.projects,
    async (ctx) => {
      const { group } = await readableGroup(kit.db, ctx, ctx.params.id);
      const namespaceIds = ctx.params.include_subgroups ? await descendantNamespaceIds(kit.db, group.id) : [group.id];
      const { rows, total } = await findProjects(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params), { namespaceIds });
      return page(await presentProjects(kit, ctx, rows, ctx.params.simple), total, ctx.params);
    },
    { visibility: "published" },
  ),
});
