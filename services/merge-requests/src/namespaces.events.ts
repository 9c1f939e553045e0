import { consumer, type Consumers, type Db } from "@collab/db";
import { z } from "zod";
import { followPush, removeProjectData, unlinkDeletedLabels, unsetDeletedMilestones } from "./domain/cleanup";

/** Durable events of the namespaces service this service applies (once each, in the transaction that records them). */
const Ids = z.array(z.number().int().positive()).max(10_000);
const LabelDeleted = z.object({ labelIds: Ids });
const MilestoneDeleted = z.object({ milestoneIds: Ids, userId: z.number().int().positive().nullish() });
const ProjectDeleted = z.object({ projectId: z.number().int().positive() });
const BranchPushed = z.object({ projectId: z.number().int().positive(), branch: z.string(), before: z.string().nullable(), after: z.string(), userId: z.number().int().nullish() });
const DELETED = /^0+$/;

export const namespacesConsumers = (): Consumers => ({
  "namespaces.label.deleted": consumer(LabelDeleted, (p, tx: Db) => unlinkDeletedLabels(tx, p.labelIds)),
  "namespaces.milestone.deleted": consumer(MilestoneDeleted, (p, tx: Db) => unsetDeletedMilestones(tx, p.milestoneIds, p.userId ?? null)),
  "namespaces.project.deleted": consumer(ProjectDeleted, (p, tx: Db) => removeProjectData(tx, p.projectId)),
  // A deleted branch moves no merge request's head; a created one (before all zeros) had none.
  "namespaces.branch.pushed": consumer(BranchPushed, async (p, tx: Db) =>
    DELETED.test(p.after) ? 0 : followPush(tx, { ...p, before: p.before && !DELETED.test(p.before) ? p.before : null }),
  ),
});
