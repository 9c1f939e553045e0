import type { Db } from "@collab/db";
import { integrationDeliveries } from "../db/schema";
import { describeGroupHookEvent, describeHookEvent } from "./events";

/** The slug of a fan-out row: one per event, turned by the worker into one delivery per hook (`webhook:<id>`). */
export const WEBHOOKS_SLUG = "webhooks";
export const hookSlug = (hookId: number) => `webhook:${hookId}`;

/** Whether webhooks deliver the event: a project's event (`projectId`), a group's (`projectId` null), or not at all (undefined). */
export function hookedEvent(name: string, payload: unknown): { projectId: number | null } | undefined {
  const facts = describeHookEvent(name, payload);
  if (facts) return { projectId: facts.projectId };
  return describeGroupHookEvent(name, payload) ? { projectId: null } : undefined;
}

/** Records the event for the hooks (the worker resolves which ones get it), in the consumer's transaction. */
export async function recordHookEvent(tx: Db, projectId: number | null, payload: Record<string, unknown>, event: { id: string; name: string; occurredAt: string }): Promise<void> {
  await tx
    .insert(integrationDeliveries)
    .values({ slug: WEBHOOKS_SLUG, projectId, eventId: event.id, eventName: event.name, occurredAt: new Date(event.occurredAt), payload })
    .onConflictDoNothing();
}
