import type { Ctx } from "@collab/core";
import { handleEvent, type ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import { z } from "zod";
import { removeDeployTokensOf } from "./domain/deploy-tokens";
import { removeGroupsSamlData } from "./scim/identities";
import { removeSourceSettings } from "./domain/notification-settings";
import { removeBotsOf } from "./domain/resource-tokens";
import type { ResourceType } from "./domain/resources";

/**
 * Deletions in the namespaces service this service follows: a removed project or group takes its
 * access tokens' bots (and so their tokens), its deploy tokens and every user's notification
 * settings on it with it; a removed group also its SAML settings, SCIM token and SCIM identities.
 * Emitted, so each reaches one replica; every
 * handler is one idempotent statement, and the revocations it causes are broadcast to every gateway.
 */
const ProjectDeleted = z.object({ projectId: z.number().int().positive() });
const GroupDeleted = z.object({ groupIds: z.array(z.number().int().positive()).max(100_000) });

export const namespacesEvents = (kit: ServiceKit, events: { userDeleted: string; tokenRevoked: string }): NonNullable<ServiceSchema["events"]> => {
  async function removeFor(type: ResourceType, ids: number[]): Promise<number> {
    const [botIds, deployTokenIds, settings] = await kit.db.transaction(async (tx) => [
      await removeBotsOf(tx as unknown as typeof kit.db, type, ids),
      await removeDeployTokensOf(tx as unknown as typeof kit.db, type, ids),
      await removeSourceSettings(tx as unknown as typeof kit.db, type, ids),
    ] as const);
    for (const userId of botIds) await kit.broker.broadcast(events.userDeleted, { userId });
    for (const deployTokenId of deployTokenIds) await kit.broker.broadcast(events.tokenRevoked, { deployTokenId });
    return botIds.length + deployTokenIds.length + settings;
  }
  return {
    async "namespaces.project.deleted"(ctx: Ctx<unknown>) {
      await handleEvent(kit, ctx, ProjectDeleted, (p) => removeFor("project", [p.projectId]));
    },
    async "namespaces.group.deleted"(ctx: Ctx<unknown>) {
      await handleEvent(kit, ctx, GroupDeleted, async (p) => (await removeFor("group", p.groupIds)) + (await removeGroupsSamlData(kit.db, p.groupIds)));
    },
  };
};
