import { gString } from "@collab/core";
import { z } from "zod";

/** A collector request: the project of the DSN, the SDK's key and its body as the gateway hands it (RouteDef.rawBody). */
export const CollectParams = z.object({
  id: gString(),
  sentry_key: gString().optional(),
  raw_body: z.object({ content_type: z.string().nullable(), data: z.string() }),
  headers: z.record(z.string(), z.string()).default({}),
});
export type CollectInput = z.output<typeof CollectParams>;
