import type { ServiceKit } from "@collab/db";
import type { ProjectRow } from "../db/schema";
import { minimumLevel } from "./matching";
import { ensureDefaultProtection, protectionsOf } from "./protected-branches";

/**
 * The access level a push to, or a merge into, `branch` needs: the most permissive of the
 * protections whose name or wildcard matches it (a new project's default branch is protected
 * first), Developer for an unprotected branch.
 */
export async function requiredAccessLevel(kit: ServiceKit, project: Pick<ProjectRow, "id" | "defaultBranch">, branch: string, action: "push" | "merge"): Promise<number> {
  await ensureDefaultProtection(kit, project);
  return minimumLevel(await protectionsOf(kit.db, [project.id]), branch, action);
}
