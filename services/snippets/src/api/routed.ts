import { implement, type ActionContract, type Ctx, type ImplementedAction, type OutputOf, type ParamsOf } from "@collab/core";

/** An action the gateway routes to (published, so that moleculer-web may call it). */
export const routed = <A extends ActionContract>(contract: A, handler: (ctx: Ctx<ParamsOf<A>>) => Promise<OutputOf<A>>): ImplementedAction =>
  implement(contract, handler, { visibility: "published" });
