import { RepositoryError, missing } from "./errors";
import { batchCheck, readCommits, writeCommit, type CommitData, type Person } from "./objects";
import { checkMerge } from "./merge";
import { branchTarget, updateRefs } from "./refs";
import { emptyTreeId } from "./diff";

/**
 * GitLab's cherry-pick and revert of a commit onto a branch (Gitaly's UserCherryPick / UserRevert),
 * made without a working tree: git 2.39's `merge-tree --write-tree` has no `--merge-base`, so the
 * three-way merge is set up with throwaway commits whose only parent is the wanted base (as
 * merge.ts's rebase does). The branch moves only if it is still where it was read.
 */
export type PickKind = "cherry_pick" | "revert";

export interface PickParams {
  branch: string;
  /** The commit to apply (or undo), a full id. */
  commitId: string;
  /** The new commit's message (GitLab builds it: "(cherry picked from commit …)", "Revert …"). */
  message: string;
  committer: Person;
  /** Defaults to the committer (a cherry-pick keeps the original author: the caller passes it). */
  author?: Person;
  /** Computes the result without writing a ref (GitLab's dry_run). */
  dryRun?: boolean;
}

/** Why a pick cannot be made: the changes do not apply (`conflict`) or change nothing (`empty`). */
export class PickError extends RepositoryError {
  constructor(readonly reason: "conflict" | "empty") {
    super("conflict", reason === "empty" ? "The change is already on the branch" : "The change does not apply cleanly");
    this.name = "PickError";
  }
}

async function treeOf(cwd: string, commit: string): Promise<string> {
  const [tree] = await batchCheck(cwd, [`${commit}^{tree}`]);
  if (!tree) throw missing("Commit Not Found");
  return tree.id;
}

/** A throwaway commit holding `tree` on `base` (a root commit when base is null): merging two of them merges from `base`. */
async function onBase(cwd: string, tree: string, base: string | null, who: Person): Promise<string> {
  return writeCommit(cwd, { tree, parents: base ? [base] : [], message: "pick", author: who, committer: who });
}

/**
 * The tree of `head` with the change from `from` to `to` applied: a three-way merge of head's and
 * to's trees from `from`. Null when it conflicts.
 */
async function applyChange(cwd: string, headTree: string, fromTree: string, toTree: string, who: Person): Promise<string | null> {
  // A shared throwaway base commit, so both sides' merge base is exactly `fromTree`.
  const base = await onBase(cwd, fromTree, null, who);
  const [ours, theirs] = await Promise.all([onBase(cwd, headTree, base, who), onBase(cwd, toTree, base, who)]);
  return (await checkMerge(cwd, ours, theirs)).tree;
}

/**
 * Applies a commit's change (cherry_pick: parent → commit) or its inverse (revert: commit → parent)
 * on a branch, as a new commit; merges use their first parent, a root commit the empty tree.
 * Answers the new commit and the branch's head before it.
 */
export async function pickCommit(cwd: string, kind: PickKind, p: PickParams): Promise<{ commit: CommitData | null; before: string }> {
  const head = await branchTarget(cwd, p.branch);
  if (!head) throw missing("Branch Not Found");
  const picked = (await readCommits(cwd, [p.commitId])).get(p.commitId);
  if (!picked) throw missing("Commit Not Found");
  const parent = picked.parent_ids[0] ?? null;
  const [headTree, commitTree, parentTree] = await Promise.all([treeOf(cwd, head), treeOf(cwd, picked.id), parent ? treeOf(cwd, parent) : emptyTreeId(cwd)]);
  const [fromTree, toTree] = kind === "cherry_pick" ? [parentTree, commitTree] : [commitTree, parentTree];
  const tree = await applyChange(cwd, headTree, fromTree, toTree, p.committer);
  if (!tree) throw new PickError("conflict");
  if (tree === headTree) throw new PickError("empty");
  if (p.dryRun) return { commit: null, before: head };
  const id = await writeCommit(cwd, { tree, parents: [head], message: p.message, author: p.author ?? p.committer, committer: p.committer });
  try {
    await updateRefs(cwd, [{ ref: `refs/heads/${p.branch}`, newId: id, oldId: head }]);
  } catch (e) {
    if (e instanceof RepositoryError && e.kind === "stale") throw new RepositoryError("stale", `Could not update refs/heads/${p.branch}. Please refresh and try again.`);
    throw e;
  }
  return { commit: (await readCommits(cwd, [id])).get(id)!, before: head };
}
