import { forbidden } from "@collab/core";
import type { ProjectAccess } from "./remote";

/**
 * While a repository storage move runs (services/admin) the project is read-only: writes to its
 * issues and notes are refused with GitLab's read-only wording (Gitlab::GitAccess :read_only).
 */
export function assertWritable(access: ProjectAccess) {
  if (access.project.repository_read_only) throw forbidden("The repository is temporarily read-only. Please try again later.");
}
