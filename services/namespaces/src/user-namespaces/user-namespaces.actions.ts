import { action } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import { userNamespacePathAvailable } from "./user-namespaces";

/** Questions about users' personal namespaces. */
export const userNamespacesActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /**
   * Accounts asks before renaming a user: is `path` free for that user's personal namespace (no
   * group or other user's namespace has it)? GitLab refuses the username otherwise.
   */
  "userNamespaces.pathAvailable": action({
    idempotent: true,
    visibility: "public",
    input: () => z.object({ path: z.string().min(1), user_id: z.number().int() }),
    async handler(ctx) {
      return { available: await userNamespacePathAvailable(kit.db, ctx.params.path, ctx.params.user_id) };
    },
  }),
});
