import { announce, AccessLevel, callerOf, currentSettings, notFound, page, requireCaller, userLimits, implement } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import type { NamespaceRow } from "../db/schema";
import { withTierFilters } from "../deletion/deletion";
import { assertCanCreateIn } from "../groups/groups";
import { requireRole } from "../members/access";
import { readableGroup, readableProject } from "../members/authorize";
import { findNamespace } from "../shared/lookup";
import { userRefs } from "../shared/users";
import { restrictedVisibilityErrors } from "../shared/visibility-settings";
import { ensureUserNamespace, findUserNamespace, personalProjectsCount } from "../user-namespaces/user-namespaces";
import { presentProjects } from "./present-projects";
import { presentProject } from "./project.entity";
import { findProjects } from "./projects.finder";
import { createProject, personalProjectsLimitReached, updateProject } from "./projects";
import { createProjectRepository } from "./repository";

/** The projects API: lists, one project, creation and settings. */
export const projectsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "projects.list": implement(
    Namespaces.projects.list,
    async (ctx) => {
      const { rows, total } = await findProjects(kit.db, callerOf(ctx), withTierFilters(kit, ctx.params));
      return page(await presentProjects(kit, ctx, rows, ctx.params.simple), total, ctx.params);
    },
    { visibility: "published" },
  ),

  "projects.get": implement(
    Namespaces.projects.get,
    async (ctx) => {
      const p = await readableProject(kit.db, ctx, ctx.params.id);
      const [owners] = await Promise.all([userRefs(ctx, p.namespace.kind === "user" ? [p.namespace.ownerId] : [])]);
      const level = (l: number | null) => (l === null ? null : { access_level: l, notification_level: 3 });
      return presentProject(p.project, p.namespace, kit.baseUrl, {
        owner: owners.get(p.namespace.ownerId ?? -1) ?? null,
        permissions: { project_access: level(p.access.projectLevel), group_access: level(p.access.groupLevel) },
      });
    },
    { visibility: "published" },
  ),

  "projects.create": implement(
    Namespaces.projects.create,
    async (ctx) => {
      const caller = requireCaller(ctx);
      let ns: NamespaceRow;
      if (ctx.params.namespace_id === undefined) {
        // The namespace is made when accounts' user-created event applies; a project asked for
        // before that makes it, with the user's name as accounts has it (not the username).
        ns = (await findUserNamespace(kit.db, caller.id)) ?? (await ensureUserNamespace(kit.db, { id: caller.id, username: caller.username, name: (await userRefs(ctx, [caller.id])).get(caller.id)?.name ?? caller.username }));
      } else {
        const found = await findNamespace(kit.db, ctx.params.namespace_id);
        if (!found) throw notFound("Namespace");
        if (found.kind === "group") {
          const g = await readableGroup(kit.db, ctx, found.id, "Namespace");
          assertCanCreateIn(g.group, g.role, "project");
        } else if (found.ownerId !== caller.id && !caller.admin) {
          throw notFound("Namespace");
        }
        ns = found;
      }
      const visibility = ctx.params.visibility ?? currentSettings().default_project_visibility;
      restrictedVisibilityErrors(caller, visibility);
      if (ns.kind === "user") {
        // Project#check_personal_projects_limit: the creator's limit against the creator's own
        // personal projects (administrators included), whichever personal namespace it goes to.
        const { projects_limit } = await userLimits(ctx, caller.id);
        if ((await personalProjectsCount(kit.db, caller.id)) >= projects_limit) throw personalProjectsLimitReached(projects_limit);
      }
      const project = await kit.events.transact(
        async (tx) => {
          const created = await createProject(tx, caller, ns, ctx.params, visibility);
          await createProjectRepository(ctx, created, ns, kit.baseUrl);
          return created;
        },
        (created) => [announce(Namespaces.events.projectCreated, { projectId: created.id, userId: caller.id, name: created.name, namespaceId: ns.id })],
      );
      const owners = await userRefs(ctx, ns.kind === "user" ? [ns.ownerId] : []);
      return presentProject(project, ns, kit.baseUrl, { owner: owners.get(ns.ownerId ?? -1) ?? null });
    },
    { visibility: "published" },
  ),

  "projects.update": implement(
    Namespaces.projects.update,
    async (ctx) => {
      const { id, ...changes } = ctx.params;
      const p = await readableProject(kit.db, ctx, id);
      requireRole(p.role, AccessLevel.MAINTAINER);
      if (changes.visibility !== undefined && changes.visibility !== p.project.visibility) {
        requireRole(p.role, AccessLevel.OWNER);
        restrictedVisibilityErrors(requireCaller(ctx), changes.visibility);
      }
      const project = await updateProject(kit.db, p.project, p.namespace, changes);
      const owners = await userRefs(ctx, p.namespace.kind === "user" ? [p.namespace.ownerId] : []);
      return presentProject(project, p.namespace, kit.baseUrl, { owner: owners.get(p.namespace.ownerId ?? -1) ?? null });
    },
    { visibility: "published" },
  ),
});
