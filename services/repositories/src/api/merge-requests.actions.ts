import { actionsOf, conflict, implement, notFound, unprocessable, type ActionContract, type Ctx, type OutputOf, type ParamsOf } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import {
  batchCheck,
  branchTarget,
  checkMerge,
  countChangedPaths,
  countCommits,
  diffBetween,
  isAncestor,
  listCommits,
  mergeBase,
  MergeConflictError,
  mergeToRef,
  rawDiff,
  rebase,
  RepositoryError,
  squash,
  updateRefs,
  writeCommit,
  type DiffEntry,
  type Person,
  type PushedRef,
  type RefUpdate,
} from "@collab/git";
import { onStorage, Repositories, REPOSITORIES_SERVICE, storageUnavailable, ZERO_SHA, type MergeRequestGitState, type RepositoryDiff } from "@collab/repositories-contract";
import type { ActionSchema } from "moleculer";
import { findRepository } from "../domain/repositories";
import type { LocalStorages } from "../domain/storages";
import { pushAnnouncements } from "../push/push-events";

/** GitLab's changes_count stops counting at the diff's file limit. */
const MAX_CHANGES = 1000;

/**
 * A bus action about one project's repository, run on a replica serving its storage (forwarded
 * once, as onProjectRepository does for REST actions). `dir` is null for a project without a
 * repository (created before repositories existed): it has no branches.
 */
function onProjectStorage<A extends ActionContract>(kit: ServiceKit, storages: LocalStorages, contract: A, handler: (ctx: Ctx<ParamsOf<A>>, dir: string | null) => Promise<OutputOf<A>>) {
  return implement(contract, async (ctx) => {
    const row = await findRepository(kit.db, "project", (ctx.params as { project_id: number }).project_id);
    if (!row) return handler(ctx, null);
    if (!storages.serves(row.storage)) {
      if (ctx.caller === REPOSITORIES_SERVICE) throw storageUnavailable(row.storage);
      return (await ctx.call(contract.name, ctx.params, onStorage(ctx, row.storage))) as OutputOf<A>;
    }
    return handler(ctx, storages.folderOf(row.storage, row.diskPath));
  });
}

const NO_STATE = { base_sha: null, changes_count: "0", has_conflicts: false, can_fast_forward: false, source_merged: false };

/** A branch pair's git state (see MergeRequestGitStateSchema). */
async function gitState(dir: string | null, sourceBranch: string, targetBranch: string): Promise<MergeRequestGitState> {
  if (!dir) return { source_sha: null, target_sha: null, ...NO_STATE };
  const [source, target] = await Promise.all([branchTarget(dir, sourceBranch), branchTarget(dir, targetBranch)]);
  if (!source || !target) return { source_sha: source, target_sha: target, ...NO_STATE };
  const [base, merge, canFastForward, sourceMerged] = await Promise.all([
    mergeBase(dir, target, source),
    checkMerge(dir, target, source),
    isAncestor(dir, target, source),
    isAncestor(dir, source, target),
  ]);
  const changes = base ? await countChangedPaths(dir, base, source) : 0;
  return {
    source_sha: source,
    target_sha: target,
    base_sha: base,
    changes_count: changes > MAX_CHANGES ? `${MAX_CHANGES}+` : String(changes),
    has_conflicts: merge.tree === null,
    can_fast_forward: canFastForward,
    source_merged: sourceMerged,
  };
}

const presentDiff = (d: DiffEntry): RepositoryDiff => ({
  old_path: d.old_path,
  new_path: d.new_path,
  a_mode: d.a_mode,
  b_mode: d.b_mode,
  new_file: d.new_file,
  renamed_file: d.renamed_file,
  deleted_file: d.deleted_file,
  generated_file: d.generated_file,
  diff: d.diff,
  too_large: d.too_large,
  collapsed: d.collapsed,
});

const personOf = (u: { name: string; email: string }): Person => ({ name: u.name, email: u.email });

/** Answers git's refusals of a merge as GitLab's merge API does. */
function mergeRefusal(e: unknown): never {
  if (e instanceof MergeConflictError) throw unprocessable("Branch cannot be merged");
  if (e instanceof RepositoryError && e.kind === "stale") throw conflict("The branch was changed meanwhile");
  throw e;
}

/** Publishes the ref moves a merge or rebase made, through the pushes' one builder. */
async function announceMoves(kit: ServiceKit, dir: string, moves: PushedRef[], p: { project_id: number; project_path: string; user: { id: number; username: string } }) {
  const events = await pushAnnouncements(dir, moves, { id: p.project_id, path_with_namespace: p.project_path }, { id: p.user.id, username: p.user.username }, kit.baseUrl);
  if (events.length) await kit.events.transact(async () => undefined, () => events);
}

