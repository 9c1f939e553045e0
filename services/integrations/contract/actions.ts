/** Actions of the integrations service other services call (see index.ts). */
import { actionContract } from "@collab/core";
import { z } from "zod";

export const IntegrationsActions = {
  deliveries: {
    /** Bus only: one pass of the delivery worker now (tests tick deterministically): the deliveries it attempted. */
    tick: actionContract("integrations.deliveries.tick", {
      input: () => z.object({}),
      output: () => z.object({ attempted: z.number().int() }),
    }),
  },
};
