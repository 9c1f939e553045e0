import { AccessLevel, forbidden, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { NamespaceRow } from "../db/schema";
import type { LabelSource } from "@collab/namespaces-contract";
import { requireRole } from "../members/access";
import { readableGroup, readableProject } from "../members/authorize";
import type { MilestoneContainerPaths } from "../milestones/milestone.entity";
import type { MilestoneSource } from "@collab/namespaces-contract";

/** A project or group as a label/milestone parent, with the caller's role on it. */
export interface Parent {
  kind: "project" | "group";
  id: number;
  /** The project's namespace, or the group itself. */
  namespace: NamespaceRow;
  role: number;
  archived: boolean;
  paths: MilestoneContainerPaths;
}

export async function parentOf(kit: ServiceKit, ctx: Ctx<unknown>, source: LabelSource | MilestoneSource, ref: string): Promise<Parent> {
  if (source === "projects") {
    const p = await readableProject(kit.db, ctx, ref);
    return {
      kind: "project",
      id: p.project.id,
      namespace: p.namespace,
      role: p.role,
      archived: p.project.archived,
      paths: { projectPath: `${p.namespace.fullPath}/${p.project.path}`, groupPath: null },
    };
  }
  const g = await readableGroup(kit.db, ctx, ref);
  return { kind: "group", id: g.group.id, namespace: g.group, role: g.role, archived: false, paths: { projectPath: null, groupPath: g.group.fullPath } };
}

/** Groups above a project (its namespace chain) when it lives in a group. */
export const projectGroupIds = (ns: NamespaceRow) => (ns.kind === "group" ? ns.traversalIds : []);

/**
 * admin_label / admin_milestone: Planner (15), Reporter (20) and above. Archived projects are
 * read-only for everybody, administrators included, as GitLab's policies prevent it.
 */
export function requireManage(p: Parent) {
  requireRole(p.role, AccessLevel.PLANNER);
  if (p.archived) throw forbidden();
}
