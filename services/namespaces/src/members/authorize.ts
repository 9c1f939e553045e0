import { AccessLevel, callerOf, deployTokenReaches, notFound, recordId, type Ctx } from "@collab/core";
import type { Db } from "@collab/db";
import type { NamespaceRow } from "../db/schema";
import { canReadProject, findProjectWithAccess, groupAccessLevel, hasDescendantMembership, projectAccess, roleOf, visibleByLevel, type ProjectAccessDetail } from "./access";
import { findGroup, findProject, type ProjectAndNamespace } from "../shared/lookup";

export interface ReadableProject extends ProjectAndNamespace {
  access: ProjectAccessDetail;
  /** Effective role for permission checks (60 for administrators). */
  role: number;
}

/** Loads a project the caller may read, or answers 404 exactly as for a missing one. */
export async function readableProject(db: Db, ctx: Ctx<unknown>, ref: string | number): Promise<ReadableProject> {
  const caller = callerOf(ctx);
  const id = recordId(ref);
  // The common case, a member's request by project id: the project and their levels in one statement.
  if (caller && !caller.deployToken && typeof id === "number") {
    const withAccess = await findProjectWithAccess(db, id, caller.id);
    if (!withAccess || !canReadProject(withAccess.project, caller, withAccess.access.level)) throw notFound("Project");
    return { ...withAccess, role: roleOf(caller, withAccess.access.level) };
  }
  const found = await findProject(db, ref);
  if (!found) throw notFound("Project");
  // A deploy token (accepted only by routes that declare its scopes: the package registry) is no
  // member: it reads its own project, or the projects of its group and subgroups, whatever their
  // visibility, and nothing else (GitLab's DeployToken#has_access_to?).
  if (caller?.deployToken) {
    const groupIds = found.namespace.kind === "group" ? found.namespace.traversalIds : [];
    if (!deployTokenReaches(caller, { projectId: found.project.id, groupIds })) throw notFound("Project");
    return { ...found, access: { level: 0, projectLevel: null, groupLevel: null }, role: 0 };
  }
  const access = caller ? await projectAccess(db, found.project, found.namespace, caller.id) : { level: 0, projectLevel: null, groupLevel: null };
  if (!canReadProject(found.project, caller, access.level)) throw notFound("Project");
  return { ...found, access, role: roleOf(caller, access.level) };
}

export interface ReadableGroup {
  group: NamespaceRow;
  level: number;
  role: number;
}

/** Loads a group the caller may read (directly, by inheritance, or through something below it). */
export async function readableGroup(db: Db, ctx: Ctx<unknown>, ref: string | number, thing = "Group"): Promise<ReadableGroup> {
  const group = await findGroup(db, ref);
  if (!group) throw notFound(thing);
  const caller = callerOf(ctx);
  const level = caller ? await groupAccessLevel(db, group, caller.id) : 0;
  const readable =
    caller?.admin ||
    level >= AccessLevel.GUEST ||
    visibleByLevel(group.visibility, caller) ||
    (caller !== null && (await hasDescendantMembership(db, group, caller.id)));
  if (!readable) throw notFound(thing);
  return { group, level, role: roleOf(caller, level) };
}
