import { announce, isValidColor, normalizeColor, validationFailed } from "@collab/core";
import { nextIid, type Announcement, type Db } from "@collab/db";
import { recordLabelEvents, recordStateEvent, removeConversation } from "@collab/notes";
import { Issues } from "@collab/issues-contract";
import { and, eq, inArray } from "drizzle-orm";
import { epicLabels, epics, groupInternalIds, noteTables, subscriptions, type EpicRow } from "../db/schema";
import { checkIssueInput } from "../domain/issues";
import type { EpicWithLabels } from "./epics.finder";

/** An epic write, its names resolved to ids by the action. */
export interface EpicInput {
  title?: string;
  description?: string;
  color?: string;
  confidential?: boolean;
  labelIds?: number[];
  startDateFixed?: string | null;
  startDateIsFixed?: boolean;
  dueDateFixed?: string | null;
  dueDateIsFixed?: boolean;
  parentId?: number | null;
  stateEvent?: "close" | "reopen";
  createdAt?: Date;
  updatedAt?: Date;
}

/** The usage of epics' sequences in groupInternalIds. */
const EPIC_IIDS = "epics";

/** Title, description and colour as the model validates them (400 with each field's errors). */
function checkEpicInput(input: EpicInput): EpicInput {
  const { title, description } = checkIssueInput({ title: input.title, description: input.description });
  const out = { ...input, title, description };
  if (out.color !== undefined) {
    out.color = normalizeColor(out.color);
    if (!isValidColor(out.color)) throw validationFailed({ color: ["must be a valid color code"] });
  }
  return out;
}

/** The columns an input sets (labels and state aside). */
function columnsOf(input: EpicInput): Partial<typeof epics.$inferInsert> {
  const set: Partial<typeof epics.$inferInsert> = {};
  if (input.title !== undefined) set.title = input.title;
  if (input.description !== undefined) set.description = input.description;
  if (input.color !== undefined) set.color = input.color;
  if (input.confidential !== undefined) set.confidential = input.confidential;
  if (input.startDateFixed !== undefined) set.startDateFixed = input.startDateFixed;
  if (input.startDateIsFixed !== undefined) set.startDateIsFixed = input.startDateIsFixed;
  if (input.dueDateFixed !== undefined) set.dueDateFixed = input.dueDateFixed;
  if (input.dueDateIsFixed !== undefined) set.dueDateIsFixed = input.dueDateIsFixed;
  if (input.parentId !== undefined) set.parentId = input.parentId;
  return set;
}

/** A new epic of the group with its labels (and their label events), the author following it, in the caller's transaction. */
export async function createEpic(tx: Db, groupId: number, authorId: number, raw: EpicInput & { title: string }): Promise<EpicWithLabels> {
  const input = checkEpicInput(raw);
  const iid = await nextIid(tx, groupInternalIds, groupId, EPIC_IIDS);
  const createdAt = input.createdAt ?? new Date();
  const [row] = await tx
    .insert(epics)
    .values({ ...columnsOf(input), title: input.title!, groupId, iid, authorId, createdAt, updatedAt: createdAt })
    .returning();
  const labelIds = [...new Set(input.labelIds ?? [])];
  if (labelIds.length) await tx.insert(epicLabels).values(labelIds.map((labelId) => ({ epicId: row.id, labelId })));
  await recordLabelEvents(tx, noteTables, { epicId: row.id }, authorId, { before: [], after: labelIds }, createdAt);
  await tx.insert(subscriptions).values({ subscribableType: "Epic", subscribableId: row.id, userId: authorId, subscribed: true }).onConflictDoNothing();
  return { ...row, labelIds };
}

/**
 * Applies an edit to `epic` in the caller's transaction: its columns, labels (with their label events)
 * and state (closed_at and closed_by with it, and a resource state event). Answers the row and which fields changed ("state"
 * for a close or reopen).
 */
