import { call, conflict, implement, notAllowed, requireCaller, unauthorized, unprocessable, type Ctx } from "@collab/core";
import { Repositories } from "@collab/repositories-contract";
import { userMap, assertWritable, type ProjectAccess } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { and, eq } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { approvalsLeftFor } from "../approvals/gate";
import { closingIssueRefs, type MergeRequestRow } from "../db/schema";
import { loadMergeRequest } from "../domain/load";
import { gitStateColumns, gitStates } from "./branches";
import { closeIssuesOnMerge } from "./close-issues";
import { mergeStatusesOf, type MergeStatusSource } from "./entity";
import { announce } from "@collab/core";
import { MergeRequests, type MergeRequestEntity } from "@collab/merge-requests-contract";
import { eventPayload } from "./events";
import { unresolvedCounts } from "./presentation";
import { recordMerge } from "./writes";

export interface MergeDeps {
  canMerge: (ctx: Ctx<unknown>, access: ProjectAccess, role: number, targetBranch: string) => Promise<boolean>;
  presentOne: (kit: ServiceKit, ctx: Ctx<unknown>, loaded: { access: ProjectAccess; role: number }, mr: MergeRequestRow) => Promise<MergeRequestEntity>;
}

/** The statuses of the git checks: GitLab's merge API answers them 422 "Branch cannot be merged", the others 405. */
const GIT_CHECKS = new Set(["commits_status", "unchecked", "conflict", "need_rebase"]);
const MERGE_METHODS = ["merge", "rebase_merge", "ff"] as const;

/**
 * PUT …/merge, in GitLab's order of checks: 401 when the caller may not merge into the target
 * branch; 405 when the merge request is not mergeable (not open, draft, threads to resolve,
 * approvals missing, merge_after ahead); 422 "Branch cannot be merged" when git cannot (a branch
 * gone, conflicts, a rebase the merge method needs); 409 when `sha` is not the source head. The
 * repository merges by the project's merge_method, squashing and removing the source branch as
 * asked, every ref moving only from the value read here. merge_when_pipeline_succeeds /
 * auto_merge are accepted: there are no pipelines to wait for, so the merge happens at once.
 */
export function mergeAction(kit: ServiceKit, { canMerge, presentOne }: MergeDeps): ActionSchema {
  return implement(
    MergeRequests.mergeRequests.merge,
    async (ctx) => {
      const caller = requireCaller(ctx);
      const loaded = await loadMergeRequest(kit, ctx, ctx.params.id, ctx.params.merge_request_iid);
      const { access, mergeRequest: mr } = loaded;
      if (!(await canMerge(ctx, access, loaded.actor.role, mr.targetBranch))) throw unauthorized();
      assertWritable(access);
      const { detailed, state } = await mergeability(kit, ctx, access, mr);
      if (detailed !== "mergeable" && !GIT_CHECKS.has(detailed)) throw notAllowed();
      if (detailed !== "mergeable" || !state.source_sha) throw unprocessable("Branch cannot be merged");
      const p = ctx.params;
      if (p.sha !== undefined && p.sha !== state.source_sha) throw conflict(`SHA does not match HEAD of source branch: ${state.source_sha}`);
      const squash = squashFor(access.project.squash_option, p.squash ?? mr.squash);
      const removeSource = p.should_remove_source_branch ?? mr.forceRemoveSourceBranch;
      const [author] = (await userMap(ctx, [caller.id])).values();
      const reference = `${access.project.path_with_namespace}!${mr.iid}`;
      const method = MERGE_METHODS.find((m) => m === access.project.merge_method) ?? "merge";
      const result = await call(ctx, Repositories.mergeRequests.merge, {
        project_id: access.project.id,
        project_path: access.project.path_with_namespace,
        iid: mr.iid,
        source_branch: mr.sourceBranch,
        target_branch: mr.targetBranch,
        sha: state.source_sha,
        merge_method: method,
        message: p.merge_commit_message ?? `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\nSee merge request ${reference}`,
        squash,
        squash_message: p.squash_commit_message ?? mr.title,
        remove_source_branch: removeSource,
        user: { id: caller.id, username: caller.username, name: author?.name ?? caller.username, email: `${caller.username}@noreply.${new URL(kit.baseUrl).hostname}` },
      });
      const merged = await kit.events.transact(
        (tx) =>
          recordMerge(tx, mr, caller, {
            mergeCommitSha: result.merge_commit_sha,
            squashCommitSha: result.squash_commit_sha,
            sourceSha: result.source_sha,
            squash,
            shouldRemoveSourceBranch: removeSource,
            // The diff refs the merge was made from (what its changes show from now on).
            git: gitStateColumns(state),
          }),
        (row) => (row ? [announce(MergeRequests.events.mergeRequestMerged, { ...eventPayload(row, caller.id), merge_commit_sha: row.mergeCommitSha, sha: row.sha, description: row.description })] : []),
      );
      if (!merged) throw notAllowed();
      await closeLinkedIssues(kit, ctx, merged, access.project.path_with_namespace);
      return presentOne(kit, ctx, { access, role: loaded.actor.role }, merged);
    },
    { visibility: "published" },
  );
}

/** The project's squash_option wins over the request: always / never force it. */
const squashFor = (option: string | undefined, requested: boolean) => (option === "always" ? true : option === "never" ? false : requested);

/** The same facts the entity shows, with the git state read now, for one merge request about to be merged. */
async function mergeability(kit: ServiceKit, ctx: Ctx<unknown>, access: ProjectAccess, mr: MergeRequestRow) {
  const [[state], unresolved, approvalsLeft] = await Promise.all([
    gitStates(ctx, mr.projectId, [{ source_branch: mr.sourceBranch, target_branch: mr.targetBranch }]),
    unresolvedCounts(kit, [mr.id]),
    approvalsLeftFor(kit, ctx, [mr]),
  ]);
  const live = new Map([[mr.id, state]]);
  const source: MergeStatusSource = { now: new Date(), live, unresolved, approvalsLeft, projects: new Map([[access.project.id, access.project]]) };
  return { detailed: mergeStatusesOf(mr, source).detailed_merge_status, state };
}

/**
 * Closes the issues the merged merge request's description references, through the issues
 * service (as the merging user). A missing issues service or a failure there leaves the merge
 * standing; it is logged.
 */
async function closeLinkedIssues(kit: ServiceKit, ctx: Ctx<unknown>, mr: MergeRequestRow, projectPath: string) {
  const refs = await kit.db
    .select()
    .from(closingIssueRefs)
    .where(and(eq(closingIssueRefs.mergeRequestId, mr.id), eq(closingIssueRefs.closes, true)));
  try {
    await closeIssuesOnMerge(ctx, {
      refs: refs.map((r) => ({ project_id: r.issueProjectId, iid: r.issueIid })),
      merge_request: { iid: mr.iid, project_id: mr.projectId, reference: `${projectPath}!${mr.iid}` },
    });
  } catch (err) {
    kit.logger.warn({ err: (err as Error).message, mergeRequestId: mr.id }, "closing the merge request's issues failed");
  }
}

