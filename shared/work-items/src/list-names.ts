import type { Ctx } from "@collab/core";
import { labelIdsByTitles, labelMap } from "./labels";
import { milestoneIdsFor, milestoneMap } from "./milestones";
import { usersByUsername } from "./users";

/**
 * The name-based filters of an issue or merge request list, resolved to ids before the query
 * (labels and milestones live in namespaces, users in accounts): one bus call per kind.
 */

/** A milestone filter as namespaces matches it: titles, or the Upcoming / Started sentinels. */
export type MilestoneFilter = { titles: string[] } | { sentinel: "Upcoming" | "Started" };

/**
 * Label ids per title (among these projects' labels and their groups'; all projects: null), the
 * users the usernames name, and the milestone ids of each milestone filter (null when none).
 */
export async function resolveListNames(
  ctx: Ctx<unknown>,
  q: { labelTitles: string[]; usernames: string[]; milestone?: MilestoneFilter; notMilestone?: MilestoneFilter },
  projectIds: number[] | null,
) {
  const [labelIds, users, milestoneIds, notMilestoneIds] = await Promise.all([
    labelIdsByTitles(ctx, [...new Set(q.labelTitles)], projectIds),
    usersByUsername(ctx, [...new Set(q.usernames)]),
    q.milestone ? milestoneIdsFor(ctx, q.milestone) : Promise.resolve(null),
    q.notMilestone ? milestoneIdsFor(ctx, q.notMilestone) : Promise.resolve(null),
  ]);
  return { labelIds, users, milestoneIds, notMilestoneIds };
}

/** The list orders that sort by milestone due dates or label priorities, values namespaces holds. */
export const ordersByNamespacesValues = (orderBy: string) => ["milestone_due", "priority", "label_priority"].includes(orderBy);

/** Due dates of these milestones and priorities of these labels, by id, for those orders. */
export async function orderingValues(ctx: Ctx<unknown>, milestoneIds: (number | null)[], labelIds: number[]) {
  const [milestones, labels] = await Promise.all([milestoneMap(ctx, milestoneIds), labelMap(ctx, labelIds)]);
  return {
    milestoneDue: Object.fromEntries([...milestones.values()].map((m) => [m.id, m.due_date])) as Record<number, string | null>,
    labelPriority: Object.fromEntries([...labels.values()].map((l) => [l.id, l.priority ?? null])) as Record<number, number | null>,
  };
}
