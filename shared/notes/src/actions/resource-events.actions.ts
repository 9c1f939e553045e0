import { implement, page, recordNotFound, routeNotFound } from "@collab/core";
import { labelMap, milestoneMap, userMap } from "@collab/work-items";
import type { ServiceKit } from "@collab/db";
import type { Ctx } from "@collab/core";
import type { ActionSchema } from "moleculer";
import type { NoteEntries, ResourceEventKey } from "@collab/notes-contract";
import { presentIterationEvent, presentLabelEvent, presentMilestoneEvent, presentWeightEvent, type ResourceEventContext } from "../api/resource-events.entity";
import type { ResourceEventFamily } from "../domain/resource-events";
import { findResourceEvent, findResourceEvents, type ResourceEventRows } from "../finders/resource-events.finder";
import type { LoadedNoteable, NoteableKind } from "../kind";
import type { NotesContext } from "./context";

/** How each family is found, embedded and presented. */
interface FamilyWiring<F extends ResourceEventFamily> {
  family: F;
  /** The path param naming one event (resource_label_event_id …). */
  idParam: string;
  /** The page's embedded records, one batched call per kind of record. */
  context(ctx: Ctx<unknown>, rows: ResourceEventRows[F][]): Promise<ResourceEventContext>;
  present(e: ResourceEventRows[F], c: ResourceEventContext): unknown;
}

const users = (ctx: Ctx<unknown>, rows: { userId: number }[]) => userMap(ctx, rows.map((e) => e.userId));

const WIRING: { [K in ResourceEventKey]: FamilyWiring<ResourceEventFamily> } = {
  labelEvents: {
    family: "label",
    idParam: "resource_label_event_id",
    context: async (ctx, rows) => {
      const ids = (rows as ResourceEventRows["label"][]).flatMap((e) => (e.labelId !== null ? [e.labelId] : []));
      const [u, labels] = await Promise.all([users(ctx, rows), labelMap(ctx, ids)]);
      return { users: u, labels };
    },
    present: (e, c) => presentLabelEvent(e as ResourceEventRows["label"], c),
  },
  milestoneEvents: {
    family: "milestone",
    idParam: "resource_milestone_event_id",
    context: async (ctx, rows) => {
      const [u, milestones] = await Promise.all([users(ctx, rows), milestoneMap(ctx, (rows as ResourceEventRows["milestone"][]).map((e) => e.milestoneId))]);
      return { users: u, milestones };
    },
    present: (e, c) => presentMilestoneEvent(e as ResourceEventRows["milestone"], c),
  },
  weightEvents: {
    family: "weight",
    idParam: "resource_weight_event_id",
    context: async (ctx, rows) => ({ users: await users(ctx, rows) }),
    present: (e, c) => presentWeightEvent(e as ResourceEventRows["weight"], c),
  },
  iterationEvents: {
    family: "iteration",
    idParam: "resource_iteration_event_id",
    context: async (ctx, rows) => ({ users: await users(ctx, rows) }),
    present: (e, c) => presentIterationEvent(e as ResourceEventRows["iteration"], c),
  },
};

/**
 * GET …/resource_<family>_events[/:resource_<family>_event_id] of the families the entries have:
 * the noteable loaded with its kind's read rules (404 when hidden), then its events, paginated.
 */
export function resourceEventActions<L extends LoadedNoteable>(kit: ServiceKit, kind: NoteableKind<L>, entries: NoteEntries, c: NotesContext<L>): Record<string, ActionSchema> {
  const actions: Record<string, ActionSchema> = {};
  for (const key of Object.keys(WIRING) as ResourceEventKey[]) {
    const entry = entries[key];
    if (!entry) continue;
    const w = WIRING[key];
    const served = () => {
      if (kind.servesEvents && !kind.servesEvents(kit, key)) throw routeNotFound();
    };
    actions[`${key}.list`] = implement(
      entry.list,
      async (ctx) => {
        served();
        const l = await c.load(ctx);
        const { rows, total } = await findResourceEvents(kit.db, c.scope(l), w.family, ctx.params);
        const context = await w.context(ctx, rows);
        return page(rows.map((e) => w.present(e, context)) as never[], total, ctx.params);
      },
      { visibility: "published" },
    );
    actions[`${key}.get`] = implement(
      entry.get,
      async (ctx) => {
        served();
        const l = await c.load(ctx);
        const id = (ctx.params as unknown as Record<string, number>)[w.idParam];
        const event = await findResourceEvent(kit.db, c.scope(l), w.family, id);
        // GitLab finds it with `.find` among the resource's events: another resource's id is RecordNotFound.
        if (!event) throw recordNotFound();
        return w.present(event, await w.context(ctx, [event])) as never;
      },
      { visibility: "published" },
    );
  }
  return actions;
}
