import { pickFields } from "@collab/core";
import { consumersOf, on, type Subscriptions } from "@collab/db";
import { Namespaces } from "@collab/namespaces-contract";
import { removeProjectData, unlinkDeletedLabels, unsetDeletedMilestones } from "./domain/cleanup";

/**
 * Durable events of the namespaces service this service applies (once each, in the transaction
 * that records them as processed). Ids are never reused, so a late event only touches what is gone.
 */
export const namespacesConsumers = (): Subscriptions =>
  consumersOf("issues", [
    on(Namespaces.events.labelDeleted, pickFields("labelIds"), (p, tx) => unlinkDeletedLabels(tx, p.labelIds)),
    on(Namespaces.events.projectDeleted, (p, tx) => removeProjectData(tx, p.projectId)),
    on(Namespaces.events.milestoneDeleted, pickFields("milestoneIds", "userId"), (p, tx) => unsetDeletedMilestones(tx, p.milestoneIds, p.userId)),
  ]);
