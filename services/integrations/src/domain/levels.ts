import { call, AccessLevel, forbidden, type Ctx } from "@collab/core";
import { authorizeProject } from "@collab/work-items";
import { Namespaces } from "@collab/namespaces-contract";

/**
 * Where integrations live: a project or a group, with its ancestor groups (root first). Managing
 * them takes the Maintainer role on either level (spec: "at least the Maintainer role"); a private
 * project or group the caller cannot see is its 404, as namespaces answers.
 */
export interface Level {
  kind: "project" | "group";
  id: number;
  /** Ancestor group ids, root first, the closest last; a group's own id excluded. */
  ancestors: number[];
}

export async function managedLevel(ctx: Ctx<unknown>, kind: Level["kind"], ref: string): Promise<Level> {
  if (kind === "project") {
    const access = await authorizeProject(ctx, ref);
    if (access.role < AccessLevel.MAINTAINER) throw forbidden();
    return { kind, id: access.project.id, ancestors: access.project.group_ids };
  }
  const access = await call(ctx, Namespaces.access.group, { group: ref });
  if (access.role < AccessLevel.MAINTAINER) throw forbidden();
  return { kind, id: access.group.id, ancestors: access.traversal_ids.filter((g) => g !== access.group.id) };
}
