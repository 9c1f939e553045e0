import { forbidden, routeNotFound, type Config } from "@collab/core";

/**
 * Which admin areas exist for an offering (OFFERING) and a tier (LICENSE_TIER), and how an area
 * outside them answers — the one place that decides it (the README has the same table).
 *
 * | Area                                    | Offerings                  | Tiers            | Outside            |
 * |-----------------------------------------|----------------------------|------------------|--------------------|
 * | application settings                    | self_managed, dedicated    | all              | 403 Forbidden      |
 * | broadcast messages: create/update/delete| self_managed, dedicated    | all              | 403 Forbidden      |
 * | broadcast messages: list/get            | all                        | all              | -                  |
 * | service accounts (instance)             | self_managed, dedicated    | premium, ultimate| 403 / 404 (tier)   |
 * | service accounts (group)                | all                        | premium, ultimate| 404 (tier)         |
 * | project/snippet storage moves           | all (administrators)       | all              | -                  |
 * | group storage moves                     | all (administrators)       | premium, ultimate| 404 (tier)         |
 * | experiments                             | hosted (administrators)    | all              | 403 Forbidden      |
 *
 * Outside its offering an area exists in the code base but nobody there holds the role it needs
 * (no customer is an instance administrator on the hosted offering; only the operator's staff read
 * experiments, and administrators stand for that staff here): GitLab's plain 403. Outside its tier
 * an EE-only area is not mounted, as in a Community Edition install: the catch-all 404
 * {"error":"404 Not Found"}. The defaults (self_managed, ultimate) switch everything on except
 * experiments, which only the hosted offering has.
 */
export type Area = "settings" | "broadcastManagement" | "instanceServiceAccounts" | "groupServiceAccounts" | "groupStorageMoves" | "experiments";

const PREMIUM: Config["LICENSE_TIER"][] = ["premium", "ultimate"];
const SELF_HOSTED: Config["OFFERING"][] = ["self_managed", "dedicated"];

const RULES: Record<Area, { offerings?: Config["OFFERING"][]; tiers?: Config["LICENSE_TIER"][] }> = {
  settings: { offerings: SELF_HOSTED },
  broadcastManagement: { offerings: SELF_HOSTED },
  instanceServiceAccounts: { offerings: SELF_HOSTED, tiers: PREMIUM },
  groupServiceAccounts: { tiers: PREMIUM },
  groupStorageMoves: { tiers: PREMIUM },
  experiments: { offerings: ["hosted"] },
};

export { routeNotFound };

export function areaAvailable(area: Area, config: Pick<Config, "OFFERING" | "LICENSE_TIER">): boolean {
  const rule = RULES[area];
  return (!rule.tiers || rule.tiers.includes(config.LICENSE_TIER)) && (!rule.offerings || rule.offerings.includes(config.OFFERING));
}

/** Throws the answer of an area this instance does not have (tier first: an unmounted route). */
export function requireArea(area: Area, config: Pick<Config, "OFFERING" | "LICENSE_TIER">) {
  const rule = RULES[area];
  if (rule.tiers && !rule.tiers.includes(config.LICENSE_TIER)) throw routeNotFound();
  if (rule.offerings && !rule.offerings.includes(config.OFFERING)) throw forbidden();
}
