import type { Ctx } from "@collab/core";
import type { ServiceKit } from "../service";

/** What a handler needs of a zod schema: its non-throwing parse. */
interface PayloadSchema<P> {
  safeParse(value: unknown): { success: true; data: P } | { success: false };
}

const ATTEMPTS = 3;

/**
 * Runs an event handler's work on a validated payload, retrying a transient failure (a lost
 * connection, a serialization failure) a couple of times. It never throws: an event has no caller
 * to answer, and in one process an un-awaited emit would turn the rejection into an unhandled one.
 * What still fails is logged. Handlers are written to be idempotent, so a retry is safe.
 */
export async function handleEvent<P>(kit: ServiceKit, ctx: Ctx<unknown>, schema: PayloadSchema<P>, run: (p: P) => Promise<number>): Promise<void> {
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
