import { actionsOf, implement } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { and, count, eq, gt, inArray, sql } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { Namespaces } from "@collab/namespaces-contract";
import { members, namespaces } from "../db/schema";

/** Bus only: what group activity analytics (activity service) asks of memberships. */
export const activityAnalyticsActions = (kit: ServiceKit): Record<string, ActionSchema> =>
  actionsOf("namespaces", [
    /**
     * Members added after `since` to the group or its subgroups (GroupMembersFinder with direct and
     * descendants relations: project memberships are not counted).
     */
    implement(Namespaces.groups.newMembersCount, async (ctx) => {
      const tree = kit.db.select({ id: namespaces.id }).from(namespaces).where(sql`${namespaces.traversalIds} @> ARRAY[${ctx.params.group_id}]::int[]`);
      const [{ n }] = await kit.db
        .select({ n: count() })
        .from(members)
        .where(and(eq(members.sourceType, "Namespace"), gt(members.createdAt, ctx.params.since), inArray(members.sourceId, tree)));
      return n;
    }),
  ]);
