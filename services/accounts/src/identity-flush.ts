import { Accounts } from "@collab/accounts-contract";
import { flushIdentityEverywhere, type ImplementedAction } from "@collab/core";
import type { Context, ServiceSchema } from "moleculer";

type Actions = NonNullable<ServiceSchema["actions"]>;

/**
 * Accounts' writes that change nothing a gateway holds (token → caller): they answer without a
 * flush. Every other write of this service is assumed to, so a new action is safe by default.
 */
const CHANGES_NO_CALLER = new Set<string>([
  // Authentication itself writes only a token's last_used_at.
  Accounts.authenticate.name,
  Accounts.jobCaller.name,
  Accounts.deployTokens.authenticate.name,
  Accounts.scim.authenticate.name,
  Accounts.users.verifyPassword.name,
  // Notification settings are nobody's identity.
  Accounts.notifications.global.update.name,
  Accounts.notifications.source.update.name,
]);

/** Whether `action` may change a cached caller: a write (its entry is not idempotent) not known to be harmless. */
export const changesCallers = (action: unknown): action is ImplementedAction => {
  const contract = typeof action === "object" && action !== null ? (action as Partial<ImplementedAction>).contract : undefined;
  return !!contract && !contract.idempotent && !CHANGES_NO_CALLER.has(contract.name);
};

/**
 * Every write of accounts that may change a caller flushes every gateway's identity cache, and
 * waits for each to acknowledge, before it answers; also when it fails (it may have written
 * before failing). A read answers untouched.
 */
export function flushingIdentities(maps: Actions[]): Actions[] {
  return maps.map((map) =>
    Object.fromEntries(
      Object.entries(map).map(([key, action]) => {
        if (!changesCallers(action)) return [key, action];
        const handler = action.handler as (this: unknown, ctx: Context) => unknown;
        const name = action.contract.name;
        return [
          key,
          {
            ...action,
            async handler(this: unknown, ctx: Context) {
              try {
                return await handler.call(this, ctx);
              } finally {
                await flushIdentityEverywhere(ctx, name);
              }
            },
          },
        ];
      }),
    ),
  );
}