/** The merge request side of the repositories: diffs, mergeability, merges, rebases and MR refs. */
export const mergeRequestsRepositoryActions = (kit: ServiceKit, storages: LocalStorages): Record<string, ActionSchema> =>
  actionsOf("repositories", [
    onProjectStorage(kit, storages, Repositories.mergeRequests.mergeability, async (ctx, dir) => Promise.all(ctx.params.pairs.map((p) => gitState(dir, p.source_branch, p.target_branch)))),

    onProjectStorage(kit, storages, Repositories.mergeRequests.diff, async (ctx, dir) => {
      const p = ctx.params;
      const found = dir ? await batchCheck(dir, [`${p.base_sha}^{commit}`, `${p.head_sha}^{commit}`]) : [];
      if (!dir || found.some((f) => !f)) throw notFound("Commit");
      const [commits, commitsTotal, diffs, raw] = await Promise.all([
        p.commits ? listCommits(dir, { ref: p.head_sha, notIn: p.base_sha, page: p.commits.page, perPage: p.commits.per_page }) : null,
        p.commits ? countCommits(dir, { ref: p.head_sha, notIn: p.base_sha }) : 0,
        p.diffs ? diffBetween(dir, p.base_sha, p.head_sha, "all" in p.diffs ? { expanded: p.diffs.expanded } : { enforceLimits: false }) : null,
        p.raw ? rawDiff(dir, p.base_sha, p.head_sha) : null,
      ]);
      const files = diffs?.diffs ?? [];
      const shown = p.diffs && !("all" in p.diffs) ? files.slice((p.diffs.page - 1) * p.diffs.per_page, p.diffs.page * p.diffs.per_page) : files;
      return {
        commits: commits?.commits ?? [],
        commits_total: commitsTotal,
        diffs: shown.map(presentDiff),
        diffs_total: files.length,
        overflow: diffs?.overflow ?? false,
        raw: raw ? raw.toString("utf8") : null,
      };
    }),

    onProjectStorage(kit, storages, Repositories.mergeRequests.merge, async (ctx, dir) => {
      const p = ctx.params;
      if (!dir) throw unprocessable("Branch cannot be merged");
      const [source, target] = await Promise.all([branchTarget(dir, p.source_branch), branchTarget(dir, p.target_branch)]);
      if (!source || !target) throw unprocessable("Branch cannot be merged");
      if (source !== p.sha) throw conflict(`SHA does not match HEAD of source branch: ${source}`);
      const person = personOf(p.user);
      // Semi-linear and fast-forward merges need the target in the source's history.
      if (p.merge_method !== "merge" && !(await isAncestor(dir, target, source))) throw unprocessable("Branch cannot be merged");
      let tip = source;
      let squashSha: string | null = null;
      try {
        if (p.squash) tip = squashSha = await squash(dir, { sourceId: source, targetId: target, message: p.squash_message, author: person, committer: person });
        let newTarget = tip;
        if (p.merge_method !== "ff") {
          const { tree } = await checkMerge(dir, target, tip);
          if (!tree) throw new MergeConflictError([]);
          newTarget = await writeCommit(dir, { tree, parents: [target, tip], message: p.message, author: person, committer: person });
        }
        const updates: RefUpdate[] = [
          { ref: `refs/heads/${p.target_branch}`, newId: newTarget, oldId: target },
          { ref: `refs/merge-requests/${p.iid}/head`, newId: source },
          ...(p.remove_source_branch ? [{ ref: `refs/heads/${p.source_branch}`, newId: null, oldId: source }] : []),
        ];
        await updateRefs(dir, updates);
        const moves: PushedRef[] = [
          { ref: `refs/heads/${p.target_branch}`, oldSha: target, newSha: newTarget },
          ...(p.remove_source_branch ? [{ ref: `refs/heads/${p.source_branch}`, oldSha: source, newSha: ZERO_SHA }] : []),
        ];
        await announceMoves(kit, dir, moves, p);
        // A fast-forward writes no merge commit.
        return { merge_commit_sha: p.merge_method === "ff" ? null : newTarget, squash_commit_sha: squashSha, source_sha: source, target_sha: newTarget, source_branch_removed: p.remove_source_branch };
      } catch (e) {
        return mergeRefusal(e);
      }
    }),

    onProjectStorage(kit, storages, Repositories.mergeRequests.rebase, async (ctx, dir) => {
      const p = ctx.params;
      const [source, target] = dir ? await Promise.all([branchTarget(dir, p.source_branch), branchTarget(dir, p.target_branch)]) : [null, null];
      if (!dir || !source || !target) throw unprocessable("Rebase failed: the source or target branch is missing");
      if (p.sha && source !== p.sha) throw conflict(`SHA does not match HEAD of source branch: ${source}`);
      let head: string;
      try {
        head = await rebase(dir, { branch: p.source_branch, expectedSourceId: source, targetId: target, committer: personOf(p.user) });
      } catch (e) {
        if (e instanceof MergeConflictError) throw unprocessable("Rebase failed: Rebase locally, resolve all conflicts, then push the branch.");
        return mergeRefusal(e);
      }
      if (head !== source) await announceMoves(kit, dir, [{ ref: `refs/heads/${p.source_branch}`, oldSha: source, newSha: head }], p);
      return { sha: head };
    }),

    onProjectStorage(kit, storages, Repositories.mergeRequests.writeRefs, async (ctx, dir) => {
      if (!dir) return { written: 0 };
      const committer = { name: "GitLab", email: `noreply@${new URL(kit.baseUrl).hostname}` };
      let written = 0;
      for (const r of ctx.params.refs) {
        const [exists] = await batchCheck(dir, [`${r.source_sha}^{commit}`]);
        if (!exists) continue;
        const mergeRef = `refs/merge-requests/${r.iid}/merge`;
        await updateRefs(dir, [{ ref: `refs/merge-requests/${r.iid}/head`, newId: r.source_sha }]);
        written++;
        try {
          if (!r.target_sha) throw new MergeConflictError([]);
          await mergeToRef(dir, { ref: mergeRef, targetId: r.target_sha, sourceId: r.source_sha, message: `Merge ${r.source_sha} into ${r.target_sha}`, committer });
        } catch (e) {
          if (!(e instanceof MergeConflictError)) throw e;
          // No merge to show: the ref goes (when it was there).
          const [stale] = await batchCheck(dir, [mergeRef]);
          if (stale) await updateRefs(dir, [{ ref: mergeRef, newId: null }]);
        }
      }
      return { written };
    }),
  ]);
