import { paramError, type Config } from "@collab/core";

/**
 * On Free (GitLab CE) a username filter of the issue and merge request lists takes one value (CE
 * declares a single string): more is refused, as Grape refuses it.
 */
export function singleValueOnFree(tier: Config["LICENSE_TIER"], name: string, values: string[] | undefined) {
  if (tier === "free" && values && values.length > 1) throw paramError(`${name} allows one value, but found ${values.length}: ${values.join(", ")}`);
}
