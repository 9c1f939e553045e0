import { Accounts } from "@collab/accounts-contract";
import { implement, type ImplementedAction } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { eq, inArray } from "drizzle-orm";
import { users } from "./db/schema";
import { verifyPassword } from "./domain/passwords";

/** Bus only: what merge request approvals need to know about users. */
export const approvalIdentityActions = (kit: ServiceKit): ImplementedAction[] => [
  /**
   * GitLab's user_type of each user (human, service_account, project_bot, group_bot): the
   * caller's `bot` flag is also set for service accounts, so resource-token bots are told apart here.
   */
  implement(Accounts.users.types, async (ctx) => {
    const ids = [...new Set(ctx.params.ids)];
    if (!ids.length) return {};
    const rows = await kit.db.select({ id: users.id, userType: users.userType }).from(users).where(inArray(users.id, ids));
    return Object.fromEntries(rows.map((r) => [r.id, r.userType]));
  }),

  /** Whether the password is the user's (re-authentication to approve); false for users without one. */
  implement(Accounts.users.verifyPassword, async (ctx) => {
    const [row] = await kit.db.select({ digest: users.passwordDigest }).from(users).where(eq(users.id, ctx.params.user_id));
    if (!row?.digest) return false;
    return verifyPassword(ctx.params.password, row.digest);
  }),
];
