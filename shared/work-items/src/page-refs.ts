import { call, type Ctx } from "@collab/core";
import { Namespaces, type LabelDetail, type MilestoneDetail } from "@collab/namespaces-contract";

/**
 * The labels and milestones a page names, in one call (namespaces.workItems.refs): what labelMap
 * and milestoneMap give, for pages that need both.
 */
export async function labelAndMilestoneMaps(
  ctx: Ctx<unknown>,
  labelIds: Iterable<number>,
  milestoneIds: Iterable<number | null>,
): Promise<{ labels: Map<number, LabelDetail>; milestones: Map<number, MilestoneDetail> }> {
  const label_ids = [...new Set(labelIds)];
  const milestone_ids = [...new Set([...milestoneIds].filter((i): i is number => typeof i === "number"))];
  if (!label_ids.length && !milestone_ids.length) return { labels: new Map(), milestones: new Map() };
  const found = await call(ctx, Namespaces.workItems.refs, { label_ids, milestone_ids });
  return { labels: new Map(found.labels.map((l) => [l.id, l])), milestones: new Map(found.milestones.map((m) => [m.id, m])) };
}
