import { offsetOf } from "@collab/core";
import type { Db } from "@collab/db";
import { and, asc, count, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AwardEmojiRow, NotesTables } from "../db/tables";
import { emojiName } from "./emoji-names";

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

/**
 * GitLab's my_reaction_emoji filter of issuable lists, as one condition on the list's own
 * statement: "None" — the user awarded nothing to the row, "Any" — something, a name — that emoji
 * ("+1" read as thumbsup). `negated`: not[my_reaction_emoji] ("None": awarded something, "Any":
 * nothing, a name: not that one). No user: no condition (GitLab ignores the filter for anonymous).
 */
export function reactionCondition(
  awardEmoji: NotesTables["awardEmoji"],
  type: string,
  rowId: SQLWrapper,
  userId: number | undefined,
  value: string | undefined,
  negated = false,
): SQL | undefined {
  if (value === undefined || userId === undefined) return undefined;
  const name = value === "None" || value === "Any" ? null : (emojiName(value) ?? value);
  const awarded = sql`EXISTS (SELECT 1 FROM ${awardEmoji} ae WHERE ae.awardable_type = ${type} AND ae.awardable_id = ${rowId} AND ae.user_id = ${userId}${name === null ? sql`` : sql` AND ae.name = ${name}`})`;
  const wantAwarded = value === "None" ? negated : !negated;
  return wantAwarded ? awarded : sql`NOT ${awarded}`;
}
