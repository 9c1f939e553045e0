import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, eq } from "drizzle-orm";
import type { AwardEmojiRow, NotesTables } from "../db/tables";

/** What carries awards: a noteable ("Issue", "MergeRequest", "Snippet") or a note ("Note"). */
export interface Awardable {
  type: string;
  id: number;
  projectId: number | null;
}

const awardsOf = (tables: NotesTables, a: Awardable) => and(eq(tables.awardEmoji.awardableType, a.type), eq(tables.awardEmoji.awardableId, a.id));

/** A page of an awardable's awards, oldest first, and how many it has. */
export async function findAwards(db: Db, tables: NotesTables, a: Awardable, page: { page: number; per_page: number }): Promise<{ rows: AwardEmojiRow[]; total: number }> {
  const { awardEmoji } = tables;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(awardEmoji).where(awardsOf(tables, a)).orderBy(asc(awardEmoji.id)).limit(page.per_page).offset(offsetOf(page)),
    db.select({ total: count() }).from(awardEmoji).where(awardsOf(tables, a)),
  ]);
  return { rows, total };
}

/** One award of this awardable (another awardable's id is not found). */
export async function findAward(db: Db, tables: NotesTables, a: Awardable, awardId: number): Promise<AwardEmojiRow | undefined> {
  const [row] = await db.select().from(tables.awardEmoji).where(and(awardsOf(tables, a), eq(tables.awardEmoji.id, awardId)));
  return row;
}
