import { conflict, implement, notAllowed, requireCaller, unauthorized, unprocessable, type Ctx } from "@collab/core";
import { userMap, assertWritable, type ProjectAccess } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { and, eq } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { approvalsLeftFor } from "../approvals/gate";
import { closingIssueRefs, type MergeRequestRow } from "../db/schema";
import { loadMergeRequest } from "../domain/load";
import { branchHeads, headKey, mergeBranches } from "./branches";
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

/**
 * PUT …/merge, in GitLab's order of checks: 401 when the caller may not merge into the target
 * branch; 405 when the merge request is not mergeable (not open, draft, threads to resolve,
 * approvals missing, merge_after ahead); 422 "Branch cannot be merged" when a branch is gone
 * (GitLab answered 406 in old versions; today's code answers 422); 409 when `sha` is not the
 * source head. merge_when_pipeline_succeeds / auto_merge are accepted: there are no pipelines to
 * wait for, so the merge happens at once.
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
      const status = await mergeability(kit, ctx, access, mr);
      if (status.detailed !== "mergeable" && status.detailed !== "commits_status") throw notAllowed();
      const head = status.sourceHead;
      if (!head || !status.targetHead) throw unprocessable("Branch cannot be merged");
      const p = ctx.params;
      if (p.sha !== undefined && p.sha !== head) throw conflict(`SHA does not match HEAD of source branch: ${head}`);
      const squash = squashFor(access.project.squash_option, p.squash ?? mr.squash);
      const removeSource = p.should_remove_source_branch ?? mr.forceRemoveSourceBranch;
      const [author] = (await userMap(ctx, [caller.id])).values();
      const reference = `${access.project.path_with_namespace}!${mr.iid}`;
      const result = await mergeBranches(ctx, {
        project_id: access.project.id,
        source_branch: mr.sourceBranch,
        target_branch: mr.targetBranch,
        sha: head,
        message: p.merge_commit_message ?? `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\nSee merge request ${reference}`,
        squash,
        squash_message: p.squash_commit_message ?? mr.title,
        remove_source_branch: removeSource,
        user_id: caller.id,
        author_name: author?.name ?? caller.username,
        author_email: `${caller.username}@noreply.${new URL(kit.baseUrl).hostname}`,
      });
      const merged = await kit.events.transact(
        (tx) =>
          recordMerge(tx, mr, caller, {
            mergeCommitSha: result.merge_commit_sha,
            squashCommitSha: result.squash_commit_sha,
            sourceSha: result.source_sha,
            squash,
            shouldRemoveSourceBranch: removeSource,
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

/** The same facts the entity shows, for one merge request about to be merged. */
async function mergeability(kit: ServiceKit, ctx: Ctx<unknown>, access: ProjectAccess, mr: MergeRequestRow) {
  const [heads, unresolved, approvalsLeft] = await Promise.all([
    branchHeads(ctx, [{ project_id: mr.sourceProjectId, branch: mr.sourceBranch }, { project_id: mr.projectId, branch: mr.targetBranch }]),
    unresolvedCounts(kit, [mr.id]),
    approvalsLeftFor(kit, ctx, [mr]),
  ]);
  const source: MergeStatusSource = { now: new Date(), heads, unresolved, approvalsLeft, projects: new Map([[access.project.id, access.project]]) };
  return {
    detailed: mergeStatusesOf(mr, source).detailed_merge_status,
    sourceHead: heads.get(headKey(mr.sourceProjectId, mr.sourceBranch)) ?? null,
    targetHead: heads.get(headKey(mr.projectId, mr.targetBranch)) ?? null,
  };
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

