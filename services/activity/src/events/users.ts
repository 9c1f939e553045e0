import type { Ctx } from "@collab/core";

export interface UserProfile {
  id: number;
  username: string;
  state: string;
  private_profile: boolean;
}

/** A user by id or username (GitLab's find_user), from accounts. */
export const findUser = (ctx: Ctx<unknown>, ref: string) => ctx.call<UserProfile | null, { ref: string }>("accounts.users.profile", { ref });
