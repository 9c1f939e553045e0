import { AccessLevel, forbidden, type Ctx } from "@collab/core";
import { authorizeProject, type ProjectAccess } from "@collab/work-items";

/**
 * The project of the path, for a caller with the Maintainer role (GitLab's `admin_operations`):
 * 404 Project Not Found when hidden from them, 403 when visible but the role is lower.
 */
export async function operationsProject(ctx: Ctx<unknown>, ref: string | number): Promise<ProjectAccess> {
  const access = await authorizeProject(ctx, ref);
  if (access.role < AccessLevel.MAINTAINER) throw forbidden();
  return access;
}
