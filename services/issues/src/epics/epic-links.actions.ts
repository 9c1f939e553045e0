import { ApiError, announce, conflict, forbidden, implement, recordNotFound, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { ActionSchema } from "moleculer";
import { epics, type EpicRow } from "../db/schema";
import { presentEpics } from "./epic.entity";
import { epicGroupScope, type EpicGroup } from "./epic-groups";
import { actorOf, loadEpic, requireEpicsTier, type Group } from "./epic-load";
import { canAdminEpic, canReadConfidentialEpics } from "./epic-permissions";
import { createEpic, epicPayload, epicUpdateEvents, updateEpic, wouldCycle } from "./epics";
import { withLabels, type EpicWithLabels } from "./epics.finder";

/** GitLab's answer when the child named is none the caller may link. */
const noMatchingEpic = () => new ApiError(404, { message: "No matching epic found. Make sure that you are adding a valid epic URL." }, "NOT_FOUND");

/** Adding or creating children is Ultimate (GitLab's subepics feature): 403 below. */
function requireSubepics(kit: ServiceKit) {
  requireEpicsTier(kit);
  if (kit.config.LICENSE_TIER !== "ultimate") throw forbidden();
}

/** The groups whose epics the routes of `group` reach: it and its descendants, as GitLab's EpicsFinder on the path's group. */
const reachableGroups = (ctx: Ctx<unknown>, group: Group) =>
  epicGroupScope(ctx, group, { include_descendant_groups: true, include_ancestor_groups: false }, canReadConfidentialEpics(actorOf(ctx, group)));

const readableIn = (groups: EpicGroup[], row: EpicRow) => !row.confidential || groups.some((g) => g.id === row.groupId && g.confidential);

/** An epic of `groups` the caller may read, by global id. */
async function readableEpicById(kit: ServiceKit, groups: EpicGroup[], id: number): Promise<EpicWithLabels | undefined> {
  const [row] = await kit.db.select().from(epics).where(and(eq(epics.id, id), inArray(epics.groupId, groups.map((g) => g.id))));
  return row && readableIn(groups, row) ? (await withLabels(kit.db, [row]))[0] : undefined;
}

/** Presents epics of `groups` in the context of `group`. */
const presentIn = (kit: ServiceKit, ctx: Ctx<unknown>, group: Group, groups: EpicGroup[], rows: EpicWithLabels[]) =>
  presentEpics(kit, ctx, rows, { groupPaths: new Map(groups.map((g) => [g.id, g.full_path])), contextGroupId: group.group.id });

/** The epic's children the caller may read, by relative position then id. */
async function childrenOf(kit: ServiceKit, ctx: Ctx<unknown>, group: Group, parentId: number) {
  const groups = await reachableGroups(ctx, group);
  const rows = await kit.db
    .select()
    .from(epics)
    .where(and(eq(epics.parentId, parentId), inArray(epics.groupId, groups.map((g) => g.id))))
    .orderBy(sql`${epics.relativePosition} ASC NULLS LAST`, asc(epics.id));
  return presentIn(kit, ctx, group, groups, await withLabels(kit.db, rows.filter((r) => readableIn(groups, r))));
}

/** The parent epic of a links write, which the caller must be able to edit (admin_epic_tree_relation). */
async function parentForWrite(kit: ServiceKit, ctx: Ctx<{ id: string; epic_iid: number }>) {
  requireEpicsTier(kit);
  const caller = requireCaller(ctx);
  const loaded = await loadEpic(kit, ctx, ctx.params.id, ctx.params.epic_iid);
  if (!canAdminEpic(loaded.actor)) throw forbidden();
  return { caller, ...loaded };
}

/** Moves `child` under `parentId` (or out of its parent), with its update event. */
async function setParent(kit: ServiceKit, child: EpicWithLabels, parentId: number | null, actorId: number) {
  const { epic } = await kit.events.transact(
    (tx) => updateEpic(tx, child, { parentId }, actorId),
    ({ epic: updated, changes }) => epicUpdateEvents(updated, changes, actorId),
  );
  return epic;
}

export const epicLinksActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "epicLinks.list": implement(
    Issues.epicLinks.list,
    async (ctx) => {
      requireEpicsTier(kit);
      requireCaller(ctx);
      const { group, epic } = await loadEpic(kit, ctx, ctx.params.id, ctx.params.epic_iid);
      return childrenOf(kit, ctx, group, epic.id);
    },
    { visibility: "published" },
  ),

  "epicLinks.assign": implement(
    Issues.epicLinks.assign,
    async (ctx) => {
      requireSubepics(kit);
      const { caller, group, epic } = await parentForWrite(kit, ctx);
      const groups = await reachableGroups(ctx, group);
      const child = await readableEpicById(kit, groups, ctx.params.child_epic_id);
      if (!child) throw noMatchingEpic();
      if (child.parentId === epic.id) throw conflict("Epic(s) already assigned");
      if (await wouldCycle(kit.db, child.id, epic.id)) throw conflict("This epic cannot be added. It is already an ancestor of the parent epic.");
      return (await presentIn(kit, ctx, group, groups, [await setParent(kit, child, epic.id, caller.id)]))[0];
    },
    { visibility: "published" },
  ),

  "epicLinks.create": implement(
    Issues.epicLinks.create,
    async (ctx) => {
      requireSubepics(kit);
      const { caller, group, epic } = await parentForWrite(kit, ctx);
      const child = await kit.events.transact(
        (tx) => createEpic(tx, group.group.id, caller.id, { title: ctx.params.title, confidential: ctx.params.confidential ?? epic.confidential, parentId: epic.id }),
        (created) => [announce(Issues.events.epicOpened, epicPayload(created, caller.id))],
      );
      const web = `${kit.baseUrl}/groups/${group.group.full_path}/-/epics`;
      return {
        id: child.id,
        iid: child.iid,
        title: child.title,
        group_id: child.groupId,
        parent_id: child.parentId,
        has_children: false,
        has_issues: false,
        reference: `&${child.iid}`,
        url: `${web}/${child.iid}`,
        relation_url: `${web}/${epic.iid}/links/${child.id}`,
      };
    },
    { visibility: "published" },
  ),

  "epicLinks.remove": implement(
    Issues.epicLinks.remove,
    async (ctx) => {
      const { caller, group, epic } = await parentForWrite(kit, ctx);
      // The child is looked up among this epic's children only.
      const groups = await reachableGroups(ctx, group);
      const child = await readableEpicById(kit, groups, ctx.params.child_epic_id);
      if (!child || child.parentId !== epic.id) throw recordNotFound();
      return (await presentIn(kit, ctx, group, groups, [await setParent(kit, child, null, caller.id)]))[0];
    },
    { visibility: "published" },
  ),
});
