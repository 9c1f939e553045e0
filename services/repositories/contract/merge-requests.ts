/**
 * What merge requests ask of a project's repository (bus only; each call runs on a replica serving
 * the project's storage): their diff and commits, whether they merge, the merge itself, the
 * rebase, and the refs GitLab keeps for them (refs/merge-requests/<iid>/head and /merge).
 */
import { actionContract } from "@collab/core";
import { z } from "zod";

const projectId = z.number().int().positive().max(2_147_483_647);
const sha = z.string().regex(/^[0-9a-f]{40}$/);
const branch = z.string().min(1).max(1024);
const iid = z.number().int().positive().max(2_147_483_647);

/** Who writes the commits of a merge or rebase (the merging user). */
const Committer = z.object({ id: z.number().int().positive(), username: z.string(), name: z.string().min(1).max(255), email: z.string().min(1).max(255) });

/** A branch pair of a merge request. */
const BranchPair = z.object({ source_branch: branch, target_branch: branch });

/**
 * A merge request's git state: the heads (null when a branch is gone), the merge base, how many
 * files the diff changes (GitLab's changes_count, "1000+" past the limit), whether git merges the
 * two without conflicts, and whether the target is already in the source's history (semi-linear
 * and fast-forward merges need it).
 */
export const MergeRequestGitStateSchema = z.object({
  source_sha: sha.nullable(),
  target_sha: sha.nullable(),
  base_sha: sha.nullable(),
  changes_count: z.string(),
  has_conflicts: z.boolean(),
  can_fast_forward: z.boolean(),
  /** The source head is in the target's history (merged by a push). */
  source_merged: z.boolean(),
});
export type MergeRequestGitState = z.infer<typeof MergeRequestGitStateSchema>;

/** A commit as GitLab's Commit entity carries it (web_url added by the presenter). */
export const RepositoryCommitSchema = z.object({
  id: z.string(),
  short_id: z.string(),
  title: z.string(),
  message: z.string(),
  parent_ids: z.array(z.string()),
  author_name: z.string(),
  author_email: z.string(),
  authored_date: z.string(),
  committer_name: z.string(),
  committer_email: z.string(),
  committed_date: z.string(),
  created_at: z.string(),
  trailers: z.record(z.string(), z.string()),
  extended_trailers: z.record(z.string(), z.array(z.string())),
});
export type RepositoryCommit = z.infer<typeof RepositoryCommitSchema>;

/** One changed file as GitLab's Diff entity shows it. */
export const RepositoryDiffSchema = z.object({
  old_path: z.string(),
  new_path: z.string(),
  a_mode: z.string(),
  b_mode: z.string(),
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
  generated_file: z.boolean(),
  diff: z.string(),
  too_large: z.boolean(),
  collapsed: z.boolean(),
});
export type RepositoryDiff = z.infer<typeof RepositoryDiffSchema>;

const Page = z.object({ page: z.number().int().min(1).max(100_000), per_page: z.number().int().min(1).max(100) });

export const MergeRequestsRepositoryActions = {
  mergeRequests: {
    /** The git state of branch pairs of a project, in the order asked (cheap: no diff text). */
    mergeability: actionContract("repositories.mergeRequests.mergeability", {
      input: () => z.object({ project_id: projectId, pairs: z.array(BranchPair).min(1).max(100) }),
      output: () => z.array(MergeRequestGitStateSchema),
      idempotent: true,
    }),
    /**
     * A merge request's diff from `base_sha` to `head_sha` (its diff refs): the commits of the
     * head not in the base (newest first, paged), the files (all with GitLab's limits and
     * `overflow`, or a page of them) and the raw patch. 404 when a sha names no commit here.
     */
    diff: actionContract("repositories.mergeRequests.diff", {
      input: () =>
        z.object({
          project_id: projectId,
          base_sha: sha,
          head_sha: sha,
          commits: Page.optional(),
          /** Every file with the collection limits (`changes`), or a page of files (`diffs`). */
          diffs: z.union([z.object({ all: z.literal(true), expanded: z.boolean() }), Page]).optional(),
          raw: z.boolean().optional(),
        }),
      output: () =>
        z.object({
          commits: z.array(RepositoryCommitSchema),
          commits_total: z.number().int(),
          diffs: z.array(RepositoryDiffSchema),
          diffs_total: z.number().int(),
          overflow: z.boolean(),
          raw: z.string().nullable(),
        }),
      idempotent: true,
    }),
    /**
     * Merges the source into the target by `merge_method` (`merge`: a merge commit;
     * `rebase_merge`: a merge commit, refused unless the target is in the source's history;
     * `ff`: the target moves to the source), after squashing when asked. Every ref moves only
     * from the value read (409 when the source moved from `sha`, 422 when git cannot merge).
     * Publishes the pushes of the target (and of the removed source).
     */
    merge: actionContract("repositories.mergeRequests.merge", {
      input: () =>
        BranchPair.extend({
          project_id: projectId,
          /** The project's full path (the pushes' commit urls). */
          project_path: z.string(),
          iid,
          sha,
          merge_method: z.enum(["merge", "rebase_merge", "ff"]),
          message: z.string().min(1).max(100_000),
          squash: z.boolean(),
          squash_message: z.string().min(1).max(100_000),
          remove_source_branch: z.boolean(),
          user: Committer,
        }),
      output: () => z.object({ merge_commit_sha: sha.nullable(), squash_commit_sha: sha.nullable(), source_sha: sha, target_sha: sha, source_branch_removed: z.boolean() }),
    }),
    /** Rebases the source onto the target (refused 409 when the source moved from `sha`, 422 on conflicts); publishes the push. */
    rebase: actionContract("repositories.mergeRequests.rebase", {
      input: () => BranchPair.extend({ project_id: projectId, project_path: z.string(), sha: sha.optional(), user: Committer }),
      output: () => z.object({ sha }),
    }),
    /**
     * Keeps refs/merge-requests/<iid>/head at the source head and /merge at the merge of source
     * into target (removed when they conflict), so `git fetch origin refs/merge-requests/1/head`
     * works. Safe to repeat.
     */
    writeRefs: actionContract("repositories.mergeRequests.writeRefs", {
      input: () => z.object({ project_id: projectId, refs: z.array(z.object({ iid, source_sha: sha, target_sha: sha.nullable() })).min(1).max(100) }),
      output: () => z.object({ written: z.number().int() }),
    }),
  },
};
