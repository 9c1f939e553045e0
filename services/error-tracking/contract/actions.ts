/** Actions of the error-tracking service other services call (see index.ts). */
import { actionContract } from "@collab/core";
import { z } from "zod";

export const ErrorTrackingActions = {
  errors: {
    /** The error events stored for a project, for other services and tests (no HTTP route). */
    list: actionContract("error-tracking.errors.list", {
      input: () => z.object({ project_id: z.number().int().positive() }),
      output: () =>
        z.array(
          z.object({
            id: z.number().int(),
            project_id: z.number().int(),
            event_id: z.string(),
            exception_type: z.string().nullable(),
            exception_message: z.string().nullable(),
            platform: z.string().nullable(),
            environment: z.string().nullable(),
            occurred_at: z.string(),
            received_at: z.string(),
            /** The event as the SDK sent it. */
            payload: z.unknown(),
          }),
        ),
      idempotent: true,
    }),
  },
};
