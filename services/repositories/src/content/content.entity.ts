import type { BlameRange, CommitData, CommitStats, Comparison, DiffEntry, FileData } from "@collab/git";

/** git's strict ISO date as Rails presents a time: milliseconds, the commit's own offset kept. */
export function gitlabTime(isoDate: string): string {
  return /\.\d+(?:Z|[+-]\d\d:\d\d)$/.test(isoDate) ? isoDate : isoDate.replace(/(Z|[+-]\d\d:\d\d)$/, ".000$1");
}

export const commitWebUrl = (projectWebUrl: string, id: string) => `${projectWebUrl}/-/commit/${id}`;

/**
 * GitLab's Commit entity. `trailers`: whether they were asked for (the list reads them only with
 * `trailers=true`; a single commit always has them).
 */
export function presentCommit(c: CommitData, projectWebUrl: string, o: { trailers?: boolean } = {}) {
  const trailers = o.trailers ?? true;
  return {
    id: c.id,
    short_id: c.short_id,
    created_at: gitlabTime(c.created_at),
    parent_ids: c.parent_ids,
    title: c.title,
    message: c.message,
    author_name: c.author_name,
    author_email: c.author_email,
    authored_date: gitlabTime(c.authored_date),
    committer_name: c.committer_name,
    committer_email: c.committer_email,
    committed_date: gitlabTime(c.committed_date),
    trailers: trailers ? c.trailers : {},
    extended_trailers: trailers ? c.extended_trailers : {},
    web_url: commitWebUrl(projectWebUrl, c.id),
  };
}

/** GitLab's CommitDetail: the commit, its stats when asked, and no pipeline (none ran on it here). */
export function presentCommitDetail(c: CommitData & { stats?: CommitStats }, projectWebUrl: string, projectId: number, withStats: boolean) {
  return {
    ...presentCommit(c, projectWebUrl),
    ...(withStats && c.stats ? { stats: c.stats } : {}),
    status: null,
    project_id: projectId,
    last_pipeline: null,
  };
}

/** GitLab's Diff entity. */
export function presentDiff(d: DiffEntry) {
  return {
    diff: d.diff,
    collapsed: d.collapsed,
    too_large: d.too_large,
    new_path: d.new_path,
    old_path: d.old_path,
    a_mode: d.a_mode,
    b_mode: d.b_mode,
    new_file: d.new_file,
    renamed_file: d.renamed_file,
    deleted_file: d.deleted_file,
    generated_file: d.generated_file,
  };
}

/** GitLab's Compare entity; its web_url names the diff's base and head, as GitLab's compare page. */
export function presentCompare(c: Comparison, projectWebUrl: string) {
  const commits = c.commits.map((commit) => presentCommit(commit, projectWebUrl, { trailers: false }));
  return {
    commit: commits.at(-1) ?? null,
    commits,
    diffs: c.diffs.map(presentDiff),
    compare_timeout: c.overflow,
    compare_same_ref: c.compare_same_ref,
    web_url: `${projectWebUrl}/-/compare/${c.base_id}...${c.to_id}`,
  };
}

export function presentBlame(ranges: BlameRange[], projectWebUrl: string) {
  return ranges.map((r) => ({ commit: presentCommit(r.commit, projectWebUrl), lines: r.lines }));
}

type FileMetadata = Omit<FileData, "content" | "encoding">;

/** The file API's metadata (GitLab's blob_data) without the content. */
export function fileMetadata(f: FileMetadata) {
  return {
    file_name: f.file_name,
    file_path: f.file_path,
    size: f.size,
    encoding: "base64" as const,
    content_sha256: f.content_sha256,
    ref: f.ref,
    blob_id: f.blob_id,
    commit_id: f.commit_id,
    last_commit_id: f.last_commit_id,
    execute_filemode: f.execute_filemode,
  };
}

/**
 * A header value as Rails sends a path: its UTF-8 bytes (Node writes header strings as latin1),
 * with the control characters no header may hold percent-encoded.
 */
export function headerValue(text: string): string {
  return Buffer.from(text, "utf8")
    .toString("latin1")
    .replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** GitLab's set_http_headers: each metadata field as `X-Gitlab-<Capitalized-Words>`. */
export function fileHeaders(f: FileMetadata): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(fileMetadata(f))) {
    const name = key
      .split("_")
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join("-");
    headers[`X-Gitlab-${name}`] = headerValue(String(value));
  }
  return headers;
}
