import { call, flushWorkItemRefsEverywhere, processCache, WORK_ITEM_REFS_FLUSH, type Ctx } from "@collab/core";
import { on, type EventHandler, type Subscription } from "@collab/db";
import { Namespaces, type LabelDetail, type MilestoneDetail } from "@collab/namespaces-contract";
import type { ServiceBroker } from "moleculer";

/**
 * Labels and milestones as pages of issues and merge requests show them: display data of
 * namespaces, held in this process once asked, like user refs (users.ts). Namespaces announces
 * every change of one as a durable event (label updated or deleted; milestone updated, closed,
 * reopened or deleted); each holding service applies it and empties every holder on every node
 * (`<service>.workItemRefs.flush`, acknowledged). Nothing is held longer than 30 s (which also
 * bounds a milestone's `expired` turning at midnight). Off until a service of this process
 * implements its flush (`workItemRefsHolder`).
 */
const refs = processCache<LabelDetail | MilestoneDetail>(WORK_ITEM_REFS_FLUSH);
const heldRefs = refs.cache;

/** Implements a service's label-and-milestone flush (`<service>.workItemRefs.flush`), and so turns holding on in this process. */
export const workItemRefsHolder = refs.holder;

/**
 * Empties every holder once the consumer's transaction has committed: the flush a holding
 * service's consumer of a label or milestone event registers (`afterCommit`), beside what else
 * it does with the event.
 */
export const flushingWorkItemRefs = <P>(broker: () => ServiceBroker, then?: EventHandler<P>): EventHandler<P> =>
  async (payload, tx, event, afterCommit) => {
    afterCommit(() => flushWorkItemRefsEverywhere(broker(), event.name));
    return then ? then(payload, tx, event, afterCommit) : 0;
  };

/** The label and milestone events a holding service follows only to empty what it holds (it acts on the deletions itself). */
export const workItemRefsFollowing = (broker: () => ServiceBroker): Subscription[] => [
  on(Namespaces.events.labelUpdated, flushingWorkItemRefs(broker)),
  on(Namespaces.events.milestoneUpdated, flushingWorkItemRefs(broker)),
  on(Namespaces.events.milestoneClosed, flushingWorkItemRefs(broker)),
  on(Namespaces.events.milestoneReopened, flushingWorkItemRefs(broker)),
];

/**
 * The labels and milestones a page names: those held, and the others in one call
 * (namespaces.workItems.refs): what labelMap and milestoneMap give, for pages that need both.
 */
export async function labelAndMilestoneMaps(
  ctx: Ctx<unknown>,
  labelIds: Iterable<number>,
  milestoneIds: Iterable<number | null>,
): Promise<{ labels: Map<number, LabelDetail>; milestones: Map<number, MilestoneDetail> }> {
  const holding = refs.held;
  const labels = new Map<number, LabelDetail>();
  const milestones = new Map<number, MilestoneDetail>();
  const label_ids: number[] = [];
  const milestone_ids: number[] = [];
  for (const id of new Set(labelIds)) {
    const held = holding ? (heldRefs.get(`l${id}`) as LabelDetail | undefined) : undefined;
    if (held) labels.set(id, held);
    else label_ids.push(id);
  }
  for (const id of new Set([...milestoneIds].filter((i): i is number => typeof i === "number"))) {
    const held = holding ? (heldRefs.get(`m${id}`) as MilestoneDetail | undefined) : undefined;
    if (held) milestones.set(id, held);
    else milestone_ids.push(id);
  }
  if (!label_ids.length && !milestone_ids.length) return { labels, milestones };
  const generation = heldRefs.generation();
  const found = await call(ctx, Namespaces.workItems.refs, { label_ids, milestone_ids });
  for (const l of found.labels) {
    labels.set(l.id, l);
    if (holding) heldRefs.set(`l${l.id}`, Object.freeze(l), generation);
  }
  for (const m of found.milestones) {
    milestones.set(m.id, m);
    if (holding) heldRefs.set(`m${m.id}`, Object.freeze(m), generation);
  }
  return { labels, milestones };
}
