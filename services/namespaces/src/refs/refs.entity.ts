import { iso } from "@collab/core";
import type { RepositoryCommitRow, RepositoryRefRow } from "../db/schema";
import { branchMatches, minimumLevel, type BranchProtection } from "../protected-branches/matching";

/** GitLab's Commit entity for the commit a ref points at. */
export function presentCommit(sha: string, c: RepositoryCommitRow | null, projectWebUrl: string) {
  const at = iso(c?.createdAt ?? null);
  return {
    id: sha,
    short_id: sha.slice(0, 8),
    created_at: at,
    parent_ids: c?.parentIds ?? ([] as string[]),
    title: c?.title ?? "",
    message: c?.message ?? "",
    author_name: c?.authorName ?? "",
    author_email: c?.authorEmail ?? "",
    authored_date: at,
    committer_name: c?.authorName ?? "",
    committer_email: c?.authorEmail ?? "",
    committed_date: at,
    trailers: {},
    extended_trailers: {},
    web_url: `${projectWebUrl}/-/commit/${sha}`,
  };
}

/**
 * GitLab's Branch entity, protection read from the project's protected branches (the default
 * branch is protected by default: see ensureDefaultProtection).
 */
export function presentBranch(
  ref: RepositoryRefRow,
  commit: RepositoryCommitRow | null,
  o: { projectWebUrl: string; defaultBranch: string | null; role: number; protections: BranchProtection[] },
) {
  const isProtected = o.protections.some((p) => branchMatches(p.name, ref.name));
  const pushLevel = minimumLevel(o.protections, ref.name, "push");
  return {
    name: ref.name,
    commit: presentCommit(ref.sha, commit, o.projectWebUrl),
    merged: false,
    protected: isProtected,
    developers_can_push: isProtected && pushLevel <= 30,
    developers_can_merge: isProtected && minimumLevel(o.protections, ref.name, "merge") <= 30,
    can_push: o.role >= pushLevel,
    default: ref.name === o.defaultBranch,
    web_url: `${o.projectWebUrl}/-/tree/${ref.name}`,
  };
}

export function presentTag(ref: RepositoryRefRow, commit: RepositoryCommitRow | null, projectWebUrl: string) {
  return {
    name: ref.name,
    message: ref.message ?? "",
    target: ref.sha,
    commit: presentCommit(ref.sha, commit, projectWebUrl),
    release: null,
    protected: false,
    created_at: ref.message ? iso(ref.createdAt) : null,
  };
}
