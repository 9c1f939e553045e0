/**
 * Protected branch names may hold `*` wildcards (`release/*`, `*-stable`): `*` matches any run of
 * characters, slashes included, as GitLab's RefMatcher.
 */
export function branchMatches(pattern: string, branch: string): boolean {
  if (!pattern.includes("*")) return pattern === branch;
  const source = pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*?");
  return new RegExp(`^${source}$`).test(branch);
}

/** "No one" as a level nobody holds: above administrators (60). */
export const NO_ONE_CAN = 61;

/** The lowest level an access level entry admits; 0 means "No one". */
const admits = (level: number) => (level === 0 ? NO_ONE_CAN : level);

export interface BranchProtection {
  name: string;
  pushAccessLevel: number;
  mergeAccessLevel: number;
}

/**
 * The minimum role that may push or merge into a branch: Developer on an unprotected branch;
 * on a protected one the lowest level any matching rule allows (GitLab grants access when any
 * matching protected branch's access level admits the user).
 */
export function minimumLevel(rules: BranchProtection[], branch: string, action: "push" | "merge"): number {
  const matching = rules.filter((r) => branchMatches(r.name, branch));
  if (!matching.length) return 30;
  return Math.min(...matching.map((r) => admits(action === "push" ? r.pushAccessLevel : r.mergeAccessLevel)));
}
