import { callerOf, notFound, page, requireCaller, type Ctx, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { descendantNamespaceIds } from "../groups/groups.finder";
import { labelDeleted, labelUpdated } from "../shared/events";
import { visibleProjectIdsIn, visibleSelfAndDescendantGroupIds } from "../shared/hierarchy.finder";
import { parentOf, projectGroupIds, requireManage, type Parent } from "../shared/labels-milestones-parent";
import { NO_COUNTS, presentLabel } from "./label.entity";
import { findLabelByRef, findLabels, type LabelScope } from "./labels.finder";
import { labelRefOf, Namespaces } from "@collab/namespaces-contract";
import { availableLabelScope, createLabel, deleteLabel, ownLabelScope, updateLabel, type LabelContainer } from "./labels";

const labelContainer = (p: Parent): LabelContainer =>
  p.kind === "project"
    ? { kind: "project", id: p.id, ancestorGroupIds: projectGroupIds(p.namespace), parentGroup: p.namespace.kind === "group" ? { id: p.namespace.id, name: p.namespace.name } : null }
    : { kind: "group", id: p.id, ancestorGroupIds: p.namespace.traversalIds };

/** Which labels a list or single-label lookup sees, from the GitLab switches. */
async function labelScopeFor(kit: ServiceKit, ctx: Ctx<unknown>, p: Parent, o: { include_ancestor_groups: boolean; include_descendant_groups: boolean; only_group_labels: boolean }): Promise<LabelScope> {
  const container = labelContainer(p);
  if (p.kind === "project") return o.include_ancestor_groups ? availableLabelScope(container) : ownLabelScope(container);
  const caller = callerOf(ctx);
  const groupIds = new Set(o.include_descendant_groups ? await visibleSelfAndDescendantGroupIds(kit.db, caller, p.id) : [p.id]);
  if (o.include_ancestor_groups) for (const id of p.namespace.traversalIds) groupIds.add(id);
  const projectIds = o.only_group_labels ? [] : await visibleProjectIdsIn(kit.db, caller, o.include_descendant_groups ? await descendantNamespaceIds(kit.db, p.id) : [p.id]);
  return { projectIds, groupIds: [...groupIds] };
}

const labelView = (p: Parent) => (p.kind === "project" ? "project" : "group");

/** Labels of a project or a group, as the labels API answers them. */
export const labelsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "labels.list": implement(
    Namespaces.labels.list,
    async (ctx) => {
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      const scope = await labelScopeFor(kit, ctx, p, ctx.params);
      const { rows, total } = await findLabels(kit.db, scope, { search: ctx.params.search }, ctx.params);
      return page(
        rows.map((l) => presentLabel(l, labelView(p), ctx.params.with_counts ? NO_COUNTS : undefined)),
        total,
        ctx.params,
      );
    },
    { visibility: "published" },
  ),

  "labels.get": implement(
    Namespaces.labels.get,
    async (ctx) => {
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      const label = await findLabelByRef(kit.db, await labelScopeFor(kit, ctx, p, ctx.params), ctx.params.label_id);
      if (!label) throw notFound("Label");
      return presentLabel(label, labelView(p));
    },
    { visibility: "published" },
  ),

  "labels.create": implement(
    Namespaces.labels.create,
    async (ctx) => {
      requireCaller(ctx);
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      requireManage(p);
      const label = await createLabel(kit.db, labelContainer(p), ctx.params);
      return presentLabel(label, labelView(p));
    },
    { visibility: "published" },
  ),

  "labels.update": implement(
    Namespaces.labels.update,
    async (ctx) => {
      requireCaller(ctx);
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      requireManage(p);
      const container = labelContainer(p);
      const label = await findLabelByRef(kit.db, ownLabelScope(container), labelRefOf(ctx.params));
      if (!label) throw notFound("Label");
      const updated = await kit.events.transact((tx) => updateLabel(tx, container, label, ctx.params), (row) => (row === label ? [] : [labelUpdated(row)]));
      return presentLabel(updated, labelView(p));
    },
    { visibility: "published" },
  ),

  "labels.delete": implement(
    Namespaces.labels.delete,
    async (ctx) => {
      requireCaller(ctx);
      const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
      // GitLab looks the label up before authorizing the deletion.
      const label = await findLabelByRef(kit.db, ownLabelScope(labelContainer(p)), labelRefOf(ctx.params));
      if (!label) throw notFound("Label");
      requireManage(p);
      await kit.events.transact(
        (tx) => deleteLabel(tx, label),
        () => [labelDeleted(label)],
      );
      return null;
    },
    { visibility: "published" },
  ),
});
