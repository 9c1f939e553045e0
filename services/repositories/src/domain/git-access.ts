import type { Caller } from "@collab/core";
import { GitMessages } from "@collab/repositories-contract";

export { GitMessages };

/**
 * Who may fetch from and push to a project's repository over git (GitLab's Gitlab::GitAccess):
 * Reporters and up read (anyone who sees a public or internal project whose repository is open
 * to everyone), Developers and up push, deploy tokens read with `read_repository`, job tokens
 * read their job's project as the job's user and never push. The messages are GitLab's.
 */

/** What the decision reads of namespaces' access.project answer. */
export interface ProjectForGit {
  visibility: string;
  archived: boolean;
  repository_access_level: string;
  repository_read_only: boolean;
}

const REPORTER = 20;
const DEVELOPER = 30;

/** Why `caller` may not fetch, or null when it may. `role` is its effective role (60 for administrators). */
export function downloadDenial(caller: Caller | null, project: ProjectForGit, role: number): string | null {
  if (project.repository_access_level === "disabled") return GitMessages.download;
  if (caller?.deployToken) return caller.deployToken.scopes.includes("read_repository") ? null : GitMessages.download;
  if (role >= REPORTER) return null;
  const openToAll = project.repository_access_level === "enabled" && (project.visibility === "public" || project.visibility === "internal");
  return openToAll ? null : GitMessages.download;
}

/** Why `caller` may not push at all, or null when it may (refs are checked one by one later). */
export function pushDenial(caller: Caller | null, project: ProjectForGit, role: number): string | null {
  const download = downloadDenial(caller, project, role);
  if (download) return download;
  if (!caller || caller.deployToken || caller.job) return GitMessages.push;
  if (project.archived) return GitMessages.archived;
  if (role < DEVELOPER) return GitMessages.push;
  if (project.repository_read_only) return GitMessages.readOnly;
  return null;
}
