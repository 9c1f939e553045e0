import { AccessLevel, forbidden, notFound, requireCaller, actionsOf, implement, call } from "@collab/core";
import { Accounts } from "@collab/accounts-contract";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { readableProject } from "../members/authorize";
import { projectWebUrl } from "../projects/project.entity";
import { requiredAccessLevel } from "../protected-branches/merge-access";
import { branchPushed } from "../shared/events";
import { findProject } from "../shared/lookup";
import { branchHeads, commitToBranch, type Push } from "./commits";
import { presentCommit } from "./refs.entity";
import { ensureDefaultBranch } from "./refs";
import { findCommit } from "./refs.finder";


const noreply = (kit: ServiceKit, username: string) => `${username}@noreply.${new URL(kit.baseUrl).hostname}`;

/** Commits without trees: the "push" that moves branch heads, and what merge requests ask of the repository. */
export const commitsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** POST /projects/:id/repository/commits: Developer up, Maintainer on the default branch. */
  "commits.create": implement(
    Namespaces.commits.create,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const p = await readableProject(kit.db, ctx, ctx.params.id);
      if (p.project.visibility === "private" && p.role < AccessLevel.REPORTER) throw notFound("Project");
      if (p.role < (await requiredAccessLevel(kit, p.project, ctx.params.branch, "push"))) throw forbidden();
      await ensureDefaultBranch(kit, p.project);
      const [user] = await call(ctx, Accounts.users.refs, { ids: [caller.id] });
      const { commit } = await kit.events.transact((tx) => commitToBranch(tx, p.project.id, {
        branch: ctx.params.branch,
        startBranch: ctx.params.start_branch,
        message: ctx.params.commit_message,
        author: { name: ctx.params.author_name ?? user?.name ?? caller.username, email: ctx.params.author_email ?? noreply(kit, caller.username) },
      }), (r) => [branchPushed(p.project.id, r.push, caller.id, 1, ctx.params.commit_message)]);
      return {
        ...presentCommit(commit.sha, commit, projectWebUrl(p.project, p.namespace, kit.baseUrl)),
        ...(ctx.params.stats ? { stats: { additions: 0, deletions: 0, total: 0 } } : {}),
        status: null,
        project_id: p.project.id,
        last_pipeline: null,
      };
    },
    { visibility: "published" },
  ),
});

/** The bus actions (namespaces' contract) of commits. */
export const commitsBusActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /**
     * Heads of branches of any projects: `[{ project_id, branch, sha | null }]` in the order asked.
     * Default branches not yet materialised count as missing until someone reads the repository.
     */
    implement(Namespaces.refs.branchHeads, async (ctx) => {
      // A single merge request's reads and writes materialise the default branch (as any repository read does).
      if (ctx.params.ensure_default_branch)
        for (const id of new Set(ctx.params.refs.map((r) => r.project_id))) {
          const found = await findProject(kit.db, id);
          if (found) await ensureDefaultBranch(kit, found.project);
        }
      return branchHeads(kit.db, ctx.params.refs);
    }),

    /** A commit of a project by sha, branch or tag, for the services that hang things on commits (commit notes). */
    implement(Namespaces.commits.find, async (ctx) => {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) return null;
      await ensureDefaultBranch(kit, found.project);
      const commit = await findCommit(kit.db, found.project.id, ctx.params.ref);
      return commit && { sha: commit.sha, title: commit.title, parent_ids: commit.parentIds };
    }),
  ]);
