import type { Ctx } from "@collab/core";
import { handleEvent, type ServiceKit } from "@collab/db";
import type { ServiceSchema } from "moleculer";
import { z } from "zod";
import { removeBotsOf } from "./domain/resource-tokens";
import type { ResourceType } from "./domain/resources";

/**
 * Deletions in the namespaces service this service follows: a removed project or group takes its
 * access tokens' bots (and so their tokens) with it. Emitted, so each reaches one replica; every
 * handler is one idempotent statement, and the revocations it causes are broadcast to every gateway.
 */
const ProjectDeleted = z.object({ projectId: z.number().int().positive() });
const GroupDeleted = z.object({ groupIds: z.array(z.number().int().positive()).max(100_000) });

export const namespacesEvents = (kit: ServiceKit, events: { userDeleted: string }): NonNullable<ServiceSchema["events"]> => {
  async function removeFor(type: ResourceType, ids: number[]): Promise<number> {
    const botIds = await removeBotsOf(kit.db, type, ids);
    for (const userId of botIds) await kit.broker.broadcast(events.userDeleted, { userId });
    return botIds.length;
  }
  return {
    async "namespaces.project.deleted"(ctx: Ctx<unknown>) {
      await handleEvent(kit, ctx, ProjectDeleted, (p) => removeFor("project", [p.projectId]));
    },
    async "namespaces.group.deleted"(ctx: Ctx<unknown>) {
      await handleEvent(kit, ctx, GroupDeleted, (p) => removeFor("group", p.groupIds));
    },
  };
};
