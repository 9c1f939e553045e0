/** Actions of the import-export service other services call (see index.ts). */
import { actionContract } from "@collab/core";
import { z } from "zod";

const int = () => z.number().int();

export const ImportExportActions = {
  worker: {
    /** Bus only: one step of the group import/export worker now (tests tick deterministically): the jobs it ran. */
    tick: actionContract("import-export.worker.tick", {
      input: () => z.object({}),
      output: () => z.object({ exports: int(), imports: int() }),
    }),
  },
  vulnerabilityExports: {
    /**
     * Bus only: one step of the vulnerability export worker now; `now` moves the expiry clock
     * (tests). Answers the exports it finished, failed and expired.
     */
    tick: actionContract("import-export.vulnerabilityExports.tick", {
      input: () => z.object({ now: z.iso.datetime().optional() }),
      output: () => z.object({ finished: int(), failed: int(), expired: int() }),
    }),
  },
};
