/**
 * What decides whether an open merge request can be merged now, in GitLab's order of mergeability
 * checks (MergeRequests::Mergeability): draft, commits (the source branch must exist), unresolved
 * threads (only when the project requires them resolved), the git checks (not yet checked,
 * conflicts, a rebase the merge method needs), approvals, merge_after. There are no pipelines.
 */
export interface MergeFacts {
  state: string;
  draft: boolean;
  sourceBranchExists: boolean;
  /** Unresolved resolvable notes that block (0 unless the project setting is on). */
  blockingDiscussions: number;
  /** GitLab's stored merge_status: unchecked, can_be_merged, cannot_be_merged (conflicts or a branch gone). */
  gitStatus: "unchecked" | "can_be_merged" | "cannot_be_merged";
  /** The project merges semi-linear or fast-forward and the target is not in the source's history. */
  needsRebase: boolean;
  approvalsLeft: number;
  mergeAfter: Date | null;
  now: Date;
}

export type DetailedMergeStatus =
  | "not_open"
  | "draft_status"
  | "commits_status"
  | "discussions_not_resolved"
  | "unchecked"
  | "conflict"
  | "need_rebase"
  | "not_approved"
  | "merge_time"
  | "mergeable";

export function detailedMergeStatus(f: MergeFacts): DetailedMergeStatus {
  if (f.state !== "opened") return "not_open";
  if (f.draft) return "draft_status";
  if (!f.sourceBranchExists) return "commits_status";
  if (f.blockingDiscussions > 0) return "discussions_not_resolved";
  if (f.gitStatus === "unchecked") return "unchecked";
  if (f.gitStatus === "cannot_be_merged") return "conflict";
  if (f.needsRebase) return "need_rebase";
  if (f.approvalsLeft > 0) return "not_approved";
  if (f.mergeAfter && f.mergeAfter.getTime() > f.now.getTime()) return "merge_time";
  return "mergeable";
}

/** The deprecated merge_status: only the git side (can the branches be merged), not the other checks. */
export const mergeStatus = (f: Pick<MergeFacts, "sourceBranchExists" | "gitStatus">) => (!f.sourceBranchExists ? "cannot_be_merged" : f.gitStatus);

/** GitLab's has_conflicts: the git check failed with both branches there. */
export const hasConflicts = (f: Pick<MergeFacts, "sourceBranchExists" | "gitStatus">) => f.sourceBranchExists && f.gitStatus === "cannot_be_merged";
