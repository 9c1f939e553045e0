import { preparedQuery, type Db } from "@collab/db";
import { isNotNull, or, eq, sql } from "drizzle-orm";
import { integrationDeliveries, webHooks } from "../db/schema";
import { describeHookEvent } from "./events";

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

/** The project whose hooks an event may reach, when some hook could (null: nothing to record). */
export async function hookedProject(db: Db, name: string, payload: unknown): Promise<number | null> {
  const facts = describeHookEvent(name, payload);
  if (!facts) return null;
  const [hook] = await anyHook(db, { projectId: facts.projectId });
  return hook ? facts.projectId : null;
}

/** Records the event for the hooks (the worker resolves which ones get it), in the consumer's transaction. */
export async function recordHookEvent(tx: Db, projectId: number, payload: Record<string, unknown>, event: { id: string; name: string; occurredAt: string }): Promise<void> {
  await tx
    .insert(integrationDeliveries)
    .values({ slug: WEBHOOKS_SLUG, projectId, eventId: event.id, eventName: event.name, occurredAt: new Date(event.occurredAt), payload })
    .onConflictDoNothing();
}
