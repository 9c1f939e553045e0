import { action } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import type { ActionSchema } from "moleculer";
import { z } from "zod";
import { findUserByIdOrUsername } from "./finders/users.finder";

/** Bus only: whether a user's profile (and so their activity) is open to others (UserPolicy :read_user_profile). */
export const profileActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /** A user by id or username with their state and private_profile flag, or null. */
  "users.profile": action({
    idempotent: true,
    visibility: "public",
    input: () => z.object({ ref: z.union([z.string(), z.number()]) }),
    async handler(ctx) {
      const user = await findUserByIdOrUsername(kit.db, ctx.params.ref);
      return user ? { id: user.id, username: user.username, state: user.state, private_profile: user.privateProfile } : null;
    },
  }),
});
