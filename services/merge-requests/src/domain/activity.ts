import type { Db } from "@collab/db";
import { addSystemNote as addNote, recordLabelEvents as recordLabels, recordMilestoneEvent as recordMilestone, recordStateEvent as recordEvent, type RecordedState } from "@collab/notes";
import { noteTables } from "../db/schema";

/**
 * This service's writers of system notes and resource state, label and milestone events: the shared ones
 * (@collab/notes) bound to its tables. Both take the caller's transaction, so the activity
 * commits with the change it records.
 */
export type StateEventState = RecordedState;

export const recordStateEvent = (tx: Db, mergeRequestId: number, userId: number, state: StateEventState, at = new Date()) =>
  recordEvent(tx, noteTables, { mergeRequestId, userId, state, createdAt: at });

export const addSystemNote = (tx: Db, mergeRequest: { id: number; projectId: number }, authorId: number, body: string, at = new Date()) =>
  addNote(tx, noteTables, { type: "MergeRequest", id: mergeRequest.id, projectId: mergeRequest.projectId }, authorId, body, at);

/** One label event per label actually added or removed. */
export const recordLabelEvents = (tx: Db, mergeRequestId: number, userId: number, before: readonly number[], after: readonly number[]) =>
  recordLabels(tx, noteTables, { mergeRequestId }, userId, { before, after });

/** The milestone set (add) or removed (remove), with the merge request's state then; nothing when unchanged. */
export const recordMilestoneEvent = (tx: Db, mergeRequestId: number, userId: number, change: { before: number | null; after: number | null; state: string }) =>
  recordMilestone(tx, noteTables, { mergeRequestId }, userId, change);
