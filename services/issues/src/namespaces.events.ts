import type { Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import { z } from "zod";
import { unlinkDeletedLabels, unsetDeletedMilestones } from "./domain/cleanup";

/**
 * Events of the namespaces service this service acts on. Emitted (not broadcast) by namespaces,
 * so each reaches one replica of this service; every handler is one idempotent statement, so a
 * repeated or late delivery changes nothing more.
 */
const Ids = z.array(z.number().int().positive()).max(10_000);
const LabelDeleted = z.object({ labelIds: Ids });
const MilestoneDeleted = z.object({ milestoneIds: Ids, userId: z.number().int().positive().nullish() });

const ATTEMPTS = 3;

/**
 * Runs a handler's statement, retrying a transient failure (a lost connection, a serialization
 * failure) a couple of times. It never throws: an event has no caller to answer, and in one
 * process an un-awaited emit would turn the rejection into an unhandled one. What still fails is
 * logged; the stale ids stay invisible in answers (presentation skips unknown labels/milestones).
 */
async function handle<P>(kit: ServiceKit, ctx: Ctx<unknown>, schema: z.ZodType<P>, run: (p: P) => Promise<number>) {
  const parsed = schema.safeParse(ctx.params);
  if (!parsed.success) {
    kit.logger.warn({ event: ctx.eventName, params: ctx.params }, "ignored an event with an invalid payload");
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const count = await run(parsed.data);
      kit.logger.debug({ event: ctx.eventName, count }, "applied");
      return;
    } catch (err) {
      if (attempt >= ATTEMPTS) {
        kit.logger.error({ err: (err as Error).message, event: ctx.eventName, params: ctx.params }, "failed to apply an event");
        return;
      }
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}

export const namespacesEvents = (kit: ServiceKit): NonNullable<ServiceSchema["events"]> => ({
  async "namespaces.label.deleted"(ctx: Ctx<unknown>) {
    await handle(kit, ctx, LabelDeleted, (p) => unlinkDeletedLabels(kit.db, p.labelIds));
  },
  async "namespaces.milestone.deleted"(ctx: Ctx<unknown>) {
    await handle(kit, ctx, MilestoneDeleted, (p) => unsetDeletedMilestones(kit.db, p.milestoneIds, p.userId ?? null));
  },
});
