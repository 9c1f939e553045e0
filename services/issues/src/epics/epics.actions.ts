import { announce, call, callerOf, forbidden, implement, page, requireCaller, type Ctx } from "@collab/core";
import type { ServiceKit } from "@collab/db";
import { fixedDates, Issues, type CreateEpicParams, type UpdateEpicParams } from "@collab/issues-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { groupOf, usersByUsername } from "@collab/work-items";
import type { ActionSchema } from "moleculer";
import { isSubscribed } from "../domain/issues";
import { presentEpics } from "./epic.entity";
import { canAdminEpic, canDestroyEpic, canReadConfidentialEpics } from "./epic-permissions";
import { canSetTimestamps } from "@collab/work-items";
import { actorOf, loadEpic, presentOne, requireEpicsTier, type Group } from "./epic-load";
import { createEpic, deleteEpic, epicPayload, epicsInGroups, epicUpdateEvents, updateEpic, wouldCycle, type EpicInput } from "./epics";
import { findEpics, type EpicNames, type EpicScope } from "./epics.finder";
import { epicGroupScope } from "./epic-groups";

/** Label names as the group sees them; unknown ones become group labels when `create` (and the caller may). */
async function groupLabelIds(ctx: Ctx<unknown>, groupId: number, names: string[] | undefined, create: boolean): Promise<number[] | undefined> {
  if (names === undefined) return undefined;
  if (names.length === 0) return [];
  return (await call(ctx, Namespaces.labels.resolveForGroup, { group_id: groupId, names, create_missing: create })).map((l) => l.id);
}

/** The label ids an edit leaves: `labels` replaces, then `add_labels` and `remove_labels` apply. */
async function editedLabelIds(ctx: Ctx<unknown>, groupId: number, p: UpdateEpicParams, current: number[]): Promise<number[] | undefined> {
  if (p.labels === undefined && p.add_labels === undefined && p.remove_labels === undefined) return undefined;
  const [replaced, added, removed] = await Promise.all([
    groupLabelIds(ctx, groupId, p.labels, true),
    groupLabelIds(ctx, groupId, p.add_labels, true),
    groupLabelIds(ctx, groupId, p.remove_labels, false),
  ]);
  const out = new Set([...(replaced ?? current), ...(added ?? [])]);
  for (const id of removed ?? []) out.delete(id);
  return [...out];
}

/** parent_id: an epic of the group or an ancestor, or else ignored as GitLab does; never a cycle. */
async function parentOf(kit: ServiceKit, group: Group, p: { parent_id?: number | null }, epicId?: number): Promise<number | null | undefined> {
  if (p.parent_id === undefined || p.parent_id === null) return p.parent_id;
  const [parent] = await epicsInGroups(kit.db, [p.parent_id], group.traversal_ids);
  if (!parent) return undefined;
  if (epicId !== undefined && (await wouldCycle(kit.db, epicId, parent.id))) return undefined;
  return parent.id;
}

/** The write's fields besides labels, state and parent. */
function inputOf(p: CreateEpicParams | UpdateEpicParams): EpicInput {
  const { start, due } = fixedDates(p);
  return {
    title: p.title,
    description: p.description,
    color: p.color,
    confidential: p.confidential,
    startDateFixed: start,
    startDateIsFixed: p.start_date_is_fixed,
    dueDateFixed: due,
    dueDateIsFixed: p.due_date_is_fixed,
  };
}

