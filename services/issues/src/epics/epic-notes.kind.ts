import { AccessLevel, notFound, type Ctx } from "@collab/core";
import { Issues } from "@collab/issues-contract";
import type { LoadedNoteable, NoteableKind, NoteableRecord } from "@collab/notes";
import { canSetTimestamps, groupOf } from "@collab/work-items";
import { eq, sql } from "drizzle-orm";
import { epics, noteTables, type EpicRow } from "../db/schema";
import { actorOf, requireEpicsTier, type Group } from "./epic-load";
import { readableGroup } from "./epic-groups";
import { canReadEpic, type EpicActor } from "./epic-permissions";
import { findEpicById } from "./epics.finder";

/** An epic with the caller's standing on its own group (the path's, or a descendant of it). */
export type LoadedEpicNoteable = LoadedNoteable<NoteableRecord & { groupId: number }> & { group: Group; actor: EpicActor; epic: EpicRow };

/**
 * The group of `epic` as the caller stands in it, when the epic is inside the path's group: the
 * group itself or one of its descendants the caller may read (GitLab's EpicsFinder includes
 * descendant groups by default); else null.
 */
async function epicGroup(ctx: Ctx<unknown>, pathGroup: Group, epic: EpicRow): Promise<Group | null> {
  if (epic.groupId === pathGroup.group.id) return pathGroup;
  const group = await readableGroup(ctx, epic.groupId);
  return group && group.traversal_ids.includes(pathGroup.group.id) ? group : null;
}

/**
 * Epics as noteables of the shared notes code: a group's noteable (no project, hence no read-only
 * repository). GitLab's notes helpers find the epic by its global id inside the path's group (and
 * its descendants) and answer "404 Epic Not Found" when it is missing or hidden; EpicPolicy,
 * delegating to the epic's own group, decides the rest.
 */
export const epicNotes: NoteableKind<LoadedEpicNoteable> = {
  noteableType: "Epic",
  pathParam: "epic_id",
  tables: noteTables,
  events: { noteCreated: Issues.events.epicNoteCreated, noteUpdated: Issues.events.epicNoteUpdated, noteDeleted: Issues.events.epicNoteDeleted },
  resolvable: false,
  missing: () => notFound("Epic"),
  async load(kit, ctx, groupRef, epicId, missing) {
    // On the free tier the routes do not exist (GitLab CE).
    requireEpicsTier(kit);
    const pathGroup = await groupOf(ctx, groupRef);
    const epic = await findEpicById(kit.db, epicId);
    const group = epic ? await epicGroup(ctx, pathGroup, epic) : null;
    if (!epic || !group) throw missing();
    const actor = actorOf(ctx, group);
    if (!canReadEpic(actor, epic)) throw missing();
    const noteable = {
      id: epic.id,
      iid: epic.iid,
      projectId: null,
      groupId: epic.groupId,
      discussionLocked: null,
      authorId: epic.authorId,
      title: epic.title,
      confidential: epic.confidential,
    };
    return { noteable, caller: actor.caller, role: actor.role, access: null, group, actor, epic };
  },
  bumpUserNotesCount: (tx, epicId, delta) => tx.update(epics).set({ userNotesCount: sql`GREATEST(${epics.userNotesCount} + ${delta}, 0)` }).where(eq(epics.id, epicId)),
  can: {
    // create_note: any signed-in caller who reads the epic (confidential ones need Planner+ to be read at all).
    comment: (l) => l.caller !== null,
    // read_internal_note and mark_note_as_internal: Planners and Reporters up.
    seeInternalNotes: (l) => l.role >= AccessLevel.PLANNER,
    setTimestamps: (l) => canSetTimestamps(l.actor),
    // Epic threads are not resolvable.
    resolve: () => false,
  },
};
