import { nextIid as next, trackIid as track, type Db } from "@collab/db";
import type { NotesTables } from "../db/tables";

/** The @collab/db iid sequence on a noteable service's own internal_ids table. */
export const nextIid = (db: Db, tables: NotesTables, projectId: number, usage: string) => next(db, tables.internalIds, projectId, usage);

/** An explicit iid (set by admins/owners) moves the sequence past it. */
export const trackIid = (db: Db, tables: NotesTables, projectId: number, usage: string, iid: number) => track(db, tables.internalIds, projectId, usage, iid);
