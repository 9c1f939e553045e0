import { GitError, gitText, runGit } from "./run";
import { MergeConflictError, missing, RepositoryError } from "./errors";
import { isObjectId, splitNul } from "./parse";
import { batchCheck, readCommits, writeCommit, type Person } from "./objects";
import { branchTarget, isAncestor, mergeBase, updateRefs } from "./refs";

export interface MergeCheck {
  /** The merged tree when git merges cleanly, else null. */
  tree: string | null;
  /** Conflicting paths (empty with a null tree: unrelated histories). */
  conflicts: string[];
}

/**
 * Merges two commits in memory (`merge-tree --write-tree`, git ≥ 2.38): nothing is written but
 * objects, so it answers mergeability and conflicts for merge requests as well as merges.
 */
export async function checkMerge(cwd: string, ours: string, theirs: string): Promise<MergeCheck> {
  if (!isObjectId(ours) || !isObjectId(theirs)) throw new TypeError("checkMerge takes full object ids");
  try {
    const { stdout, code } = await runGit(cwd, ["merge-tree", "--write-tree", "--name-only", "-z", "--no-messages", ours, theirs], {
      okCodes: [1],
    });
    const [tree, ...paths] = splitNul(stdout.toString("utf8"));
    return code === 0 ? { tree, conflicts: [] } : { tree: null, conflicts: [...new Set(paths.filter((p) => p !== ""))] };
  } catch (e) {
    // "refusing to merge unrelated histories": not mergeable, nothing to point at.
    if (e instanceof GitError && /unrelated histories/.test(e.stderr)) return { tree: null, conflicts: [] };
    throw e;
  }
}

async function currentTarget(cwd: string, branch: string, expected?: string): Promise<string> {
  const id = await branchTarget(cwd, branch);
  if (!id) throw missing("Branch Not Found");
  if (expected && expected !== id) throw new RepositoryError("stale", "The branch was changed meanwhile");
  return id;
}

export interface MergeParams {
  /** The branch the merge lands on (GitLab's target branch). */
  targetBranch: string;
  /** Its commit when the caller checked it: the merge is refused if it moved. */
  expectedTargetId?: string;
  sourceId: string;
  message: string;
  committer: Person;
  author?: Person;
}

/** A merge commit of source into the target branch; answers the new commit's id. */
export async function mergeCommit(cwd: string, p: MergeParams): Promise<string> {
  const target = await currentTarget(cwd, p.targetBranch, p.expectedTargetId);
  const { tree, conflicts } = await checkMerge(cwd, target, p.sourceId);
  if (!tree) throw new MergeConflictError(conflicts);
  const id = await writeCommit(cwd, { tree, parents: [target, p.sourceId], message: p.message, author: p.author ?? p.committer, committer: p.committer });
  await updateRefs(cwd, [{ ref: `refs/heads/${p.targetBranch}`, newId: id, oldId: target }]);
  return id;
}

/**
 * A merge commit of source onto target written to a ref of its own (GitLab's
 * refs/merge-requests/:iid/merge), the target branch untouched; answers the commit's id.
 */
export async function mergeToRef(cwd: string, p: { ref: string; targetId: string; sourceId: string; message: string; committer: Person }): Promise<string> {
  if (!p.ref.startsWith("refs/")) throw new TypeError("mergeToRef takes a full ref name");
  const { tree, conflicts } = await checkMerge(cwd, p.targetId, p.sourceId);
  if (!tree) throw new MergeConflictError(conflicts);
  const id = await writeCommit(cwd, { tree, parents: [p.targetId, p.sourceId], message: p.message, author: p.committer, committer: p.committer });
  await updateRefs(cwd, [{ ref: p.ref, newId: id }]);
  return id;
}

/** GitLab's semi-linear and fast-forward precondition: the target is already in the source's history. */
export async function canFastForward(cwd: string, targetId: string, sourceId: string): Promise<boolean> {
  return isAncestor(cwd, targetId, sourceId);
}

/** Moves the target branch to the source commit; refused (kind "conflict") when that is no fast-forward. */
export async function fastForward(cwd: string, p: Pick<MergeParams, "targetBranch" | "expectedTargetId" | "sourceId">): Promise<string> {
  const target = await currentTarget(cwd, p.targetBranch, p.expectedTargetId);
  if (!(await canFastForward(cwd, target, p.sourceId))) throw new RepositoryError("conflict", "Fast-forward merge is not possible");
  await updateRefs(cwd, [{ ref: `refs/heads/${p.targetBranch}`, newId: p.sourceId, oldId: target }]);
  return p.sourceId;
}

async function treeOf(cwd: string, commit: string): Promise<string> {
  const [tree] = await batchCheck(cwd, [`${commit}^{tree}`]);
  if (!tree) throw missing("Commit Not Found");
  return tree.id;
}

/**
 * GitLab's squash: one commit with the source's tree on the merge base of source and target. Moves
 * no ref: the caller merges (or fast-forwards) the answered commit.
 */
export async function squash(cwd: string, p: { sourceId: string; targetId: string; message: string; author: Person; committer: Person }): Promise<string> {
  const base = await mergeBase(cwd, p.targetId, p.sourceId);
  if (!base) throw new MergeConflictError([]);
  return writeCommit(cwd, { tree: await treeOf(cwd, p.sourceId), parents: [base], message: p.message, author: p.author, committer: p.committer });
}

/**
 * Replays the branch's own commits (merges left out, patches already in the target skipped, as
 * `git rebase`) on the target, keeping each author and message; the branch moves only if it is
 * still at `expectedSourceId`. Answers the branch's new head.
 *
 * git 2.39's merge-tree has no --merge-base, so each pick merges C with a throwaway commit holding
 * the current tree on C's parent P: their merge base is then P, which is exactly a cherry-pick.
 */
export async function rebase(cwd: string, p: { branch: string; expectedSourceId?: string; targetId: string; committer: Person }): Promise<string> {
  const source = await currentTarget(cwd, p.branch, p.expectedSourceId);
  if (!(await mergeBase(cwd, p.targetId, source))) throw new MergeConflictError([]);
  if (await isAncestor(cwd, p.targetId, source)) return source; // up to date: nothing is rewritten
  const picks = (
    await gitText(cwd, ["rev-list", "--reverse", "--topo-order", "--right-only", "--cherry-pick", "--no-merges", `${p.targetId}...${source}`])
  )
    .split("\n")
    .filter(Boolean);
  const commits = await readCommits(cwd, picks);
  let head = p.targetId;
  let headTree = await treeOf(cwd, head);
  for (const id of picks) {
    const c = commits.get(id)!;
    const parent = c.parent_ids[0];
    if (!parent) throw new MergeConflictError([]);
    const onParent = await writeCommit(cwd, { tree: headTree, parents: [parent], message: "rebase", author: p.committer, committer: p.committer });
    const { tree, conflicts } = await checkMerge(cwd, onParent, id);
    if (!tree) throw new MergeConflictError(conflicts);
    if (tree === headTree) continue; // already applied: git rebase drops it too
    const author = { name: c.author_name, email: c.author_email, rawDate: c.authored_date };
    head = await writeCommit(cwd, { tree, parents: [head], message: c.message, author, committer: p.committer });
    headTree = tree;
  }
  if (head !== source) await updateRefs(cwd, [{ ref: `refs/heads/${p.branch}`, newId: head, oldId: source }]);
  return head;
}
