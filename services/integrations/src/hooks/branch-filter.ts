/**
 * push_events_branch_filter (GitLab's Gitlab::BranchFilter... BranchFilterValidator): wildcard —
 * comma-separated patterns where `*` matches any run of characters; regex — a pattern (JavaScript syntax here, GitLab's is RE2), matched anywhere in the name;
 * all_branches — every branch. An empty filter lets every branch through.
 */
export function branchMatches(strategy: string, filter: string | null, branch: string): boolean {
  if (strategy === "all_branches" || !filter) return true;
  if (strategy === "regex") {
    try {
      return new RegExp(filter).test(branch);
    } catch {
      return false;
    }
  }
  return filter
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .some((p) => new RegExp(`^${p.split("*").map(escape).join(".*")}$`).test(branch));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Why a regex filter is refused, or null. */
export function regexError(filter: string): string | null {
  try {
    new RegExp(filter);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
