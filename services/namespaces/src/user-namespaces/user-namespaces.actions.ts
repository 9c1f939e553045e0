import { actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { userNamespacePathAvailable } from "./user-namespaces";

/** Questions about users' personal namespaces. */
export const userNamespacesActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /**
     * Accounts asks before renaming a user: is `path` free for that user's personal namespace (no
     * group or other user's namespace has it)? GitLab refuses the username otherwise.
     */
    implement(Namespaces.userNamespaces.pathAvailable, async (ctx) => {
      return { available: await userNamespacePathAvailable(kit.db, ctx.params.path, ctx.params.user_id) };
    }),
  ]);
