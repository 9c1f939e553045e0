import { badRequestMessage, unprocessable } from "@collab/core";
import type { Db } from "@collab/db";
import { addSystemNote } from "@collab/notes";
import type { WorkItemProject } from "@collab/work-items";
import { and, asc, desc, eq, gt, lt, ne, sql } from "drizzle-orm";
import { epicIssues, epics, noteTables, type EpicIssueRow, type EpicRow, type IssueRow } from "../db/schema";
import { IssueSystemNote, issueTarget } from "../domain/system-notes";

/** Room left between neighbours, as the issues' board order leaves it. */
const GAP = 1024;

/** Where an issue's project sits: its namespace and the groups above it, root first (empty for a user's project). */
export type ProjectPlace = Pick<WorkItemProject, "namespace_id" | "path_with_namespace" | "group_ids">;

/**
 * The full path of `groupId` when it is the project's group or one above it: the first segments
 * of the project's path, one per group (group_ids are the namespace's traversal ids, root first).
 */
export function groupPathAbove(project: ProjectPlace, groupId: number): string | undefined {
  const depth = project.group_ids.indexOf(groupId);
  return depth < 0 ? undefined : project.path_with_namespace.split("/").slice(0, depth + 1).join("/");
}

/** Whether an epic of `groupId` may hold the project's issues: the project is in that group or below it. */
export const projectUnderGroup = (project: Pick<WorkItemProject, "group_ids">, groupId: number) => project.group_ids.includes(groupId);

/** Work item types that may sit in an epic (GitLab's issue_type_supports?(:epics)): not test cases nor tasks. */
const EPIC_CHILD_TYPES = new Set(["issue", "incident"]);

/** Whether an epic of `groupId` may hold this issue (GitLab's supports_epic?, within the epic's group). */
export const epicMayHold = (groupId: number, issue: Pick<IssueRow, "issueType">, project: Pick<WorkItemProject, "group_ids">) =>
  EPIC_CHILD_TYPES.has(issue.issueType) && projectUnderGroup(project, groupId);

/** An epic as an issue's notes name it (GitLab's Epic#to_reference from the project): "&N" in its own group, else with the group's path. */
export function epicReferenceFrom(project: ProjectPlace, epic: Pick<EpicRow, "iid" | "groupId">): string {
  if (project.namespace_id === epic.groupId) return `&${epic.iid}`;
  return `${groupPathAbove(project, epic.groupId) ?? ""}&${epic.iid}`;
}

/** A confidential epic takes confidential issues only (GitLab's EpicIssue validation): 422 in its wording. */
export function checkEpicConfidentiality(epic: Pick<EpicRow, "confidential">, issue: Pick<IssueRow, "iid" | "confidential">) {
  if (epic.confidential && !issue.confidential)
    throw unprocessable(`#${issue.iid} cannot be added: Cannot assign a confidential epic to a non-confidential issue. Make the issue confidential and try again`);
}

/** What setIssueEpic did: the association now (null: none), the epic the issue left, whether anything changed. */
export interface EpicChange {
  link: EpicIssueRow | null;
  previousEpic: EpicRow | null;
  changed: boolean;
}

/**
 * Puts the issue in `epic` (null: in none) in the caller's transaction, with its system note: a new
 * association goes first in the epic's list (GitLab's move_to_start), an issue of another epic
 * moves (its association kept), and asking for the epic it is in changes nothing.
 */