export async function updateEpic(tx: Db, epic: EpicWithLabels, raw: EpicInput, actorId: number): Promise<{ epic: EpicWithLabels; changes: string[] }> {
  const input = checkEpicInput(raw);
  const set = columnsOf(input);
  const changes = Object.entries(set)
    .filter(([k, v]) => epic[k as keyof EpicRow] !== v)
    .map(([k]) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  if (input.stateEvent === "close" && epic.state === "opened") Object.assign(set, { state: "closed", closedAt: new Date(), closedById: actorId }), changes.push("state");
  if (input.stateEvent === "reopen" && epic.state === "closed") Object.assign(set, { state: "opened", closedAt: null, closedById: null }), changes.push("state");
  let labelIds = epic.labelIds;
  if (input.labelIds !== undefined && !sameSet(input.labelIds, epic.labelIds)) {
    labelIds = [...new Set(input.labelIds)];
    await tx.delete(epicLabels).where(eq(epicLabels.epicId, epic.id));
    if (labelIds.length) await tx.insert(epicLabels).values(labelIds.map((labelId) => ({ epicId: epic.id, labelId })));
    await recordLabelEvents(tx, noteTables, { epicId: epic.id }, actorId, { before: epic.labelIds, after: labelIds });
    changes.push("labels");
  }
  if (changes.length === 0 && input.updatedAt === undefined) return { epic, changes };
  const [row] = await tx
    .update(epics)
    .set({ ...set, updatedAt: input.updatedAt ?? new Date(), updatedById: actorId })
    .where(eq(epics.id, epic.id))
    .returning();
  if (changes.includes("state")) await recordStateEvent(tx, noteTables, { epicId: epic.id, userId: actorId, state: row.state === "closed" ? "closed" : "reopened" });
  return { epic: { ...row, labelIds }, changes };
}

const sameSet = (a: number[], b: number[]) => a.length === new Set(b).size && new Set([...a, ...b]).size === a.length;

/**
 * Deletes the epic with its notes and state events; its children lose their parent (GitLab
 * nullifies parent_id), in the caller's transaction.
 */
export async function deleteEpic(tx: Db, epic: EpicRow): Promise<void> {
  await removeConversation(tx, noteTables, "Epic", [epic.id]);
  await tx.update(epics).set({ parentId: null }).where(eq(epics.parentId, epic.id));
  await tx.delete(subscriptions).where(and(eq(subscriptions.subscribableType, "Epic"), eq(subscriptions.subscribableId, epic.id)));
  await tx.delete(epics).where(eq(epics.id, epic.id));
}

/**
 * Whether `parentId` may become the parent of `epicId`: not the epic itself nor one of its
 * descendants (GitLab refuses a cycle).
 */
export async function wouldCycle(db: Db, epicId: number, parentId: number): Promise<boolean> {
  // Walks up from the parent (GitLab caps the depth at 7 levels; a corrupt chain stops at the cap).
  let current: number | null = parentId;
  for (let depth = 0; current !== null && depth < MAX_DEPTH; depth++) {
    if (current === epicId) return true;
    const [row]: { parentId: number | null }[] = await db.select({ parentId: epics.parentId }).from(epics).where(eq(epics.id, current));
    current = row?.parentId ?? null;
  }
  return current !== null;
}

const MAX_DEPTH = 7;

/** The group's epics among `ids` (a parent named by id must be in the hierarchy the path names). */
export async function epicsInGroups(db: Db, ids: number[], groupIds: number[]): Promise<EpicRow[]> {
  if (!ids.length || !groupIds.length) return [];
  return db.select().from(epics).where(and(inArray(epics.id, ids), inArray(epics.groupId, groupIds)));
}

/** What every epic event carries: the epic, and who acted. */
export const epicPayload = (epic: EpicRow, actorId: number) => ({ id: epic.id, iid: epic.iid, group_id: epic.groupId, actor_id: actorId, title: epic.title, confidential: epic.confidential });

/** The events of an epic edit: closed or reopened, and updated for the other fields. */
export function epicUpdateEvents(epic: EpicRow, changes: string[], actorId: number): Announcement[] {
  const others = changes.filter((c) => c !== "state");
  return [
    ...(changes.includes("state") ? [announce(epic.state === "closed" ? Issues.events.epicClosed : Issues.events.epicReopened, epicPayload(epic, actorId))] : []),
    ...(others.length ? [announce(Issues.events.epicUpdated, { ...epicPayload(epic, actorId), changes: others })] : []),
  ];
}
