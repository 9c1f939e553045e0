import { currentSettings } from "@collab/core";
import type { ServiceKit, Worker } from "@collab/db";
import { NAMESPACES_EVENTS } from "../shared/events";
import { purgeDue } from "./deletion";

/**
 * One adjourned-deletion purge pass (the timer and `deletions.purgeDue`): removes what is due and
 * tells other services, exactly as an immediate DELETE does.
 */
export async function purgeDeletions(kit: ServiceKit, now: Date) {
  const { groupIds, projectIds, namespaceIds } = await purgeDue(kit.db, now, currentSettings().deletion_adjourned_period);
  for (const projectId of projectIds) await kit.broker.emit(NAMESPACES_EVENTS.projectDeleted, { projectId });
  if (namespaceIds.length) await kit.broker.emit(NAMESPACES_EVENTS.groupDeleted, { groupIds: namespaceIds });
  for (const groupId of groupIds) await kit.broker.broadcast(NAMESPACES_EVENTS.membersChanged, { groupId });
  return { group_ids: groupIds, project_ids: projectIds };
}

/** The timer behind DELETION_PURGE_INTERVAL_MS (0 turns it off). */
export const purgeWorker = (kit: ServiceKit): Worker => ({ name: "adjourned deletion purge", everyMs: kit.config.DELETION_PURGE_INTERVAL_MS, run: () => purgeDeletions(kit, new Date()) });
