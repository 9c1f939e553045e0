import { type Ctx } from "@collab/core";
import { orderingValues, ordersByNamespacesValues, resolveListNames } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import { orderingIds, type MergeRequestScope, type ResolvedNames } from "./finder";
import type { ListMergeRequestsParams } from "@collab/merge-requests-contract";

const isSentinel = (v: string | undefined) => v === undefined || v === "None" || v === "Any";

/** Resolves every name-based filter to ids with one bus call per kind. */
export async function resolveNames(kit: ServiceKit, ctx: Ctx<unknown>, p: ListMergeRequestsParams, projectIds: number[] | null, scope: MergeRequestScope): Promise<ResolvedNames> {
  const titles = [...(Array.isArray(p.labels) ? p.labels : []), ...(p.not?.labels ?? [])];
  const usernames = [
    p.author_username,
    p.not?.author_username,
    p.reviewer_username,
    p.not?.reviewer_username,
    p.merge_user_username,
    ...(p.assignee_username ?? []),
    ...(p.not?.assignee_username ?? []),
    ...(p.approved_by_usernames ?? []),
  ].filter((u): u is string => !!u && u !== "None" && u !== "Any");
  const { labelIds, users, milestoneIds, notMilestoneIds } = await resolveListNames(
    ctx,
    {
      labelTitles: titles,
      usernames,
      milestone: isSentinel(p.milestone) ? undefined : { titles: [p.milestone!] },
      notMilestone: isSentinel(p.not?.milestone) ? undefined : { titles: [p.not!.milestone!] },
    },
    projectIds,
  );
  const byName: Record<string, number | null> = Object.fromEntries(usernames.map((u) => [u.toLowerCase(), null]));
  for (const u of users) byName[u.username.toLowerCase()] = u.id;
  const names: ResolvedNames = { labelIds, users: byName, milestoneIds, notMilestoneIds };
  if (ordersByNamespacesValues(p.order_by)) {
    const ids = await orderingIds(kit.db, p, scope, names);
    Object.assign(names, await orderingValues(ctx, ids.milestoneIds, ids.labelIds));
  }
  return names;
}
