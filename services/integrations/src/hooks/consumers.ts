import { preparedQuery, type Db } from "@collab/db";
import { isNotNull, or, eq, sql } from "drizzle-orm";
import { integrationDeliveries, webHooks } from "../db/schema";
import { describeGroupHookEvent, describeHookEvent } from "./events";

/** The slug of a fan-out row: one per event, turned by the worker into one delivery per hook (`webhook:<id>`). */
export const WEBHOOKS_SLUG = "webhooks";
export const hookSlug = (hookId: number) => `webhook:${hookId}`;

/** Whether any hook could receive an event of the project: its own, or any group's (asked for every event: prepared). */
const anyHook = preparedQuery((db: Db) =>
  db
    .select({ id: webHooks.id })
    .from(webHooks)
    .where(or(eq(webHooks.projectId, sql.placeholder("projectId")), isNotNull(webHooks.groupId)))
    .limit(1)
    .prepare("integrations_any_web_hook"),
);

/**
 * Whether some hook could receive the event: a project's event (`projectId`), or a group's
 * (`projectId` null) when any group hook exists; undefined when webhooks have nothing for it.
 */
export async function hookedEvent(db: Db, name: string, payload: unknown): Promise<{ projectId: number | null } | undefined> {
  const facts = describeHookEvent(name, payload);
  if (facts) return (await anyHook(db, { projectId: facts.projectId })).length ? { projectId: facts.projectId } : undefined;
  // A group's event: no project id matches, so any group hook answers.
  if (describeGroupHookEvent(name, payload)) return (await anyHook(db, { projectId: 0 })).length ? { projectId: null } : undefined;
  return undefined;
}

/** Records the event for the hooks (the worker resolves which ones get it), in the consumer's transaction. */
export async function recordHookEvent(tx: Db, projectId: number | null, payload: Record<string, unknown>, event: { id: string; name: string; occurredAt: string }): Promise<void> {
  await tx
    .insert(integrationDeliveries)
    .values({ slug: WEBHOOKS_SLUG, projectId, eventId: event.id, eventName: event.name, occurredAt: new Date(event.occurredAt), payload })
    .onConflictDoNothing();
}
