import { callerOf, forbidden, routeNotFound, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { groupOf } from "@collab/work-items";
import { presentEpics } from "./epic.entity";
import { canReadEpic, type EpicActor } from "./epic-permissions";
import { findEpic, type EpicWithLabels } from "./epics.finder";

/** Loading epics for their routes: the tier, the group with the caller's role, the epic they may read. */

export type Group = Awaited<ReturnType<typeof groupOf>>;

/** Epics are Premium and Ultimate: on the free tier their routes do not exist (GitLab CE). */
export function requireEpicsTier(kit: ServiceKit) {
  if (kit.config.LICENSE_TIER === "free") throw routeNotFound();
}

export const actorOf = (ctx: Ctx<unknown>, group: Group): EpicActor => ({ caller: callerOf(ctx), role: group.role });

/** The group's epic the caller may read; GitLab's authorize! on a missing or hidden epic is 403. */
export async function loadEpic(kit: ServiceKit, ctx: Ctx<unknown>, ref: string, iid: number) {
  const group = await groupOf(ctx, ref);
  const actor = actorOf(ctx, group);
  const epic = await findEpic(kit.db, group.group.id, iid);
  if (!epic || !canReadEpic(actor, epic)) throw forbidden();
  return { group, actor, epic };
}

/** One epic as its routes answer it, in the context of its group. */
export const presentOne = async (kit: ServiceKit, ctx: Ctx<unknown>, group: Group, epic: EpicWithLabels, subscribed?: boolean) =>
  (await presentEpics(kit, ctx, [epic], { groupPaths: new Map([[group.group.id, group.group.full_path]]), contextGroupId: group.group.id, subscribed }))[0];

