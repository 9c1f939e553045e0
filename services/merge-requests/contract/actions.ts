/** Actions of the merge-requests service other services call (see index.ts). */
import { actionContract } from "@collab/core";
import { z } from "zod";

const int = () => z.number().int();

export const MergeRequestsActions = {
  closingIssues: {
    /**
     * How many merge requests reference each issue with the closing pattern (the issue's
     * merge_requests_count): `[{ project_id, iid, count }]`, one for each ref, in one query.
     */
    counts: actionContract("merge-requests.closingIssues.counts", {
      input: () => z.object({ refs: z.array(z.object({ project_id: int(), iid: int() })).max(1000) }),
      output: () => z.array(z.object({ project_id: int(), iid: int(), count: int() })),
      idempotent: true,
    }),
  },
  analytics: {
    /** Bus only (activity's group analytics): merge requests created after `since` in these projects (the caller's readable ones). */
    createdSince: actionContract("merge-requests.analytics.createdSince", {
      input: () => z.object({ project_ids: z.array(int()).max(100_000), since: z.coerce.date() }),
      output: () => int(),
      idempotent: true,
    }),
  },
};
