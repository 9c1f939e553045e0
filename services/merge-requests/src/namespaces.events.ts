import { pickFields } from "@collab/core";
import { consumersOf, on, type Subscriptions } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { flushingWorkItemRefs, userRefsFollowing, workItemRefsFollowing } from "@collab/work-items";
import type { ServiceBroker } from "moleculer";
import { followPush, removeProjectData, unlinkDeletedLabels, unsetDeletedMilestones } from "./domain/cleanup";

const DELETED = /^0+$/;

/** Durable events of the namespaces service this service applies (once each, in the transaction that records them). */
export const namespacesConsumers = (broker: () => ServiceBroker): Subscriptions =>
  consumersOf("merge-requests", [
    // Accounts' user events: the user refs this service holds are emptied (display data).
    ...userRefsFollowing(broker),
    // Label and milestone changes: the ones this service holds are emptied (display data).
    ...workItemRefsFollowing(broker),
    on(Namespaces.events.labelDeleted, pickFields("labelIds"), flushingWorkItemRefs(broker, (p, tx) => unlinkDeletedLabels(tx, p.labelIds))),
    on(Namespaces.events.milestoneDeleted, pickFields("milestoneIds", "userId"), flushingWorkItemRefs(broker, (p, tx) => unsetDeletedMilestones(tx, p.milestoneIds, p.userId))),
    on(Namespaces.events.projectDeleted, (p, tx) => removeProjectData(tx, p.projectId)),
    // A deleted branch moves no merge request's head; a created one (before all zeros) had none.
    on(Namespaces.events.branchPushed, pickFields("projectId", "branch", "before", "after"), async (p, tx) =>
      DELETED.test(p.after) ? 0 : followPush(tx, { ...p, before: p.before && !DELETED.test(p.before) ? p.before : null }),
    ),
  ]);
