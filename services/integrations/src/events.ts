import type { Ctx } from "@collab/core";
import { handleEvent, type ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import { z } from "zod";
import { notifierConsumers } from "./deliveries/notifier.consumers";
import { removeGroupData, removeProjectData } from "./domain/cleanup";

const ProjectDeleted = z.object({ projectId: z.number().int().positive() });
const GroupDeleted = z.object({ groupIds: z.array(z.number().int().positive()).max(100_000) });

/**
 * The events this service follows, over today's Moleculer events: deletions in namespaces, and the
 * activity the notifiers report (Discord; pipeline emails on runners.pipeline.finished). The consumers are written to the durable-events contract
 * (payload, tx, { id, name, occurredAt }); until that lands, the Moleculer context id stands in
 * for the event id and each consumer runs in its own transaction.
 */
export const serviceEvents = (kit: ServiceKit): NonNullable<ServiceSchema["events"]> => {
  const consumers = notifierConsumers();
  const handlers: NonNullable<ServiceSchema["events"]> = {
    async "namespaces.project.deleted"(ctx: Ctx<unknown>) {
      await handleEvent(kit, ctx, ProjectDeleted, (p) => removeProjectData(kit.db, p.projectId));
    },
    async "namespaces.group.deleted"(ctx: Ctx<unknown>) {
      await handleEvent(kit, ctx, GroupDeleted, (p) => removeGroupData(kit.db, p.groupIds));
    },
  };
  for (const name of Object.keys(consumers)) {
    handlers[name] = async (ctx: Ctx<unknown>) => {
      const c = consumers[name];
      const event = { id: String(ctx.id), name, occurredAt: new Date().toISOString() };
      await handleEvent(kit, ctx, c.schema, async (payload) => {
        await kit.db.transaction((tx) => c.handle(payload, tx, event));
        return 1;
      });
    };
  }
  return handlers;
};
