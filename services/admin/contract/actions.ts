/** Actions of the admin service other services call (see index.ts). */
import { actionContract, SETTINGS_ACTIONS } from "@collab/core";
import { z } from "zod";

export const AdminActions = {
  settings: {
    /** The settings snapshot every process loads (declared beside its caller, @collab/core settings.ts). */
    current: SETTINGS_ACTIONS.current,
  },
  experiments: {
    /** Bus only (operators, tests): replaces an experiment's gates; 404 for an unknown experiment. */
    setGates: actionContract("admin.experiments.setGates", {
      input: () =>
        z.object({
          key: z.string(),
          gates: z.array(z.object({ key: z.enum(["boolean", "percentage_of_actors", "percentage_of_time", "actors", "groups"]), value: z.unknown() })),
        }),
      output: () => z.object({ ok: z.literal(true) }),
    }),
  },
  storageMoves: {
    /** Bus only: one step of the storage-move worker now (tests tick deterministically); answers how many moves advanced. */
    tick: actionContract("admin.storageMoves.tick", {
      input: () => z.object({}),
      output: () => z.number().int(),
    }),
  },
  rateLimits: {
    /**
     * Counts one hit of an application rate limit `key` in the current fixed window of
     * `window_seconds`: the hits so far in it, and when it ends (unix seconds).
     */
    hit: actionContract("admin.rateLimits.hit", {
      input: () => z.object({ key: z.string().max(500), window_seconds: z.number().int().positive() }),
      output: () => z.object({ count: z.number().int(), reset_at: z.number().int() }),
    }),
  },
};
