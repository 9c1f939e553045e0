import { currentSettings } from "@collab/core";
import type { ServiceKit, Worker } from "@collab/db";
import { broadcast, flushAccessEverywhere } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { removalEvents } from "../shared/events";
import { purgeDue } from "./deletion";

/**
 * One adjourned-deletion purge pass (the timer and `deletions.purgeDue`): removes what is due and
 * tells other services, exactly as an immediate DELETE does.
 */
export async function purgeDeletions(kit: ServiceKit, now: Date) {
  const { groupIds, projectIds } = await kit.events.transact((tx) => purgeDue(tx, now, currentSettings().deletion_adjourned_period), removalEvents);
  for (const groupId of groupIds) await broadcast(kit.broker, Namespaces.events.membersChanged, { groupId });
  if (groupIds.length || projectIds.length) await flushAccessEverywhere(kit.broker, "adjourned deletion purge");
  return { group_ids: groupIds, project_ids: projectIds };
}

/** The timer behind DELETION_PURGE_INTERVAL_MS (0 turns it off). */
export const purgeWorker = (kit: ServiceKit): Worker => ({ name: "adjourned deletion purge", everyMs: kit.config.DELETION_PURGE_INTERVAL_MS, run: () => purgeDeletions(kit, new Date()) });
