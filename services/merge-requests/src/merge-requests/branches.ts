import { call, type Ctx } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { Repositories, type MergeRequestGitState } from "@collab/repositories-contract";
import type { ServiceBroker } from "moleculer";
import type { mergeRequests, MergeRequestRow } from "../db/schema";

/** What merge requests ask of the repository: its git state, and who may merge. */

type Via = Ctx<unknown> | ServiceBroker;

/** The git state of branch pairs of a project, in the order asked (one call to its storage's replica). */
export async function gitStates(via: Via, projectId: number, pairs: { source_branch: string; target_branch: string }[]): Promise<MergeRequestGitState[]> {
  if (!pairs.length) return [];
  return call(via, Repositories.mergeRequests.mergeability, { project_id: projectId, pairs });
}

/** The row's stored git state from a fresh read (what lists show, see the schema). */
export function gitStateColumns(s: MergeRequestGitState): Partial<typeof mergeRequests.$inferInsert> {
  return {
    ...(s.source_sha ? { sha: s.source_sha } : {}),
    baseSha: s.base_sha,
    startSha: s.target_sha,
    changesCount: s.changes_count,
    mergeStatus: !s.source_sha || !s.target_sha || s.has_conflicts ? "cannot_be_merged" : "can_be_merged",
    behindTarget: !s.can_fast_forward,
    sourceBranchExists: s.source_sha !== null,
  };
}

/**
 * A merge request's diff refs: an open one's read from its branches now (merge base, target head,
 * source head), a merged or closed one's as stored. Null when there is nothing to diff (a branch
 * gone, unrelated histories).
 */
export async function diffRefsOf(ctx: Ctx<unknown>, mr: MergeRequestRow): Promise<{ base: string; start: string; head: string; live?: MergeRequestGitState } | null> {
  if (mr.state === "opened") {
    const [live] = await gitStates(ctx, mr.projectId, [{ source_branch: mr.sourceBranch, target_branch: mr.targetBranch }]);
    return live.base_sha && live.source_sha && live.target_sha ? { base: live.base_sha, start: live.target_sha, head: live.source_sha, live } : null;
  }
  return mr.baseSha && mr.sha && mr.startSha ? { base: mr.baseSha, start: mr.startSha, head: mr.sha } : null;
}

/** Pins refs/merge-requests/<iid>/head (and /merge) at the states read; a failure there never fails the caller's write. */
export async function writeMergeRequestRefs(via: Via, projectId: number, refs: { iid: number; state: MergeRequestGitState }[], warn: (err: Error) => void): Promise<void> {
  const wanted = refs.filter((r) => r.state.source_sha).map((r) => ({ iid: r.iid, source_sha: r.state.source_sha!, target_sha: r.state.target_sha }));
  if (!wanted.length) return;
  await call(via, Repositories.mergeRequests.writeRefs, { project_id: projectId, refs: wanted }).catch(warn);
}

/**
 * The one place that decides who may merge into a branch: the access level namespaces'
 * protected branches ask for (protectedBranches.mergeAccessLevel).
 */
export async function mergeAccessLevel(ctx: Ctx<unknown>, projectId: number, branch: string): Promise<number> {
  const { access_level } = await call(ctx, Namespaces.protectedBranches.mergeAccessLevel, { project_id: projectId, branch });
  return access_level;
}