export async function setIssueEpic(tx: Db, issue: IssueRow, epic: EpicRow | null, actorId: number, project: ProjectPlace): Promise<EpicChange> {
  const [current] = await tx.select().from(epicIssues).where(eq(epicIssues.issueId, issue.id)).for("update");
  const previousEpic = current ? ((await tx.select().from(epics).where(eq(epics.id, current.epicId)))[0] ?? null) : null;
  const note = (body: string) => addSystemNote(tx, noteTables, issueTarget(issue), actorId, body);
  if (epic === null) {
    if (!current) return { link: null, previousEpic: null, changed: false };
    await tx.delete(epicIssues).where(eq(epicIssues.id, current.id));
    if (previousEpic) await note(IssueSystemNote.removedFromEpic(epicReferenceFrom(project, previousEpic)));
    return { link: null, previousEpic, changed: true };
  }
  if (current?.epicId === epic.id) return { link: current, previousEpic: null, changed: false };
  const [{ first }] = await tx.select({ first: sql<number | null>`min(${epicIssues.relativePosition})` }).from(epicIssues).where(eq(epicIssues.epicId, epic.id));
  const position = first === null ? 0 : first - GAP;
  // An upsert on the issue's unique association: a concurrent first link of the same issue cannot fail.
  const [link] = await tx
    .insert(epicIssues)
    .values({ epicId: epic.id, issueId: issue.id, relativePosition: position })
    .onConflictDoUpdate({ target: epicIssues.issueId, set: { epicId: epic.id, relativePosition: position } })
    .returning();
  const ref = epicReferenceFrom(project, epic);
  await note(current ? IssueSystemNote.changedEpic(ref) : IssueSystemNote.addedToEpic(ref));
  return { link, previousEpic, changed: true };
}

/** Removes an association of the epic with its system note on the issue, in the caller's transaction. */
export async function removeEpicIssue(tx: Db, link: EpicIssueRow, issue: IssueRow, epic: EpicRow, actorId: number, project: ProjectPlace): Promise<void> {
  await tx.delete(epicIssues).where(eq(epicIssues.id, link.id));
  await addSystemNote(tx, noteTables, issueTarget(issue), actorId, IssueSystemNote.removedFromEpic(epicReferenceFrom(project, epic)));
}

/** Spreads an epic's positions evenly, keeping their order, when two neighbours leave no room. */
async function rebalance(tx: Db, epicId: number) {
  await tx.execute(sql`
    UPDATE ${epicIssues} e SET relative_position = r.pos FROM (
      SELECT id, (row_number() OVER (ORDER BY relative_position NULLS LAST, id)) * ${GAP} AS pos
      FROM ${epicIssues} WHERE epic_id = ${epicId}) r
    WHERE e.id = r.id`);
}

/**
 * Places `link` after `before` and before `after` (associations of the same epic; one may be
 * missing) in the caller's transaction. GitLab names them by what ends up on each side.
 */
export async function moveEpicIssue(tx: Db, link: EpicIssueRow, before: EpicIssueRow | undefined, after: EpicIssueRow | undefined): Promise<void> {
  const others = and(eq(epicIssues.epicId, link.epicId), ne(epicIssues.id, link.id));
  const positionOf = async (id: number) => (await tx.select({ p: epicIssues.relativePosition }).from(epicIssues).where(eq(epicIssues.id, id)))[0]?.p ?? 0;
  for (let attempt = 0; attempt < 2; attempt++) {
    const low = before ? await positionOf(before.id) : undefined;
    const high = after ? await positionOf(after.id) : undefined;
    let from: number;
    let to: number;
    if (low !== undefined && high !== undefined) [from, to] = [low, high];
    else if (low !== undefined) {
      const [next] = await tx.select({ p: epicIssues.relativePosition }).from(epicIssues).where(and(others, gt(epicIssues.relativePosition, low))).orderBy(asc(epicIssues.relativePosition)).limit(1);
      [from, to] = [low, next?.p ?? low + 2 * GAP];
    } else if (high !== undefined) {
      const [prev] = await tx.select({ p: epicIssues.relativePosition }).from(epicIssues).where(and(others, lt(epicIssues.relativePosition, high))).orderBy(desc(epicIssues.relativePosition)).limit(1);
      [from, to] = [prev?.p ?? high - 2 * GAP, high];
    } else return;
    if (Math.abs(to - from) >= 2) {
      await tx.update(epicIssues).set({ relativePosition: Math.floor((from + to) / 2) }).where(eq(epicIssues.id, link.id));
      return;
    }
    await rebalance(tx, link.epicId);
  }
  throw badRequestMessage({ error: "Issue could not be moved!" });
}
