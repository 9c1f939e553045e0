import { actionsOf, implement, notFound } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { branchPushed } from "../shared/events";
import { findProject } from "../shared/lookup";
import { mergeBranches } from "./commits";

/** The bus action left of the simulated commit graph: merging a merge request's branches. */
export const commitsBusActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /**
     * Merges a merge request's branches (the merge-requests service has authorized it): answers
     * `{ merge_commit_sha, squash_commit_sha, source_sha, source_branch_removed }`; 422 "Branch
     * cannot be merged" when a branch is gone, 409 when the source moved past `sha`.
     */
    implement(Namespaces.refs.mergeBranches, async (ctx) => {
      const found = await findProject(kit.db, ctx.params.project_id);
      if (!found) throw notFound("Project");
      const p = ctx.params;
      const result = await kit.events.transact((tx) => mergeBranches(tx, found.project.id, {
        sourceBranch: p.source_branch,
        targetBranch: p.target_branch,
        expectedSha: p.sha,
        message: p.message,
        squash: p.squash,
        squashMessage: p.squash_message,
        removeSourceBranch: p.remove_source_branch,
        author: { name: p.author_name, email: p.author_email },
      }), (r) => [branchPushed(found.project.id, r.push, p.user_id, r.squash_commit_sha ? 2 : 1, p.squash ? (p.squash_message ?? p.message) : p.message)]);
      const { push: _push, ...answer } = result;
      return answer;
    }),
  ]);
