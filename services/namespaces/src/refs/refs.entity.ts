import { iso } from "@collab/core";
import type { RepositoryCommitRow, RepositoryRefRow } from "../db/schema";

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

/** GitLab's Branch entity. The default branch is protected (GitLab's default branch protection). */
export function presentBranch(ref: RepositoryRefRow, commit: RepositoryCommitRow | null, o: { projectWebUrl: string; defaultBranch: string | null; role: number }) {
  const isDefault = ref.name === o.defaultBranch;
  return {
    name: ref.name,
    commit: presentCommit(ref.sha, commit, o.projectWebUrl),
    merged: false,
    protected: isDefault,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: o.role >= (isDefault ? 40 : 30),
    default: isDefault,
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
