import { badRequestMessage, conflict, unprocessable } from "@collab/core";
import { preparedQuery, type Db } from "@collab/db";
import { and, eq, inArray, sql } from "drizzle-orm";
import { repositoryCommits, repositoryRefs, type RepositoryCommitRow } from "../db/schema";
import { newSha, validRefName } from "./refs";

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

async function branchRow(db: Db, projectId: number, name: string) {
  const [row] = await db.select().from(repositoryRefs).where(and(eq(repositoryRefs.projectId, projectId), eq(repositoryRefs.kind, "branch"), eq(repositoryRefs.name, name)));
  return row;
}

async function insertCommit(db: Db, projectId: number, message: string, author: CommitAuthor, parentIds: string[]): Promise<RepositoryCommitRow> {
  const [row] = await db
    .insert(repositoryCommits)
    .values({ sha: newSha(), projectId, title: titleOf(message), message, authorName: author.name, authorEmail: author.email, parentIds })
    .returning();
  return row;
}

/**
 * GitLab's POST /repository/commits without trees: a commit on `branch` whose parent is the
 * branch's head, or (for a new branch) the head of `startBranch`. Moves the branch in the same
 * transaction. 400 as GitLab when neither branch exists.
 */
export async function commitToBranch(db: Db, projectId: number, o: { branch: string; startBranch?: string; message: string; author: CommitAuthor }): Promise<{ commit: RepositoryCommitRow; push: Push }> {
  if (!validRefName(o.branch)) throw badRequestMessage("Branch name is invalid");
  return db.transaction(async (tx) => {
    const current = await branchRow(tx, projectId, o.branch);
    let parent = current?.sha ?? null;
    if (!current && o.startBranch !== undefined) {
      const start = await branchRow(tx, projectId, o.startBranch);
      if (!start) throw badRequestMessage(`Invalid start branch: ${o.startBranch}`);
      parent = start.sha;
    } else if (!current) {
      // An empty repository takes a root commit; otherwise a new branch needs its start.
      const [any] = await tx.select({ id: repositoryRefs.id }).from(repositoryRefs).where(and(eq(repositoryRefs.projectId, projectId), eq(repositoryRefs.kind, "branch"))).limit(1);
      if (any) throw badRequestMessage("You can only create or edit files when you are on a branch");
    }
    const commit = await insertCommit(tx, projectId, o.message, o.author, parent ? [parent] : []);
    if (current) await tx.update(repositoryRefs).set({ sha: commit.sha }).where(eq(repositoryRefs.id, current.id));
    else await tx.insert(repositoryRefs).values({ projectId, kind: "branch", name: o.branch, sha: commit.sha });
    return { commit, push: { branch: o.branch, before: current?.sha ?? null, after: commit.sha } };
  });
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

const headsOf = preparedQuery((db: Db) =>
  db
    .select({ projectId: repositoryRefs.projectId, name: repositoryRefs.name, sha: repositoryRefs.sha })
    .from(repositoryRefs)
    .where(
      and(
        sql`${repositoryRefs.projectId} = ANY(${sql.placeholder("projectIds")}::int[])`,
        eq(repositoryRefs.kind, "branch"),
        sql`${repositoryRefs.name} = ANY(${sql.placeholder("names")}::text[])`,
      ),
    )
    .prepare("namespaces_branch_heads"),
);

/** Heads of branches of any projects (sha null for a missing one), in one prepared statement. */
export async function branchHeads(db: Db, refs: { project_id: number; branch: string }[]): Promise<{ project_id: number; branch: string; sha: string | null }[]> {
  if (!refs.length) return [];
  const projectIds = [...new Set(refs.map((r) => r.project_id))];
  const names = [...new Set(refs.map((r) => r.branch))];
  const rows = await headsOf(db, { projectIds, names });
  const found = new Map(rows.map((r) => [`${r.projectId}:${r.name}`, r.sha]));
  return refs.map((r) => ({ project_id: r.project_id, branch: r.branch, sha: found.get(`${r.project_id}:${r.branch}`) ?? null }));
}
