import { callerOf, page, recordNotFound, requireCaller, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { descendantNamespaceIds } from "../groups/groups.finder";
import { Namespaces } from "@collab/namespaces-contract";
import { milestoneDeleted, milestoneEvent } from "../shared/events";
import type { MilestoneRow } from "../db/schema";
import { visibleProjectIdsIn, visibleSelfAndDescendantGroupIds } from "../shared/hierarchy.finder";
import { parentOf, projectGroupIds, requireManage, type Parent } from "../shared/labels-milestones-parent";
import { presentMilestones } from "./milestone.entity";
import { findMilestoneInScope, findMilestones, type MilestoneScope } from "./milestones.finder";
import { createMilestone, deleteMilestone, updateMilestone, type MilestoneContainer } from "./milestones";

/** Whether an update changed how the milestone is shown beyond its state (title, description, dates). */
const shownChanged = (before: MilestoneRow, after: MilestoneRow) =>
  before.title !== after.title || before.description !== after.description || before.dueDate !== after.dueDate || before.startDate !== after.startDate;

const milestoneContainer = (p: Parent): MilestoneContainer =>
  p.kind === "project" ? { kind: "project", id: p.id, parentGroupId: p.namespace.kind === "group" ? p.namespace.id : null } : { kind: "group", id: p.id };

/** A project's or group's own milestones (single-milestone routes never reach an ancestor's). */
const ownMilestoneScope = (p: Parent): MilestoneScope => (p.kind === "project" ? { projectIds: [p.id], groupIds: [] } : { projectIds: [], groupIds: [p.id] });

/** Milestones of a project or a group, as the milestones API answers them. */
export const milestonesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "milestones.list": implement(
    Namespaces.milestones.list,
    async (ctx) => {
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      const ancestors = ctx.params.include_ancestors ?? ctx.params.include_parent_milestones ?? false;
      let scope: MilestoneScope;
      if (p.kind === "project") scope = { projectIds: [p.id], groupIds: ancestors ? projectGroupIds(p.namespace) : [] };
      else {
        const descendants = ctx.params.include_descendants ?? false;
        const caller = callerOf(ctx);
        const groupIds = new Set(descendants ? await visibleSelfAndDescendantGroupIds(kit.db, caller, p.id) : [p.id]);
        if (ancestors) for (const id of p.namespace.traversalIds) groupIds.add(id);
        const projectIds = descendants ? await visibleProjectIdsIn(kit.db, caller, await descendantNamespaceIds(kit.db, p.id)) : [];
        scope = { projectIds, groupIds: [...groupIds] };
      }
      const { rows, total } = await findMilestones(
        kit.db,
        scope,
        {
          state: ctx.params.state,
          iids: ctx.params.iids,
          title: ctx.params.title,
          search: ctx.params.search,
          updatedBefore: ctx.params.updated_before,
          updatedAfter: ctx.params.updated_after,
        },
        ctx.params,
      );
      return page(presentMilestones(rows, kit.baseUrl), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "milestones.get": implement(
    Namespaces.milestones.get,
    async (ctx) => {
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      const found = await findMilestoneInScope(kit.db, ownMilestoneScope(p), ctx.params.milestone_id);
      if (!found) throw recordNotFound();
      return presentMilestones([found], kit.baseUrl)[0];
    },
    { visibility: "published" },
  ),

  "milestones.create": implement(
    Namespaces.milestones.create,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      requireManage(p);
      const milestone = await kit.events.transact(
        (tx) => createMilestone(tx, milestoneContainer(p), ctx.params),
        (m) => [milestoneEvent(Namespaces.events.milestoneCreated, m, caller.id)],
      );
      return presentMilestones([{ milestone, ...p.paths }], kit.baseUrl)[0];
    },
    { visibility: "published" },
  ),

  "milestones.update": implement(
    Namespaces.milestones.update,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      requireManage(p);
      const found = await findMilestoneInScope(kit.db, ownMilestoneScope(p), ctx.params.milestone_id);
      if (!found) throw recordNotFound();
      const before = found.milestone.state;
      const milestone = await kit.events.transact(
        (tx) => updateMilestone(tx, milestoneContainer(p), found.milestone, ctx.params),
        (m) => [
          ...(m.state === before ? [] : [milestoneEvent(m.state === "closed" ? Namespaces.events.milestoneClosed : Namespaces.events.milestoneReopened, m, caller.id)]),
          ...(shownChanged(found.milestone, m) ? [milestoneEvent(Namespaces.events.milestoneUpdated, m, caller.id)] : []),
        ],
      );
      return presentMilestones([{ milestone, ...p.paths }], kit.baseUrl)[0];
    },
    { visibility: "published" },
  ),

  "milestones.delete": implement(
    Namespaces.milestones.delete,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      requireManage(p);
      const found = await findMilestoneInScope(kit.db, ownMilestoneScope(p), ctx.params.milestone_id);
      if (!found) throw recordNotFound();
      const m = found.milestone;
      await kit.events.transact(
        (tx) => deleteMilestone(tx, m),
        () => [milestoneDeleted(m, caller.id)],
      );
      return null;
    },
    { visibility: "published" },
  ),
});
