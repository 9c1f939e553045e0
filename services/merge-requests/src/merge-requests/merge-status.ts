/**
 * What decides whether an open merge request can be merged now, in GitLab's order of mergeability
 * checks (MergeRequests::Mergeability): draft, commits (the source branch must exist), unresolved
 * threads (only when the project requires them resolved), approvals, merge_after. There are no
 * conflicts, pipelines or rebases to check here.
 */
export interface MergeFacts {
  state: string;
  draft: boolean;
  sourceBranchExists: boolean;
  /** Unresolved resolvable notes that block (0 unless the project setting is on). */
  blockingDiscussions: number;
  approvalsLeft: number;
  mergeAfter: Date | null;
  now: Date;
}

export type DetailedMergeStatus = "not_open" | "draft_status" | "commits_status" | "discussions_not_resolved" | "not_approved" | "merge_time" | "mergeable";

export function detailedMergeStatus(f: MergeFacts): DetailedMergeStatus {
  if (f.state !== "opened") return "not_open";
  if (f.draft) return "draft_status";
  if (!f.sourceBranchExists) return "commits_status";
  if (f.blockingDiscussions > 0) return "discussions_not_resolved";
  if (f.approvalsLeft > 0) return "not_approved";
  if (f.mergeAfter && f.mergeAfter.getTime() > f.now.getTime()) return "merge_time";
  return "mergeable";
}

/** The deprecated merge_status: only the git side (can the branches be merged), not the other checks. */
export const mergeStatus = (f: Pick<MergeFacts, "sourceBranchExists">) => (f.sourceBranchExists ? "can_be_merged" : "cannot_be_merged");
