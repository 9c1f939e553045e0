import type { ActionSchema } from "moleculer";
import { actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Admin } from "@collab/admin-contract";
import { lt, sql } from "drizzle-orm";
import { rateLimitCounters } from "./db/schema";

/**
 * Application rate-limit counters in PostgreSQL, so every gateway replica counts against the same
 * window (GitLab keeps them in Redis). Fixed windows: one row per key and window start.
 */
export const rateLimitsActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("admin", [
    implement(Admin.rateLimits.hit, async (ctx) => {
      const windowMs = ctx.params.window_seconds * 1000;
      const start = new Date(Math.floor(Date.now() / windowMs) * windowMs);
      const [row] = await kit.db
        .insert(rateLimitCounters)
        .values({ key: ctx.params.key, windowStart: start, count: 1 })
        .onConflictDoUpdate({ target: [rateLimitCounters.key, rateLimitCounters.windowStart], set: { count: sql`${rateLimitCounters.count} + 1` } })
        .returning({ count: rateLimitCounters.count });
      return { count: row.count, reset_at: Math.ceil((start.getTime() + windowMs) / 1000) };
    }),
  ]);

/** Drops windows that ended long ago (the storage worker's timer calls it). */
export const pruneCounters = (kit: ServiceKit) => kit.db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, new Date(Date.now() - 3600_000)));
