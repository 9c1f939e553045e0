import { pickFields } from "@collab/core";
import { on, type Subscription } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { flushingWorkItemRefs, userRefsFollowing, workItemRefsFollowing } from "@collab/work-items";
import type { ServiceBroker } from "moleculer";
import { removeProjectData, unlinkDeletedLabels, unsetDeletedMilestones } from "./domain/cleanup";

/** Durable events of the namespaces service this service applies (once each, in the transaction that records them). */
export const namespacesSubscriptions = (broker: () => ServiceBroker): Subscription[] => [
  // Accounts' user events: the user refs this service holds are emptied (display data).
  ...userRefsFollowing(broker),
  // Label and milestone changes: the ones this service holds are emptied (display data).
  ...workItemRefsFollowing(broker),
  on(Namespaces.events.labelDeleted, pickFields("labelIds"), flushingWorkItemRefs(broker, (p, tx) => unlinkDeletedLabels(tx, p.labelIds))),
  on(Namespaces.events.milestoneDeleted, pickFields("milestoneIds", "userId"), flushingWorkItemRefs(broker, (p, tx) => unsetDeletedMilestones(tx, p.milestoneIds, p.userId))),
  on(Namespaces.events.projectDeleted, (p, tx) => removeProjectData(tx, p.projectId)),
];
