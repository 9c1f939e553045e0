import type { Db } from "@collab/db";
import { and, eq, inArray } from "drizzle-orm";
import { boolean, integer, primaryKey, text, type PgSchema } from "drizzle-orm/pg-core";

/**
 * GitLab's subscriptions (Subscribable), one implementation for every subscribable of a service
 * (issues and epics, merge requests): who follows what, or has stopped following it. A row says
 * so explicitly; without one the subscribable decides (its participants follow it).
 */
export const subscriptionsTable = (schema: PgSchema) =>
  schema.table(
    "subscriptions",
    {
      subscribableType: text("subscribable_type").notNull(),
      subscribableId: integer("subscribable_id").notNull(),
      userId: integer("user_id").notNull(),
      subscribed: boolean("subscribed").notNull(),
    },
    (t) => [primaryKey({ columns: [t.subscribableType, t.subscribableId, t.userId] })],
  );

export type SubscriptionsTable = ReturnType<typeof subscriptionsTable>;

/** A subscribable as its subscriptions name it. */
export interface Subscribable {
  type: string;
  id: number;
}

const of = (table: SubscriptionsTable, s: Subscribable) => and(eq(table.subscribableType, s.type), eq(table.subscribableId, s.id));

/** The user's explicit choice on the subscribable, null when they made none. */
export async function subscriptionOf(db: Db, table: SubscriptionsTable, s: Subscribable, userId: number | undefined): Promise<boolean | null> {
  if (userId === undefined) return null;
  const [row] = await db.select({ subscribed: table.subscribed }).from(table).where(and(of(table, s), eq(table.userId, userId)));
  return row?.subscribed ?? null;
}

/**
 * POST …/subscribe and …/unsubscribe: records the choice unless the user is already so (`current`,
 * their subscription as the subscribable reckons it), in which case it answers false (GitLab's 304).
 */
export async function setSubscription(db: Db, table: SubscriptionsTable, s: Subscribable, userId: number, subscribed: boolean, current: boolean): Promise<boolean> {
  if (current === subscribed) return false;
  await db
    .insert(table)
    .values({ subscribableType: s.type, subscribableId: s.id, userId, subscribed })
    .onConflictDoUpdate({ target: [table.subscribableType, table.subscribableId, table.userId], set: { subscribed } });
  return true;
}

/** The subscriptions of deleted subscribables of one type. */
export async function removeSubscriptions(db: Db, table: SubscriptionsTable, type: string, ids: number[]) {
  if (ids.length) await db.delete(table).where(and(eq(table.subscribableType, type), inArray(table.subscribableId, ids)));
}
