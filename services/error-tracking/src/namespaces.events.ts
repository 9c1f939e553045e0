import type { Ctx } from "@collab/core";
import { handleEvent, type ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import { z } from "zod";
import { removeProjectData } from "./domain/cleanup";

const ProjectDeleted = z.object({ projectId: z.number().int().positive() });

/**
 * A deleted project's error tracking goes with it. Today's (emitted) namespaces event; the
 * consumer is a (payload, tx) function ready for the durable outbox's `consumes`.
 */
export const namespacesEvents = (kit: ServiceKit): NonNullable<ServiceSchema["events"]> => ({
  async "namespaces.project.deleted"(ctx: Ctx<unknown>) {
    await handleEvent(kit, ctx, ProjectDeleted, (p) => kit.db.transaction((tx) => removeProjectData(p, tx)));
  },
});
