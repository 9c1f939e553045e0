import { eventContract } from "@collab/core";
import { z } from "zod";

const id = z.number().int().positive();

/** Durable events the runners service publishes (see index.ts). */
export const RunnersEvents = {
  /** A pipeline reached a final status (success, failed, canceled). */
  pipelineFinished: eventContract("runners.pipeline.finished", () =>
    z.object({
      pipeline_id: id,
      iid: z.number().int(),
      project_id: id,
      ref: z.string(),
      tag: z.boolean(),
      sha: z.string(),
      status: z.string(),
      source: z.string(),
      user_id: id.nullable(),
      /** ISO timestamp. */
      finished_at: z.string(),
    }),
  ),
};
