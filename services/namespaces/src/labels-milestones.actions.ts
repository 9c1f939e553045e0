import { AccessLevel, action, callerOf, forbidden, notFound, page, requireCaller, type Ctx, recordNotFound } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import { presentLabel, presentLabelBasic, NO_COUNTS } from "./api/label.entity";
import { CreateLabelParams, DeleteLabelParams, GetLabelParams, labelRefOf, ListLabelsParams, UpdateLabelParams, type LabelSource } from "./api/labels.params";
import { presentMilestone, todayUtc, type MilestoneContainerPaths } from "./api/milestone.entity";
import { CreateMilestoneParams, ListMilestonesParams, MilestoneRefParams, UpdateMilestoneParams, type MilestoneSource } from "./api/milestones.params";
import type { NamespaceRow } from "./db/schema";
import { projectAccess, requireRole, roleOf } from "./domain/access";
import { readableGroup, readableProject } from "./domain/authorize";
import { availableLabelScope, createLabel, deleteLabel, ownLabelScope, resolveProjectLabels, updateLabel, type LabelContainer } from "./domain/labels";
import { findProject } from "./domain/lookup";
import { createMilestone, deleteMilestone, updateMilestone, type MilestoneContainer } from "./domain/milestones";
import { descendantNamespaceIds } from "./finders/groups.finder";
import { visibleProjectIdsIn, visibleSelfAndDescendantGroupIds } from "./finders/hierarchy.finder";
import { findLabelByRef, findLabels, labelsByIds, type LabelScope } from "./finders/labels.finder";
import { findMilestoneByTitle, findMilestoneInScope, findMilestones, milestonesByIds, type MilestoneScope, type MilestoneWithPaths } from "./finders/milestones.finder";

/**
 * What other services learn when labels or milestones go (also in NAMESPACES_EVENTS), emitted
 * after the deleting transaction has committed, to one replica of each subscribing service:
 *   namespaces.label.deleted      { labelIds: number[], projectId: number | null, groupId: number | null }
 *   namespaces.milestone.deleted  { milestoneIds: number[], projectId: number | null, groupId: number | null, userId: number }
 * Ids are never reused, so a late or repeated event can only touch links to what is gone. The
 * issues service drops the label links and unsets the milestone of the issues that carried them
 * (a group's label or milestone may be on issues of any project below it: the ids cover them all).
 */
export const LABEL_MILESTONE_EVENTS = {
  labelDeleted: "namespaces.label.deleted",
  milestoneDeleted: "namespaces.milestone.deleted",
} as const;

export interface LabelDeletedEvent {
  labelIds: number[];
  projectId: number | null;
  groupId: number | null;
}

export interface MilestoneDeletedEvent {
  milestoneIds: number[];
  projectId: number | null;
  groupId: number | null;
  /** Who deleted it: the issues that lose the milestone are updated by them, as in GitLab. */
  userId: number;
}

/**
 * Emits after the commit. Awaited, so that in one process the subscribers have run when the
 * DELETE answers; a failure to publish is logged and does not fail the deletion, which stands.
 */
async function notify(kit: ServiceKit, ctx: Ctx<unknown>, event: string, payload: LabelDeletedEvent | MilestoneDeletedEvent) {
  try {
    await ctx.emit(event, payload);
  } catch (err) {
    kit.logger.warn({ err: (err as Error).message, event, payload }, "event after a label/milestone deletion failed");
  }
}

/** A project or group as a label/milestone parent, with the caller's role on it. */
interface Parent {
  kind: "project" | "group";
  id: number;
  /** The project's namespace, or the group itself. */
  namespace: NamespaceRow;
  role: number;
  archived: boolean;
  paths: MilestoneContainerPaths;
}

async function parentOf(kit: ServiceKit, ctx: Ctx<unknown>, source: LabelSource | MilestoneSource, ref: string): Promise<Parent> {
  if (source === "projects") {
    const p = await readableProject(kit.db, ctx, ref);
    return {
      kind: "project",
      id: p.project.id,
      namespace: p.namespace,
      role: p.role,
      archived: p.project.archived,
      paths: { projectPath: `${p.namespace.fullPath}/${p.project.path}`, groupPath: null },
    };
  }
  const g = await readableGroup(kit.db, ctx, ref);
  return { kind: "group", id: g.group.id, namespace: g.group, role: g.role, archived: false, paths: { projectPath: null, groupPath: g.group.fullPath } };
}

