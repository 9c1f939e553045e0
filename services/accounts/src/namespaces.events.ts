import { flushIdentityEverywhere } from "@collab/core";
import { Namespaces } from "@collab/namespaces-contract";
import { consumersOf, on, type AfterCommit, type Subscriptions, type Db, type ServiceKit } from "@collab/db";
import { removeDeployTokensOf } from "./domain/deploy-tokens";
import { removeGroupsSamlData } from "./scim/identities";
import { removeSourceSettings } from "./domain/notification-settings";
import { usersDeleted } from "./domain/personal-namespaces";
import { removeBotsOf } from "./domain/resource-tokens";
import type { ResourceType } from "./domain/resources";

/**
 * Deletions in the namespaces service this service follows: a removed project or group takes its
 * access tokens' bots (and so their tokens), its deploy tokens and every user's notification
 * settings on it with it; a removed group also its SAML settings, SCIM token and SCIM identities.
 * Durable events, applied once each in the transaction that records them; the bots' deletions go
 * out as durable events too, and every gateway forgets the callers it held once they are committed.
 */
export const namespacesConsumers = (kit: ServiceKit): Subscriptions => {
  async function removeFor(tx: Db, type: ResourceType, ids: number[], afterCommit: AfterCommit): Promise<number> {
    const botIds = await removeBotsOf(tx, type, ids);
    const deployTokens = await removeDeployTokensOf(tx, type, ids);
    const settings = await removeSourceSettings(tx, type, ids);
    // The bots' deletions are durable events of their own, committed with this transaction.
    await kit.events.publishIn(tx, usersDeleted(botIds));
    if (botIds.length) afterCommit(() => flushIdentityEverywhere(kit.broker, "resource bots removed").then(() => undefined));
    return botIds.length + deployTokens.length + settings;
  }
  return consumersOf("accounts", [
    on(Namespaces.events.projectDeleted, (p, tx, _event, afterCommit) => removeFor(tx, "project", [p.projectId], afterCommit)),
    on(Namespaces.events.groupDeleted, async (p, tx, _event, afterCommit) => (await removeFor(tx, "group", p.groupIds, afterCommit)) + (await removeGroupsSamlData(tx, p.groupIds))),
  ]);
};
