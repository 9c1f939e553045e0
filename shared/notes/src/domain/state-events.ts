import type { Db } from "@collab/db";
import type { NotesTables } from "../db/tables";

/** What GitLab records: closed, reopened, merged, locked (the initial state is not recorded). */
export type RecordedState = "closed" | "reopened" | "merged" | "locked";

export type StateEventInput = { userId: number; state: RecordedState; createdAt?: Date } & (
  | { issueId: number; mergeRequestId?: never; epicId?: never }
  | { mergeRequestId: number; issueId?: never; epicId?: never }
  | { epicId: number; issueId?: never; mergeRequestId?: never }
);

/** A resource state event, inside the caller's transaction together with the state change. */
export async function recordStateEvent(tx: Db, tables: NotesTables, e: StateEventInput): Promise<void> {
  await tx.insert(tables.resourceStateEvents).values(e);
}
