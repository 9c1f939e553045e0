import { pickFields } from "@collab/core";
import { consumersOf, on, type Subscriptions } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { flushingWorkItemRefs, userRefsFollowing, workItemRefsFollowing } from "@collab/work-items";
import type { ServiceBroker } from "moleculer";
import { removeGroupData, removeProjectData, unlinkDeletedLabels, unsetDeletedMilestones } from "./domain/cleanup";

/**
 * Durable events of the namespaces service this service applies (once each, in the transaction
 * that records them as processed). Ids are never reused, so a late event only touches what is gone.
 */
export const namespacesConsumers = (broker: () => ServiceBroker): Subscriptions =>
  consumersOf("issues", [
    // Accounts' user events: the user refs this service holds are emptied (display data).
    ...userRefsFollowing(broker),
    // Label and milestone changes: the ones this service holds are emptied (display data).
    ...workItemRefsFollowing(broker),
    on(Namespaces.events.labelDeleted, pickFields("labelIds"), flushingWorkItemRefs(broker, (p, tx) => unlinkDeletedLabels(tx, p.labelIds))),
    on(Namespaces.events.projectDeleted, (p, tx) => removeProjectData(tx, p.projectId)),
    on(Namespaces.events.groupDeleted, (p, tx) => removeGroupData(tx, p.groupIds)),
    on(Namespaces.events.milestoneDeleted, pickFields("milestoneIds", "userId"), flushingWorkItemRefs(broker, (p, tx) => unsetDeletedMilestones(tx, p.milestoneIds, p.userId))),
  ]);
