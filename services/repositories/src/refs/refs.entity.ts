import type { BranchData, CommitData, TagData } from "@collab/git";
import type { Branch, Tag } from "@collab/repositories-contract";

type Commit = Branch["commit"];

/** GitLab's Commit entity: git's data with its web_url. */
export function presentCommit(c: CommitData, projectWebUrl: string): Commit {
  return {
    id: c.id,
    short_id: c.short_id,
    created_at: c.created_at,
    parent_ids: c.parent_ids,
    title: c.title,
    message: c.message,
    author_name: c.author_name,
    author_email: c.author_email,
    authored_date: c.authored_date,
    committer_name: c.committer_name,
    committer_email: c.committer_email,
    committed_date: c.committed_date,
    trailers: c.trailers,
    extended_trailers: c.extended_trailers,
    web_url: `${projectWebUrl}/-/commit/${c.id}`,
  };
}

/** A branch's protection as namespaces answers it (protectedBranches.pushRules). */
export interface BranchRule {
  protected: boolean;
  /** The lowest role that may push or merge (61: no one; 30 on an unprotected branch). */
  push_access_level: number;
  merge_access_level: number;
}

const DEVELOPER = 30;
const UNPROTECTED: BranchRule = { protected: false, push_access_level: DEVELOPER, merge_access_level: DEVELOPER };

/** What presenting a page of branches reads once for the page. */
export interface BranchPage {
  projectWebUrl: string;
  defaultBranch: string | null;
  /** The default branch's head (null in a repository without it). */
  defaultHead: string | null;
  /** Branches whose head the default branch contains (git's `--merged`). */
  mergedIntoDefault: ReadonlySet<string>;
  rules: ReadonlyMap<string, BranchRule>;
  /** The caller's effective role, and whether they may push to the repository at all (push_code). */
  role: number;
  mayPushCode: boolean;
}

/**
 * GitLab's Branch entity. `merged`: contained in the default branch without being its head (a
 * branch just made from it is not merged); `developers_can_*`: a protection admits Developers;
 * `can_push`: the caller may push code and their role reaches the branch's push level.
 */
export function presentBranch(b: BranchData, p: BranchPage): Branch {
  const rule = p.rules.get(b.name) ?? UNPROTECTED;
  return {
    name: b.name,
    commit: presentCommit(b.commit, p.projectWebUrl),
    merged: p.mergedIntoDefault.has(b.name) && b.commit.id !== p.defaultHead,
    protected: rule.protected,
    developers_can_push: rule.protected && rule.push_access_level <= DEVELOPER,
    developers_can_merge: rule.protected && rule.merge_access_level <= DEVELOPER,
    can_push: p.mayPushCode && p.role >= rule.push_access_level,
    default: b.name === p.defaultBranch,
    web_url: `${p.projectWebUrl}/-/tree/${b.name}`,
  };
}

/** GitLab's Tag entity (no releases, no protected tags). */
export function presentTag(t: TagData, projectWebUrl: string): Tag {
  return {
    name: t.name,
    message: t.message,
    target: t.target,
    commit: t.commit ? presentCommit(t.commit, projectWebUrl) : null,
    release: null,
    protected: false,
    created_at: t.created_at,
  };
}
