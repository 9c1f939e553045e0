import type { Ctx } from "@collab/core";
import { handleEvent, type ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import { z } from "zod";
import { removeGroupData, removeProjectData } from "./domain/cleanup";

/**
 * Deletions in the namespaces service this service follows. Emitted (not broadcast), so each
 * reaches one replica; every handler is idempotent, so a repeated or late delivery changes nothing.
 */
const ProjectDeleted = z.object({ projectId: z.number().int().positive() });
const GroupDeleted = z.object({ groupIds: z.array(z.number().int().positive()).max(100_000) });

export const namespacesEvents = (kit: ServiceKit): NonNullable<ServiceSchema["events"]> => ({
  async "namespaces.project.deleted"(ctx: Ctx<unknown>) {
    await handleEvent(kit, ctx, ProjectDeleted, (p) => removeProjectData(kit.db, p.projectId));
  },
  async "namespaces.group.deleted"(ctx: Ctx<unknown>) {
    await handleEvent(kit, ctx, GroupDeleted, (p) => removeGroupData(kit.db, p.groupIds));
  },
});
