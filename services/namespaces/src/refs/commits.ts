import { badRequestMessage } from "@collab/core";
import { preparedQuery, type Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
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
