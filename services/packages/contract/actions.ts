/** Actions of the packages service other services call (see index.ts). */
import { actionContract } from "@collab/core";
import { z } from "zod";

export const PackagesActions = {
  destruction: {
    /** Bus only: one pass of the destruction worker now (tests tick deterministically): the packages and files it removed. */
    tick: actionContract("packages.destruction.tick", {
      input: () => z.object({}),
      output: () => z.object({ packages: z.number().int(), files: z.number().int() }),
    }),
  },
};
