import { actionsOf, implement } from "@collab/core";
import { Repositories } from "@collab/repositories-contract";
import type { ActionSchema } from "moleculer";

/** The pending pushes' sweep on demand (the worker's step, shared: one run at a time). */
export const pushesActions = (sweep: () => Promise<number>): Record<string, ActionSchema> =>
  actionsOf("repositories", [implement(Repositories.pushes.sweep, async () => ({ events: await sweep() }))]);
