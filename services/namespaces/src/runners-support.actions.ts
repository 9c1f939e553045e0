import type { ActionSchema } from "moleculer";
import { action, callerOf } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { sql } from "drizzle-orm";
import { z } from "zod";

/** Bus actions the runners service uses to find what a user owns. */
export const runnersSupportActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  /**
   * Groups where the caller's effective level (inherited down the hierarchy) is at least
   * `min_access_level`: `[{id, access_level}]`, subgroups included.
   */
  "access.groups": action({
    idempotent: true,
    visibility: "public",
    input: () => z.object({ min_access_level: z.number().int() }),
    async handler(ctx) {
      const caller = callerOf(ctx);
      if (!caller) return [];
      const result = await kit.db.execute<{ id: number; access_level: number }>(sql`
        SELECT n.id, max(m.access_level)::int AS access_level
        FROM namespaces.namespaces n
        JOIN namespaces.members m ON m.source_type = 'Namespace' AND m.source_id = ANY(n.traversal_ids)
        WHERE n.kind = 'group' AND m.user_id = ${caller.id} AND (m.expires_at IS NULL OR m.expires_at > current_date)
        GROUP BY n.id HAVING max(m.access_level) >= ${ctx.params.min_access_level}
        ORDER BY n.id`);
      return (result as unknown as { rows: { id: number; access_level: number }[] }).rows;
    },
  }),
});
