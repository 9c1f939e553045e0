import type { Ctx } from "@collab/core";
import { handleEvent, type ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import { z } from "zod";
import { followPush, removeProjectData, unlinkDeletedLabels, unsetDeletedMilestones } from "./domain/cleanup";

/**
 * Events of the namespaces service this service acts on (one replica each); every handler is one
 * idempotent statement or transaction.
 */
const Ids = z.array(z.number().int().positive()).max(10_000);
const LabelDeleted = z.object({ labelIds: Ids });
const MilestoneDeleted = z.object({ milestoneIds: Ids, userId: z.number().int().positive().nullish() });
const ProjectDeleted = z.object({ projectId: z.number().int().positive() });
const BranchPushed = z.object({ projectId: z.number().int().positive(), branch: z.string(), before: z.string().nullable(), after: z.string(), userId: z.number().int().nullish() });

export const namespacesEvents = (kit: ServiceKit): NonNullable<ServiceSchema["events"]> => ({
  async "namespaces.label.deleted"(ctx: Ctx<unknown>) {
    await handleEvent(kit, ctx, LabelDeleted, (p) => unlinkDeletedLabels(kit.db, p.labelIds));
  },
  async "namespaces.milestone.deleted"(ctx: Ctx<unknown>) {
    await handleEvent(kit, ctx, MilestoneDeleted, (p) => unsetDeletedMilestones(kit.db, p.milestoneIds, p.userId ?? null));
  },
  async "namespaces.project.deleted"(ctx: Ctx<unknown>) {
    await handleEvent(kit, ctx, ProjectDeleted, (p) => removeProjectData(kit.db, p.projectId));
  },
  async "namespaces.branch.pushed"(ctx: Ctx<unknown>) {
    await handleEvent(kit, ctx, BranchPushed, (p) => followPush(kit.db, p));
  },
});
