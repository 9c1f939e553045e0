import type { Ctx } from "@collab/core";
import { handleEvent, type ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import { randomUUID } from "node:crypto";
import { consumers } from "./events/consumers";

/**
 * Binds the consumers to today's after-commit Moleculer events. Each one applies in its own
 * transaction; when the durable outbox lands, the same consumers move to `consumes` unchanged and
 * get the bus's event id (idempotency) and occurrence time instead of the ones made up here.
 */
export const domainEvents = (kit: ServiceKit): NonNullable<ServiceSchema["events"]> =>
  Object.fromEntries(
    Object.entries(consumers).map(([name, c]) => [
      name,
      async (ctx: Ctx<unknown>) => {
        const meta = { id: randomUUID(), name, occurredAt: new Date().toISOString() };
        await handleEvent(kit, ctx, c.schema, async (payload) => {
          await kit.db.transaction((tx) => c.apply(payload, tx, meta));
          return 1;
        });
      },
    ]),
  );