/** Groups above a project (its namespace chain) when it lives in a group. */
const projectGroupIds = (ns: NamespaceRow) => (ns.kind === "group" ? ns.traversalIds : []);

const labelContainer = (p: Parent): LabelContainer =>
  p.kind === "project"
    ? { kind: "project", id: p.id, ancestorGroupIds: projectGroupIds(p.namespace), parentGroup: p.namespace.kind === "group" ? { id: p.namespace.id, name: p.namespace.name } : null }
    : { kind: "group", id: p.id, ancestorGroupIds: p.namespace.traversalIds };

const milestoneContainer = (p: Parent): MilestoneContainer =>
  p.kind === "project" ? { kind: "project", id: p.id, parentGroupId: p.namespace.kind === "group" ? p.namespace.id : null } : { kind: "group", id: p.id };

/**
 * admin_label / admin_milestone: Planner (15), Reporter (20) and above. Archived projects are
 * read-only for everybody, administrators included, as GitLab's policies prevent it.
 */
function requireManage(p: Parent) {
  requireRole(p.role, AccessLevel.PLANNER);
  if (p.archived) throw forbidden();
}

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

export function labelsAndMilestonesActions(kit: ServiceKit): Record<string, ActionSchema> {
  const presentMilestones = (rows: MilestoneWithPaths[]) => {
    const today = todayUtc();
    return rows.map((r) => presentMilestone(r.milestone, r, kit.baseUrl, today));
  };

  return {
    // ---- labels -------------------------------------------------------------------------------
    "labels.list": action({
      idempotent: true,
      input: () => ListLabelsParams,
      async handler(ctx) {
        const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
        const scope = await labelScopeFor(kit, ctx, p, ctx.params);
        const { rows, total } = await findLabels(kit.db, scope, { search: ctx.params.search }, ctx.params);
        return page(
          rows.map((l) => presentLabel(l, labelView(p), ctx.params.with_counts ? NO_COUNTS : undefined)),
          total,
          ctx.params,
        );
      },
    }),

    "labels.get": action({
      idempotent: true,
      input: () => GetLabelParams,
      async handler(ctx) {
        const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
        const label = await findLabelByRef(kit.db, await labelScopeFor(kit, ctx, p, ctx.params), ctx.params.label_id);
        if (!label) throw notFound("Label");
        return presentLabel(label, labelView(p));
      },
    }),

    "labels.create": action({
      input: () => CreateLabelParams,
      async handler(ctx) {
        requireCaller(ctx);
        const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
        requireManage(p);
        const label = await createLabel(kit.db, labelContainer(p), ctx.params);
        return presentLabel(label, labelView(p));
      },
    }),

    "labels.update": action({
      input: () => UpdateLabelParams,
      async handler(ctx) {
        requireCaller(ctx);
        const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
        requireManage(p);
        const container = labelContainer(p);
        const label = await findLabelByRef(kit.db, ownLabelScope(container), labelRefOf(ctx.params));
        if (!label) throw notFound("Label");
        return presentLabel(await updateLabel(kit.db, container, label, ctx.params), labelView(p));
      },
    }),

    "labels.delete": action({
      input: () => DeleteLabelParams,
      async handler(ctx) {
        requireCaller(ctx);
        const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
        // GitLab looks the label up before authorizing the deletion.
        const label = await findLabelByRef(kit.db, ownLabelScope(labelContainer(p)), labelRefOf(ctx.params));
        if (!label) throw notFound("Label");
        requireManage(p);
        await deleteLabel(kit.db, label);
        await notify(kit, ctx, LABEL_MILESTONE_EVENTS.labelDeleted, { labelIds: [label.id], projectId: label.projectId, groupId: label.groupId });
        return null;
      },
    }),

    // ---- milestones ---------------------------------------------------------------------------
    "milestones.list": action({
      idempotent: true,
      input: () => ListMilestonesParams,
      async handler(ctx) {
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
        return page(presentMilestones(rows), total, ctx.params);
      },
    }),

    "milestones.get": action({
      idempotent: true,
      input: () => MilestoneRefParams,
      async handler(ctx) {
        const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
        const found = await findMilestoneInScope(kit.db, ownMilestoneScope(p), ctx.params.milestone_id);
        if (!found) throw recordNotFound();
        return presentMilestones([found])[0];
      },
    }),

    "milestones.create": action({
      input: () => CreateMilestoneParams,
      async handler(ctx) {
        requireCaller(ctx);
        const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
        requireManage(p);
        const milestone = await createMilestone(kit.db, milestoneContainer(p), ctx.params);
        return presentMilestones([{ milestone, ...p.paths }])[0];
      },
    }),

    "milestones.update": action({
      input: () => UpdateMilestoneParams,
      async handler(ctx) {
        requireCaller(ctx);
        const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
        requireManage(p);
        const found = await findMilestoneInScope(kit.db, ownMilestoneScope(p), ctx.params.milestone_id);
        if (!found) throw recordNotFound();
        const milestone = await updateMilestone(kit.db, milestoneContainer(p), found.milestone, ctx.params);
        return presentMilestones([{ milestone, ...p.paths }])[0];
      },
    }),

    "milestones.delete": action({
      input: () => MilestoneRefParams,
      async handler(ctx) {
        const caller = requireCaller(ctx);
        const p = await parentOf(kit, ctx, ctx.params.source, ctx.params.id);
        requireManage(p);
        const found = await findMilestoneInScope(kit.db, ownMilestoneScope(p), ctx.params.milestone_id);
        if (!found) throw recordNotFound();
        const m = found.milestone;
        await deleteMilestone(kit.db, m);
        await notify(kit, ctx, LABEL_MILESTONE_EVENTS.milestoneDeleted, { milestoneIds: [m.id], projectId: m.projectId, groupId: m.groupId, userId: caller.id });
        return null;
      },
    }),

    // ---- for other services (batch-shaped: one call per page) ----------------------------------
    /**
     * Labels by exact name as the project sees them (its own, then its groups' from the nearest
     * up), one per name, as LabelBasic objects sorted by title. With `create_missing`, unknown
     * names become project labels, as GitLab does on issue edits, when the caller may manage
     * labels there (or the call carries no caller: a system action). The caller service has
     * already authorized reading the project.
     */
    "labels.resolve": action({
      visibility: "public",
      input: () => z.object({ project_id: z.number().int(), names: z.array(z.string()).max(1000), create_missing: z.boolean().default(false) }),
      async handler(ctx) {
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
        const rows = await resolveProjectLabels(kit.db, container, ctx.params.names, create);
        return rows.map(presentLabelBasic);
      },
    }),

    /**
     * LabelBasic objects for these ids (any container), sorted by title; unknown ids are skipped.
     * Each also carries the label's `priority` (project labels; null for group labels), which
     * issue lists sort by (order_by=label_priority / priority); callers embed only LabelBasic.
     */
    "labels.byIds": action({
      idempotent: true,
      visibility: "public",
      input: () => z.object({ ids: z.array(z.number().int()).max(1000) }),
      async handler(ctx) {
        return (await labelsByIds(kit.db, [...new Set(ctx.params.ids)])).map((l) => ({ ...presentLabelBasic(l), priority: l.projectId !== null ? l.priority : null }));
      },
    }),

    /** Milestone entities (as issues embed them) for these ids; unknown ids are skipped. */
    "milestones.byIds": action({
      idempotent: true,
      visibility: "public",
      input: () => z.object({ ids: z.array(z.number().int()).max(1000) }),
      async handler(ctx) {
        return presentMilestones(await milestonesByIds(kit.db, [...new Set(ctx.params.ids)]));
      },
    }),

    /**
     * The milestone with this id (or else this exact title) if it belongs to the project or one of
     * its ancestor groups — what an issue or merge request may be assigned — or null.
     */
    "milestones.findForProject": action({
      idempotent: true,
      visibility: "public",
      input: () =>
        z
          .object({ project_id: z.number().int(), id: z.number().int().optional(), title: z.string().optional() })
          .refine((v) => v.id !== undefined || v.title !== undefined, { message: "id, title are missing, at least one parameter must be provided" }),
      async handler(ctx) {
        const found = await findProject(kit.db, ctx.params.project_id);
        if (!found) throw notFound("Project");
        const scope = { projectIds: [found.project.id], groupIds: projectGroupIds(found.namespace) };
        const row =
          ctx.params.id !== undefined ? await findMilestoneInScope(kit.db, scope, ctx.params.id) : await findMilestoneByTitle(kit.db, scope, ctx.params.title!);
        return row ? presentMilestones([row])[0] : null;
      },
    }),
  };
}

/** A project's or group's own milestones (single-milestone routes never reach an ancestor's). */
const ownMilestoneScope = (p: Parent): MilestoneScope => (p.kind === "project" ? { projectIds: [p.id], groupIds: [] } : { projectIds: [], groupIds: [p.id] });
