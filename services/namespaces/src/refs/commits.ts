import { conflict, unprocessable } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, inArray } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import { repositoryCommits, repositoryRefs, type RepositoryCommitRow } from "../db/schema";

/**
 * What is left of the simulated commit graph: the merge of a merge request's branches, until the
 * merge requests merge real repositories. Nothing else reads or writes these tables.
 */

/** A new commit id: 40 hex digits, like a SHA-1. */
const newSha = () => randomBytes(20).toString("hex");

export interface CommitAuthor {
  name: string;
  email: string;
}

/** What a push moved: the branch, its head before (null when the push created it) and after. */
export interface Push {
  branch: string;
  before: string | null;
  after: string;
}

const titleOf = (message: string) => message.split("\n")[0] ?? "";

async function insertCommit(db: Db, projectId: number, message: string, author: CommitAuthor, parentIds: string[]): Promise<RepositoryCommitRow> {
  const [row] = await db
    .insert(repositoryCommits)
    .values({ sha: newSha(), projectId, title: titleOf(message), message, authorName: author.name, authorEmail: author.email, parentIds })
    .returning();
  return row;
}

export interface MergeRequestMerge {
  sourceBranch: string;
  targetBranch: string;
  /** When given, the source head must still be this commit (GitLab's sha param). */
  expectedSha?: string;
  message: string;
  squash: boolean;
  squashMessage?: string;
  removeSourceBranch: boolean;
  author: CommitAuthor;
}

export interface MergeResult {
  merge_commit_sha: string;
  squash_commit_sha: string | null;
  source_sha: string;
  source_branch_removed: boolean;
  push: Push;
}

/**
 * Merges a source branch into a target branch in one transaction: an optional squash commit
 * (parent: the target head), then a merge commit with the target head and the (squashed) source
 * head as parents, the target moved onto it, the source branch removed when asked.
 * 422 "Branch cannot be merged" when either branch is gone; 409 when the source moved past `expectedSha`.
 */
export async function mergeBranches(db: Db, projectId: number, m: MergeRequestMerge): Promise<MergeResult> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(repositoryRefs)
      .where(and(eq(repositoryRefs.projectId, projectId), eq(repositoryRefs.kind, "branch"), inArray(repositoryRefs.name, [m.sourceBranch, m.targetBranch])))
      .for("update");
    const source = rows.find((r) => r.name === m.sourceBranch);
    const target = rows.find((r) => r.name === m.targetBranch);
    if (!source || !target) throw unprocessable("Branch cannot be merged");
    if (m.expectedSha !== undefined && m.expectedSha !== source.sha) throw conflict(`SHA does not match HEAD of source branch: ${source.sha}`);
    let merged = source.sha;
    let squashSha: string | null = null;
    if (m.squash) {
      const squash = await insertCommit(tx, projectId, m.squashMessage ?? m.message, m.author, [target.sha]);
      merged = squashSha = squash.sha;
    }
    const mergeCommit = await insertCommit(tx, projectId, m.message, m.author, [target.sha, merged]);
    await tx.update(repositoryRefs).set({ sha: mergeCommit.sha }).where(eq(repositoryRefs.id, target.id));
    if (m.removeSourceBranch) await tx.delete(repositoryRefs).where(eq(repositoryRefs.id, source.id));
    return {
      merge_commit_sha: mergeCommit.sha,
      squash_commit_sha: squashSha,
      source_sha: source.sha,
      source_branch_removed: m.removeSourceBranch,
      push: { branch: m.targetBranch, before: target.sha, after: mergeCommit.sha },
    };
  });
}
