import { consumer, type Consumers, type Db } from "@collab/db";
import { z } from "zod";
import { removeProjectData, unlinkDeletedLabels, unsetDeletedMilestones } from "./domain/cleanup";

/**
 * Durable events of the namespaces service this service applies (once each, in the transaction
 * that records them as processed). Ids are never reused, so a late event only touches what is gone.
 */
const Ids = z.array(z.number().int().positive()).max(10_000);
const LabelDeleted = z.object({ labelIds: Ids });
const MilestoneDeleted = z.object({ milestoneIds: Ids, userId: z.number().int().positive().nullish() });
const ProjectDeleted = z.object({ projectId: z.number().int().positive() });

export const namespacesConsumers = (): Consumers => ({
  "namespaces.label.deleted": consumer(LabelDeleted, (p, tx: Db) => unlinkDeletedLabels(tx, p.labelIds)),
  "namespaces.project.deleted": consumer(ProjectDeleted, (p, tx: Db) => removeProjectData(tx, p.projectId)),
  "namespaces.milestone.deleted": consumer(MilestoneDeleted, (p, tx: Db) => unsetDeletedMilestones(tx, p.milestoneIds, p.userId ?? null)),
});
