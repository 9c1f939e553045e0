/**
 * Compile-time tests of the contract helpers (@collab/core contract.ts), checked by `tsc -b`: each
 * `@ts-expect-error` line must be an error, or the build fails ("unused directive"). Nothing here
 * runs; the function is never called.
 */
import { call, implement, type Ctx } from "@collab/core";
import { Issues } from "@collab/issues-contract";

export async function contractTypeChecks(ctx: Ctx<unknown>): Promise<void> {
  // The right input compiles, and the answer has the output's type.
  const ok: { status: "ok" } = await call(ctx, Issues.health, {});
  void ok;
  const replayed: { replayed: true } = await call(ctx, Issues.replayEvent, { event: { id: "1", name: "planted.event.name", occurredAt: "", payload: {} } });
  void replayed;

  // @ts-expect-error a wrong input at a call site: `event` is required
  await call(ctx, Issues.replayEvent, {});
  // @ts-expect-error a wrong input at a call site: `id` must be a string
  await call(ctx, Issues.replayEvent, { event: { id: 1, name: "x", occurredAt: "", payload: {} } });
  // @ts-expect-error the answer is not what the caller assumes
  const wrong: { status: "broken" } = await call(ctx, Issues.health, {});
  void wrong;

  // An implementation whose answer leaves its contract fails to compile.
  implement(Issues.health, () => ({ status: "ok" as const }));
  // @ts-expect-error an answer outside the output schema
  implement(Issues.health, () => ({ status: "fine" }));
  // @ts-expect-error a handler reading a param the input does not have
  implement(Issues.replayEvent, (c) => ({ replayed: c.params.nothing as true }));
}
