import type { Db } from "@collab/db";
import type { ProjectRow } from "../db/schema";
import { minimumLevel } from "./matching";
import { ensureDefaultProtection, protectionsOf } from "./protected-branches";

/**
 * The access level a push to, or a merge into, `branch` needs: the most permissive of the
 * protections whose name or wildcard matches it (a new project's default branch is protected
 * first), Developer for an unprotected branch.
 */
export async function requiredAccessLevel(db: Db, project: Pick<ProjectRow, "id" | "defaultBranch">, branch: string, action: "push" | "merge"): Promise<number> {
  await ensureDefaultProtection(db, project);
  return minimumLevel(await protectionsOf(db, [project.id]), branch, action);
}
