import { requireCaller, AccessLevel, action, badRequestMessage, forbidden, notFound, page, type Ctx, actionsOf, implement } from "@collab/core";
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
import { CreateBranchParams, CreateTagParams, ListRefsParams, RefParams } from "./refs.params";
import { createBranch, createTag, deleteRef, ensureDefaultBranch } from "./refs";

/** The project's repository as the caller may read it: private code needs Reporter, as GitLab's download_code. */
async function repository(kit: ServiceKit, ctx: Ctx<unknown>, ref: string): Promise<ReadableProject & { protections: BranchProtection[] }> {
  const p = await readableProject(kit.db, ctx, ref);
  if (p.project.visibility === "private" && p.role < AccessLevel.REPORTER) throw forbidden();
  await ensureDefaultBranch(kit.db, p.project);
  await ensureDefaultProtection(kit.db, p.project);
  return { ...p, protections: await protectionsOf(kit.db, [p.project.id]) };
}

function present(kit: ServiceKit, p: ReadableProject & { protections: BranchProtection[] }, r: RefWithCommit) {
  const url = projectWebUrl(p.project, p.namespace, kit.baseUrl);
  return r.ref.kind === "branch"
    ? presentBranch(r.ref, r.commit, { projectWebUrl: url, defaultBranch: p.project.defaultBranch, role: p.role, protections: p.protections })
    : presentTag(r.ref, r.commit, url);
}

const missing = (kind: "branch" | "tag") => notFound(kind === "branch" ? "Branch" : "Tag");

/** Branches and tags of a project's repository, and ref resolution for other services. */
export const refsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "refs.list": action({
    idempotent: true,
    input: () => ListRefsParams,
    async handler(ctx) {
      const p = await repository(kit, ctx, ctx.params.id);
      const rows = await listRefs(kit.db, p.project.id, ctx.params.kind, ctx.params.search);
      const start = (ctx.params.page - 1) * ctx.params.per_page;
      return page(rows.slice(start, start + ctx.params.per_page).map((r) => present(kit, p, r)), rows.length, ctx.params);
    },
  }),

  "refs.get": action({
    idempotent: true,
    input: () => RefParams,
    async handler(ctx) {
      const p = await repository(kit, ctx, ctx.params.id);
      const r = await findRef(kit.db, p.project.id, ctx.params.kind, ctx.params.name);
      if (!r) throw missing(ctx.params.kind);
      return present(kit, p, r);
    },
  }),

  "refs.createBranch": action({
    input: () => CreateBranchParams,
    async handler(ctx) {
      const p = await repository(kit, ctx, ctx.params.id);
      if (p.role < AccessLevel.DEVELOPER) throw forbidden();
      const caller = requireCaller(ctx);
      const created = await kit.events.transact(
        (tx) => createBranch(tx, p.project.id, ctx.params.branch, ctx.params.ref),
        (r) => [refPushed(p.project.id, r.ref, caller.id, "created", r.commit?.message ?? "")],
      );
      return present(kit, p, created);
    },
  }),

  "refs.createTag": action({
    input: () => CreateTagParams,
    async handler(ctx) {
      const p = await repository(kit, ctx, ctx.params.id);
      if (p.role < AccessLevel.DEVELOPER) throw forbidden();
      const caller = requireCaller(ctx);
      const created = await kit.events.transact(
        (tx) => createTag(tx, p.project.id, ctx.params.tag_name, ctx.params.ref, ctx.params.message),
        (r) => [refPushed(p.project.id, r.ref, caller.id, "created", r.commit?.message ?? "")],
      );
      return present(kit, p, created);
    },
  }),

  "refs.delete": action({
    input: () => RefParams,
    async handler(ctx) {
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
  }),
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
      await ensureDefaultBranch(kit.db, found.project);
      return resolveRef(kit.db, found.project.id, ctx.params.ref);
    }),
  ]);
