import { AccessLevel, accepted, requireCaller, actionsOf, implement, broadcast } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { presentGroupWithProjects } from "../groups/group-detail";
import { requireRole } from "../members/access";
import { readableGroup, readableProject } from "../members/authorize";
import { presentProject, projectFullPath } from "../projects/project.entity";
import { projectDeleted, removalEvents } from "../shared/events";
import { userRefs } from "../shared/users";
import { adjournedDeletionAvailable, assertPermanentRemoval, markGroupForDeletion, markProjectForDeletion, restoreGroup, restoreProject, routeNotFound, utcDay } from "./deletion";
import { purgeDeletions } from "./purge.worker";
import { deleteGroup, deleteProject } from "./removal";

/** Deleting and restoring groups and projects (immediately, or adjourned on Premium), and the purge. */
export const deletionActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /**
   * With adjourned deletion (Premium) the group is marked and removed by the purge later;
   * `permanently_remove` with the group's `full_path` removes a marked group at once.
   */
  "groups.delete": implement(
    Namespaces.groups.delete,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const g = await readableGroup(kit.db, ctx, ctx.params.id);
      requireRole(g.role, AccessLevel.OWNER);
      if (adjournedDeletionAvailable(kit.config)) {
        if (!ctx.params.permanently_remove) {
          await markGroupForDeletion(kit.db, g.group, caller.id, utcDay(new Date()));
          return accepted();
        }
        assertPermanentRemoval("group", g.group.markedForDeletionOn, g.group.fullPath, ctx.params.full_path);
      }
      await kit.events.transact((tx) => deleteGroup(tx, g.group), removalEvents);
      await broadcast(ctx, Namespaces.events.membersChanged, { groupId: g.group.id });
      return accepted();
    },
    { visibility: "published" },
  ),

  "groups.restore": implement(
    Namespaces.groups.restore,
    async (ctx) => {
      if (!adjournedDeletionAvailable(kit.config)) throw routeNotFound();
      const g = await readableGroup(kit.db, ctx, ctx.params.id);
      requireRole(g.role, AccessLevel.OWNER);
      const group = await restoreGroup(kit.db, g.group);
      return presentGroupWithProjects(kit, ctx, group);
    },
    { visibility: "published" },
  ),

  /** Like groups.delete: marked with adjourned deletion, or removed at once (Free tier, `permanently_remove`). */
  "projects.delete": implement(
    Namespaces.projects.delete,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const p = await readableProject(kit.db, ctx, ctx.params.id);
      requireRole(p.role, AccessLevel.OWNER);
      if (adjournedDeletionAvailable(kit.config)) {
        if (!ctx.params.permanently_remove) {
          await markProjectForDeletion(kit.db, p.project, caller.id, utcDay(new Date()));
          return accepted();
        }
        assertPermanentRemoval("project", p.project.markedForDeletionAt, projectFullPath(p.project, p.namespace), ctx.params.full_path);
      }
      await kit.events.transact(
        (tx) => deleteProject(tx, p.project),
        () => [projectDeleted(p.project.id)],
      );
      return accepted();
    },
    { visibility: "published" },
  ),

  "projects.restore": implement(
    Namespaces.projects.restore,
    async (ctx) => {
      if (!adjournedDeletionAvailable(kit.config)) throw routeNotFound();
      const p = await readableProject(kit.db, ctx, ctx.params.id);
      requireRole(p.role, AccessLevel.OWNER);
      const project = await restoreProject(kit.db, p.project);
      const owners = await userRefs(ctx, p.namespace.kind === "user" ? [p.namespace.ownerId] : []);
      return presentProject(project, p.namespace, kit.baseUrl, { owner: owners.get(p.namespace.ownerId ?? -1) ?? null });
    },
    { visibility: "published" },
  ),
});

/** The bus actions (namespaces' contract) of deletion. */
export const deletionBusActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /** One adjourned-deletion purge pass (the timer runs the same); `now` defaults to the current time. */
    implement(Namespaces.deletions.purgeDue, async (ctx) => {
      return purgeDeletions(kit, ctx.params.now ?? new Date());
    }),
  ]);
