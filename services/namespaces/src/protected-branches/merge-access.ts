import type { ServiceKit } from "@collab/db";
import type { ProjectRow } from "../db/schema";
import { branchMatches, minimumLevel } from "./matching";
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

/**
 * What pushing to each branch needs: whether it is protected, the lowest roles that may push and
 * merge, and whether any matching protection allows force pushes (GitLab lets the most permissive win).
 */
export async function pushRules(kit: ServiceKit, project: Pick<ProjectRow, "id" | "defaultBranch">, branches: string[]) {
  await ensureDefaultProtection(kit, project);
  const rules = await protectionsOf(kit.db, [project.id]);
  return branches.map((branch) => {
    const matching = rules.filter((r) => branchMatches(r.name, branch));
    return {
      branch,
      protected: matching.length > 0,
      push_access_level: minimumLevel(rules, branch, "push"),
      merge_access_level: minimumLevel(rules, branch, "merge"),
      allow_force_push: matching.some((r) => r.allowForcePush),
    };
  });
}
