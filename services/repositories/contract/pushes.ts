/** Actions about pushes (bus only). */
import { actionContract } from "@collab/core";
import { z } from "zod";

export const PushesActions = {
  pushes: {
    /**
     * Finishes the pushes whose session is gone (recorded by their pre-receive check, their events
     * never written) on the storages the answering replica serves: call it on a storage's replica
     * (`onStorage`). The service's worker does the same periodically and at start; this runs it now.
     */
    sweep: actionContract("repositories.pushes.sweep", { input: () => z.object({}), output: () => z.object({ events: z.number().int() }) }),
  },
};
