import { AccessLevel, forbidden, page, recordNotFound, type Ctx, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { readableProject, type ReadableProject } from "../members/authorize";
import { findProject } from "../shared/lookup";
import { branchMatches } from "./matching";
import { presentProtectedBranch } from "./protected-branch.entity";
import {
  byIdsOfProject,
  ensureDefaultProtection,
  findProtectedBranch,
  listProtectedBranches,
  protectBranch,
  protectionsOf,
  unprotectBranch,
  updateProtectedBranch,
} from "./protected-branches";
import { pushRules, requiredAccessLevel } from "./merge-access";

/**
 * The project's protections, for Maintainers and up (GitLab's read/create/update/destroy
 * _protected_branch all follow admin_project); 404 for callers who cannot see the project.
 */
async function administeredProject(kit: ServiceKit, ctx: Ctx<unknown>, ref: string): Promise<ReadableProject> {
  const p = await readableProject(kit.db, ctx, ref);
  if (p.role < AccessLevel.MAINTAINER) throw forbidden();
  await ensureDefaultProtection(kit, p.project);
  return p;
}

async function existing(kit: ServiceKit, projectId: number, name: string) {
  const row = await findProtectedBranch(kit.db, projectId, name);
  if (!row) throw recordNotFound();
  return row;
}

/** Protected branches (GitLab's API) and what other services ask of them over the bus. */
export const protectedBranchesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "protectedBranches.list": implement(
    Namespaces.protectedBranches.list,
    async (ctx) => {
      const p = await administeredProject(kit, ctx, ctx.params.id);
      const rows = await listProtectedBranches(kit.db, p.project.id, ctx.params.search);
      const start = (ctx.params.page - 1) * ctx.params.per_page;
      return page(rows.slice(start, start + ctx.params.per_page).map(presentProtectedBranch), rows.length, ctx.params);
    },
    { visibility: "published" },
  ),

  "protectedBranches.get": implement(
    Namespaces.protectedBranches.get,
    async (ctx) => {
      const p = await administeredProject(kit, ctx, ctx.params.id);
      return presentProtectedBranch(await existing(kit, p.project.id, ctx.params.name));
    },
    { visibility: "published" },
  ),

  "protectedBranches.create": implement(
    Namespaces.protectedBranches.create,
    async (ctx) => {
      const p = await administeredProject(kit, ctx, ctx.params.id);
      return presentProtectedBranch(await protectBranch(kit.db, p.project.id, ctx.params));
    },
    { visibility: "published" },
  ),

  "protectedBranches.update": implement(
    Namespaces.protectedBranches.update,
    async (ctx) => {
      const p = await administeredProject(kit, ctx, ctx.params.id);
      const row = await existing(kit, p.project.id, ctx.params.name);
      return presentProtectedBranch(await updateProtectedBranch(kit.db, row, ctx.params));
    },
    { visibility: "published" },
  ),

  "protectedBranches.delete": implement(
    Namespaces.protectedBranches.delete,
    async (ctx) => {
      const p = await administeredProject(kit, ctx, ctx.params.id);
      const row = await existing(kit, p.project.id, ctx.params.name);
      await unprotectBranch(kit.db, row.id);
      return null;
    },
    { visibility: "published" },
  ),
});

/** The bus actions (namespaces' contract) of protectedBranches. */
export const protectedBranchesBusActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /**
     * Bus: the minimum access level that may merge into a branch — 30 when unprotected, the
     * protection's merge level otherwise (40 by default; "No one" answers 61, above every role).
     */
    implement(Namespaces.protectedBranches.mergeAccessLevel, async (ctx) => {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) return { access_level: AccessLevel.DEVELOPER };
      return { access_level: await requiredAccessLevel(kit, found.project, ctx.params.branch, "merge") };
    }),

    /** Bus: what pushing to each branch needs (the repositories service's pre-receive check); an unknown project has none. */
    implement(Namespaces.protectedBranches.pushRules, async (ctx) => {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) return ctx.params.branches.map((branch) => ({ branch, protected: false, push_access_level: AccessLevel.DEVELOPER, merge_access_level: AccessLevel.DEVELOPER, allow_force_push: true }));
      return pushRules(kit, found.project, ctx.params.branches);
    }),

    /** Bus: a project's protected branches by id, presented (approval rules); foreign ids are dropped. */
    implement(Namespaces.protectedBranches.byIds, async (ctx) => {
      return (await byIdsOfProject(kit.db, ctx.params.project_id, [...new Set(ctx.params.ids)])).map(presentProtectedBranch);
    }),

    /**
     * Bus, batched: for each {project_id, branch}, the ids of the project's protected branches
     * matching that branch (exact or wildcard), in the order asked. One query for any number.
     */
    implement(Namespaces.protectedBranches.matching, async (ctx) => {
      const rows = await protectionsOf(kit.db, [...new Set(ctx.params.pairs.map((p) => p.project_id))]);
      return ctx.params.pairs.map((pair) => rows.filter((r) => r.projectId === pair.project_id && branchMatches(r.name, pair.branch)).map((r) => r.id));
    }),
  ]);
