import { AccessLevel, callerOf, errorBodyOf, forbidden, notFound, requireDeployTokenReach, unauthorized, type Caller, type Ctx } from "@collab/core";
import { authorizeProject, type ProjectAccess } from "@collab/work-items";

/**
 * Who may do what in a project's package registry (GitLab's read_package / create_package /
 * destroy_package / admin_package abilities):
 * - read (list, show, download, install): whoever may see the project: anyone on a public project,
 *   signed-in users on an internal one, Guest and up on a private one (GitLab lets Guests pull
 *   since allow_guest_plus_roles_to_pull_packages became the default); a deploy token with
 *   read_package_registry or write_package_registry of the project (or of a group above it);
 * - publish: Developer and up; a deploy token with write_package_registry;
 * - delete: Maintainer and up (a deploy token with write_package_registry on the format APIs);
 * - manage protection rules: Maintainer and up.
 * A job token acts with its user's role, and only in its job's own project.
 */
export const READ_LEVEL = AccessLevel.GUEST;
export const PUBLISH_LEVEL = AccessLevel.DEVELOPER;
export const DELETE_LEVEL = AccessLevel.MAINTAINER;
export const ADMIN_LEVEL = AccessLevel.MAINTAINER;

export type Need = "read" | "publish" | "delete" | "admin";

export interface RegistryAccess {
  project: ProjectAccess["project"];
  /** The caller's effective role (60 for administrators; 0 for a deploy token or a mere viewer). */
  role: number;
  caller: Caller | null;
  /** A deploy token authenticated the request (its scopes decide, not a role). */
  deployToken: boolean;
  /** The pipeline of the job whose token authenticated the request. */
  pipelineId: number | null;
}

const minimum: Record<Need, number> = { read: READ_LEVEL, publish: PUBLISH_LEVEL, delete: DELETE_LEVEL, admin: ADMIN_LEVEL };
const deployScopes: Record<Need, readonly string[]> = {
  read: ["read_package_registry", "write_package_registry"],
  publish: ["write_package_registry"],
  delete: ["write_package_registry"],
  admin: [],
};

/** Whether a caller with this access may do `need` (no lookups: what the presenters ask too). */
export function allows(access: Pick<RegistryAccess, "role" | "caller" | "deployToken" | "project">, need: Need): boolean {
  const token = access.caller?.deployToken;
  if (access.deployToken && token) return deployScopes[need].some((s) => token.scopes.includes(s));
  if (need === "read" && access.project.visibility !== "private") return true;
  return access.role >= minimum[need];
}

/**
 * The project of the path as the caller may use its registry: 404 Project Not Found when hidden
 * (or outside a deploy or job token's reach), 401 for an anonymous caller where credentials would
 * help (`authenticateNonPublic`: npm retries with its token then), 403 when visible but not allowed.
 */
export async function registryAccess(ctx: Ctx<unknown>, ref: string | number, need: Need, opts: { authenticateNonPublic?: boolean } = {}): Promise<RegistryAccess> {
  const caller = callerOf(ctx);
  let project: ProjectAccess;
  try {
    project = await authorizeProject(ctx, ref);
  } catch (err) {
    if (opts.authenticateNonPublic && !caller && errorBodyOf(err)?.status === 404) throw unauthorized();
    throw err;
  }
  requireDeployTokenReach(ctx, { projectId: project.project.id, groupIds: project.project.group_ids });
  if (caller?.job && caller.job.projectId !== project.project.id) throw notFound("Project");
  const access: RegistryAccess = {
    project: project.project,
    role: caller?.deployToken ? 0 : project.role,
    caller,
    deployToken: Boolean(caller?.deployToken),
    pipelineId: caller?.job?.pipelineId ?? null,
  };
  if (!allows(access, need)) {
    if (!caller) throw unauthorized();
    throw forbidden();
  }
  return access;
}
