import { AccessLevel } from "@collab/core";

/**
 * GitLab's read_code: the repository feature decides. Disabled: nobody; a private project's code
 * from Reporter up; a feature limited to members from Guest up; otherwise whoever sees the project.
 */
export function canReadCode(project: { visibility: string; repository_access_level: string }, role: number): boolean {
  const feature = project.repository_access_level;
  if (feature === "disabled") return false;
  if (project.visibility === "private") return role >= AccessLevel.REPORTER;
  if (feature === "private") return role >= AccessLevel.GUEST;
  return true;
}
