import type { ActionSchema } from "moleculer";
import { actionsOf, call, implement, page, recordNotFound, requireAdmin, serviceContract, type Ctx } from "@collab/core";
import { Admin, type ReplayOutcome } from "@collab/admin-contract";
import { deleteDeadLetter, getDeadLetter, hasEventStreams, listDeadLetters, type DeadLetter, type ServiceKit } from "@collab/db";

/**
 * Dead letters: domain events a consumer gave up on after its retries (about 27 minutes of them,
 * see REDELIVERY_DELAYS_MS in @collab/db), kept in JetStream until an administrator acts:
 *   GET    /admin/dead_letters             the letters, oldest first (paginated)
 *   GET    /admin/dead_letters/:id         one letter
 *   POST   /admin/dead_letters/:id/replay  applies it once more through its service, then deletes it
 *   POST   /admin/dead_letters/replay      the same for every letter
 *   DELETE /admin/dead_letters/:id         drops it
 * A replay goes to the consuming service's `replayEvent` action (idempotent: an event already
 * applied is not applied twice); a letter whose replay fails stays, with the error answered.
 * In one process there is no JetStream: failing events wait in their service's outbox, retried
 * until they apply, so the list is empty.
 */
const published = { visibility: "published" } as const;

async function replay(ctx: Ctx<unknown>, letter: DeadLetter): Promise<ReplayOutcome> {
  const outcome = { id: letter.id, service: letter.service, event: letter.event.name };
  try {
    await call(ctx, serviceContract(letter.service).replayEvent, { event: letter.event });
  } catch (err) {
    return { ...outcome, replayed: false, error: (err as Error).message };
  }
  await deleteDeadLetter(ctx.broker, letter.id);
  return { ...outcome, replayed: true };
}

export const deadLettersActions = (_kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("admin", [
    implement(
      Admin.deadLetters.list,
      async (ctx) => {
        requireAdmin(ctx);
        if (!hasEventStreams(ctx.broker)) return page([], 0, ctx.params);
        const { rows, total } = await listDeadLetters(ctx.broker, ctx.params.page, ctx.params.per_page);
        return page(rows, total, ctx.params);
      },
      published,
    ),

    implement(
      Admin.deadLetters.get,
      async (ctx) => {
        requireAdmin(ctx);
        const letter = hasEventStreams(ctx.broker) ? await getDeadLetter(ctx.broker, ctx.params.id) : undefined;
        if (!letter) throw recordNotFound();
        return letter;
      },
      published,
    ),

    implement(
      Admin.deadLetters.replay,
      async (ctx) => {
        requireAdmin(ctx);
        const letter = hasEventStreams(ctx.broker) ? await getDeadLetter(ctx.broker, ctx.params.id) : undefined;
        if (!letter) throw recordNotFound();
        return replay(ctx, letter);
      },
      published,
    ),

    implement(
      Admin.deadLetters.replayAll,
      async (ctx) => {
        requireAdmin(ctx);
        if (!hasEventStreams(ctx.broker)) return [];
        // The letters as they are now, then each replayed once (a failed one stays, and is not retried here).
        const letters: DeadLetter[] = [];
        for (let pageNo = 1; ; pageNo++) {
          const { rows } = await listDeadLetters(ctx.broker, pageNo, 100);
          letters.push(...rows);
          if (rows.length < 100) break;
        }
        const outcomes: ReplayOutcome[] = [];
        for (const letter of letters) outcomes.push(await replay(ctx, letter));
        return outcomes;
      },
      published,
    ),

    implement(
      Admin.deadLetters.delete,
      async (ctx) => {
        requireAdmin(ctx);
        if (!hasEventStreams(ctx.broker) || !(await deleteDeadLetter(ctx.broker, ctx.params.id))) throw recordNotFound();
        return null;
      },
      published,
    ),
  ]);
