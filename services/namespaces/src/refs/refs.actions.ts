import { requireCaller, AccessLevel, badRequestMessage, forbidden, notFound, page, type Ctx, actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { refPushed } from "../shared/events";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { readableProject, type ReadableProject } from "../members/authorize";
import { projectWebUrl } from "../projects/project.entity";
import { findProject } from "../shared/lookup";
import type { BranchProtection } from "../protected-branches/matching";
import { ensureDefaultProtection, protectionsOf } from "../protected-branches/protected-branches";
import { presentBranch, presentTag } from "./refs.entity";
import { findRef, listRefs, resolveRef, type RefWithCommit } from "./refs.finder";
import { createBranch, createTag, deleteRef, ensureDefaultBranch } from "./refs";

/** The project's repository as the caller may read it: private code needs Reporter, as GitLab's download_code. */
async function repository(kit: ServiceKit, ctx: Ctx<unknown>, ref: string): Promise<Repository> {
  const p = await readableProject(kit.db, ctx, ref);
  if (p.project.visibility === "private" && p.role < AccessLevel.REPORTER) throw forbidden();
  await ensureDefaultBranch(kit, p.project);
  await ensureDefaultProtection(kit, p.project);
  return { ...p, protections: await protectionsOf(kit.db, [p.project.id]) };
}

type Repository = ReadableProject & { protections: BranchProtection[] };

const branchOf = (kit: ServiceKit, p: Repository, r: RefWithCommit) =>
  presentBranch(r.ref, r.commit, { projectWebUrl: projectWebUrl(p.project, p.namespace, kit.baseUrl), defaultBranch: p.project.defaultBranch, role: p.role, protections: p.protections });

const tagOf = (kit: ServiceKit, p: Repository, r: RefWithCommit) => presentTag(r.ref, r.commit, projectWebUrl(p.project, p.namespace, kit.baseUrl));

const present = (kit: ServiceKit, p: Repository, r: RefWithCommit) => (r.ref.kind === "branch" ? branchOf(kit, p, r) : tagOf(kit, p, r));

const missing = (kind: "branch" | "tag") => notFound(kind === "branch" ? "Branch" : "Tag");

/** Branches and tags of a project's repository, and ref resolution for other services. */
export const refsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "refs.list": implement(
    Namespaces.refs.list,
    async (ctx) => {
      const p = await repository(kit, ctx, ctx.params.id);
      const rows = await listRefs(kit.db, p.project.id, ctx.params.kind, ctx.params.search);
      const start = (ctx.params.page - 1) * ctx.params.per_page;
      return page(rows.slice(start, start + ctx.params.per_page).map((r) => present(kit, p, r)), rows.length, ctx.params);
    },
    { visibility: "published" },
  ),

  "refs.get": implement(
    Namespaces.refs.get,
    async (ctx) => {
      const p = await repository(kit, ctx, ctx.params.id);
      const r = await findRef(kit.db, p.project.id, ctx.params.kind, ctx.params.name);
      if (!r) throw missing(ctx.params.kind);
      return present(kit, p, r);
    },
    { visibility: "published" },
  ),

  "refs.createBranch": implement(
    Namespaces.refs.createBranch,
    async (ctx) => {
      const p = await repository(kit, ctx, ctx.params.id);
      if (p.role < AccessLevel.DEVELOPER) throw forbidden();
      const caller = requireCaller(ctx);
      const created = await kit.events.transact(
        (tx) => createBranch(tx, p.project.id, ctx.params.branch, ctx.params.ref),
        (r) => [refPushed(p.project.id, r.ref, caller.id, "created", r.commit?.message ?? "")],
      );
      return branchOf(kit, p, created);
    },
    { visibility: "published" },
  ),

  "refs.createTag": implement(
    Namespaces.refs.createTag,
    async (ctx) => {
      const p = await repository(kit, ctx, ctx.params.id);
      if (p.role < AccessLevel.DEVELOPER) throw forbidden();
      const caller = requireCaller(ctx);
      const created = await kit.events.transact(
        (tx) => createTag(tx, p.project.id, ctx.params.tag_name, ctx.params.ref, ctx.params.message),
        (r) => [refPushed(p.project.id, r.ref, caller.id, "created", r.commit?.message ?? "")],
      );
      return tagOf(kit, p, created);
    },
    { visibility: "published" },
  ),

  "refs.delete": implement(
    Namespaces.refs.delete,
    async (ctx) => {
      const p = await repository(kit, ctx, ctx.params.id);
      if (p.role < AccessLevel.DEVELOPER) throw forbidden();
      const r = await findRef(kit.db, p.project.id, ctx.params.kind, ctx.params.name);
      if (!r) throw missing(ctx.params.kind);
      if (r.ref.kind === "branch" && r.ref.name === p.project.defaultBranch) throw badRequestMessage("The default branch of a project cannot be deleted.");
      const caller = requireCaller(ctx);
      await kit.events.transact(
        (tx) => deleteRef(tx, r.ref.id),
        () => [refPushed(p.project.id, r.ref, caller.id, "removed", "")],
      );
      return null;
    },
    { visibility: "published" },
  ),
});

/** The bus actions (namespaces' contract) of refs. */
export const refsBusActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /**
     * Validates a short (`main`) or full (`refs/heads/main`, `refs/tags/v1`) ref of a project:
     * `{status: "ok", full_ref, kind, name, sha}`, `{status: "missing"}` or `{status: "ambiguous"}`
     * (a short name that is both a branch and a tag).
     */
    implement(Namespaces.refs.resolve, async (ctx) => {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) throw notFound("Project");
      await ensureDefaultBranch(kit, found.project);
      return resolveRef(kit.db, found.project.id, ctx.params.ref);
    }),
  ]);
