import type { Db } from "@collab/db";
import { randomBytes } from "node:crypto";
import { notes, resourceStateEvents } from "../db/notes.schema";

/**
 * The only writers of this service's notes and resource state events (until the shared notes
 * package replaces db/notes.schema.ts, this file is the one to swap). Both take the caller's
 * transaction, so the activity commits with the change it records.
 */
export type StateEventState = "closed" | "reopened" | "merged" | "locked";

export async function recordStateEvent(tx: Db, mergeRequestId: number, userId: number, state: StateEventState, at = new Date()): Promise<void> {
  await tx.insert(resourceStateEvents).values({ mergeRequestId, userId, state, createdAt: at });
}

export async function addSystemNote(tx: Db, mergeRequest: { id: number; projectId: number }, authorId: number, body: string, at = new Date()): Promise<void> {
  await tx.insert(notes).values({
    noteableType: "MergeRequest",
    noteableId: mergeRequest.id,
    projectId: mergeRequest.projectId,
    authorId,
    body,
    system: true,
    discussionId: randomBytes(20).toString("hex"),
    createdAt: at,
    updatedAt: at,
  });
}