export const epicsActions = (kit: ServiceKit): Record<string, ActionSchema> => ({
  "epics.list": implement(
    Issues.epics.list,
    async (ctx) => {
      requireEpicsTier(kit);
      const p = ctx.params;
      const group = await groupOf(ctx, p.id);
      const groups = await epicGroupScope(ctx, group, p, canReadConfidentialEpics(actorOf(ctx, group)));
      const scope: EpicScope = { groups: groups.map((g) => ({ id: g.id, confidential: g.confidential })) };
      const names: EpicNames = {};
      if (Array.isArray(p.labels)) {
        const found = await call(ctx, Namespaces.labels.resolveForGroup, { group_id: group.group.id, names: p.labels, create_missing: false });
        names.labelIds = p.labels.map((name) => found.filter((l) => l.name === name.trim()).map((l) => l.id));
      }
      if (p.author_username !== undefined) names.authorId = (await usersByUsername(ctx, [p.author_username]))[0]?.id ?? null;
      const { rows, total } = await findEpics(kit.db, p, scope, names);
      const groupPaths = new Map(groups.map((g) => [g.id, g.full_path]));
      const items = await presentEpics(kit, ctx, rows, { groupPaths, contextGroupId: group.group.id, withLabelsDetails: p.with_labels_details });
      return page(items, total, p);
    },
    { visibility: "published" },
  ),

  "epics.get": implement(
    Issues.epics.get,
    async (ctx) => {
      requireEpicsTier(kit);
      const { group, epic } = await loadEpic(kit, ctx, ctx.params.id, ctx.params.epic_iid);
      const subscribed = await isSubscribed(kit.db, epic.id, callerOf(ctx)?.id, "Epic");
      return presentOne(kit, ctx, group, epic, subscribed);
    },
    { visibility: "published" },
  ),

  "epics.create": implement(
    Issues.epics.create,
    async (ctx) => {
      requireEpicsTier(kit);
      const caller = requireCaller(ctx);
      const p = ctx.params;
      const group = await groupOf(ctx, p.id);
      if (!canAdminEpic(actorOf(ctx, group))) throw forbidden();
      const [labelIds, parentId] = await Promise.all([groupLabelIds(ctx, group.group.id, p.labels, true), parentOf(kit, group, p)]);
      // created_at from anyone but owners and administrators is ignored, as on issues.
      const createdAt = canSetTimestamps(actorOf(ctx, group)) ? p.created_at : undefined;
      const input: EpicInput & { title: string } = { ...inputOf(p), title: p.title, labelIds, parentId, createdAt };
      const epic = await kit.events.transact(
        (tx) => createEpic(tx, group.group.id, caller.id, input),
        (created) => [announce(Issues.events.epicOpened, epicPayload(created, caller.id))],
      );
      return presentOne(kit, ctx, group, epic);
    },
    { visibility: "published" },
  ),

  "epics.update": implement(
    Issues.epics.update,
    async (ctx) => {
      requireEpicsTier(kit);
      const caller = requireCaller(ctx);
      const p = ctx.params;
      const loaded = await loadEpic(kit, ctx, p.id, p.epic_iid);
      if (!canAdminEpic(loaded.actor)) throw forbidden();
      const [labelIds, parentId] = await Promise.all([editedLabelIds(ctx, loaded.group.group.id, p, loaded.epic.labelIds), parentOf(kit, loaded.group, p, loaded.epic.id)]);
      const updatedAt = canSetTimestamps(loaded.actor) ? p.updated_at : undefined;
      const input: EpicInput = { ...inputOf(p), labelIds, parentId, stateEvent: p.state_event, updatedAt };
      const { epic } = await kit.events.transact(
        (tx) => updateEpic(tx, loaded.epic, input, caller.id),
        ({ epic: updated, changes }) => epicUpdateEvents(updated, changes, caller.id),
      );
      return presentOne(kit, ctx, loaded.group, epic);
    },
    { visibility: "published" },
  ),

  "epics.delete": implement(
    Issues.epics.delete,
    async (ctx) => {
      requireEpicsTier(kit);
      const caller = requireCaller(ctx);
      const loaded = await loadEpic(kit, ctx, ctx.params.id, ctx.params.epic_iid);
      if (!canDestroyEpic(loaded.actor)) throw forbidden();
      await kit.events.transact(
        (tx) => deleteEpic(tx, loaded.epic),
        () => [announce(Issues.events.epicDeleted, epicPayload(loaded.epic, caller.id))],
      );
      return null;
    },
    { visibility: "published" },
  ),
});
