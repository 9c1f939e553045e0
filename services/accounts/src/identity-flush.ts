import { Accounts } from "@collab/accounts-contract";
import { flushIdentityEverywhere, flushingAfterWrites, namesOf } from "@collab/core";
import type { ServiceSchema } from "moleculer";

/**
 * Accounts' writes that change nothing a gateway holds (token → caller): they answer without a
 * flush. Every other write of this service is assumed to, so a new action is safe by default.
 */
const CHANGES_NO_CALLER = namesOf([
  // Authentication itself writes only a token's last_used_at.
  Accounts.authenticate,
  Accounts.jobCaller,
  Accounts.deployTokens.authenticate,
  Accounts.scim.authenticate,
  Accounts.users.verifyPassword,
  // Notification settings are nobody's identity.
  Accounts.notifications.global.update,
  Accounts.notifications.source.update,
]);

/**
 * Every write of accounts that may change a caller flushes every gateway's identity cache, and
 * waits for each to acknowledge, before it answers (also when it fails: it may have written first).
 */
type Actions = NonNullable<ServiceSchema["actions"]>;

export const flushingIdentities = (maps: Actions[]): Actions[] =>
  flushingAfterWrites(maps, CHANGES_NO_CALLER, (ctx, action) => flushIdentityEverywhere(ctx, action));
