import { Accounts } from "@collab/accounts-contract";
import { call, type Ctx } from "@collab/core";

/** A user by id or username (GitLab's find_user), from accounts. */
export const findUser = (ctx: Ctx<unknown>, ref: string) => call(ctx, Accounts.users.profile, { ref });
