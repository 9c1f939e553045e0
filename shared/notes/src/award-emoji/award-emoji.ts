import { notFound } from "@collab/core";
import type { Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import type { AwardEmojiRow, NotesTables } from "../db/tables";
import type { Awardable } from "./award-emoji.finder";
import { DOWNVOTE, UPVOTE } from "./emoji-names";

/** Moves a noteable's upvotes/downvotes by the awards of `name` added (+1) or removed (-1); absent on kinds without counts. */
export type BumpVotes = (tx: Db, noteableId: number, column: "upvotes" | "downvotes", delta: number) => Promise<unknown>;

/** GitLab's answer to an award its model refuses: `not_found!("Award Emoji <errors>")`. */
export const awardRefused = (errors: string) => notFound(`Award Emoji ${errors}`);

const voteColumn = (name: string) => (name === UPVOTE ? "upvotes" : name === DOWNVOTE ? "downvotes" : null);

/**
 * Awards `name` (a valid emoji name) by `userId`, and moves the vote counts of a noteable, in the
 * caller's transaction (with its event). A second award of the same emoji by the same user is
 * refused, as GitLab's uniqueness validation does (the unique index decides under concurrency).
 */
export async function addAward(tx: Db, tables: NotesTables, a: Awardable, name: string, userId: number, bumpVotes?: BumpVotes): Promise<AwardEmojiRow> {
  const { awardEmoji } = tables;
  const [award] = await tx
    .insert(awardEmoji)
    .values({ name, userId, awardableType: a.type, awardableId: a.id, projectId: a.projectId })
    .onConflictDoNothing({ target: [awardEmoji.awardableType, awardEmoji.awardableId, awardEmoji.userId, awardEmoji.name] })
    .returning();
  if (!award) throw awardRefused("Name has already been taken");
  const column = voteColumn(name);
  if (column && bumpVotes && a.type !== "Note") await bumpVotes(tx, a.id, column, 1);
  return award;
}

/** Removes an award and moves the vote counts back, in the caller's transaction; false when a concurrent removal was first. */
export async function removeAward(tx: Db, tables: NotesTables, award: AwardEmojiRow, bumpVotes?: BumpVotes): Promise<boolean> {
  const [gone] = await tx.delete(tables.awardEmoji).where(eq(tables.awardEmoji.id, award.id)).returning({ id: tables.awardEmoji.id });
  const column = voteColumn(award.name);
  // A concurrent removal already moved the counts.
  if (gone && column && bumpVotes && award.awardableType !== "Note") await bumpVotes(tx, award.awardableId, column, -1);
  return gone !== undefined;
}

/** The awards of removed noteables of one type and of their notes (before the notes go), inside the removing transaction. */
export async function removeAwards(tx: Db, tables: NotesTables, type: string, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const { awardEmoji, notes } = tables;
  const idList = sql`ANY(${sql.param(ids)}::int[])`;
  await tx
    .delete(awardEmoji)
    .where(
      sql`(${awardEmoji.awardableType} = ${type} AND ${awardEmoji.awardableId} = ${idList}) OR (${awardEmoji.awardableType} = 'Note' AND ${awardEmoji.awardableId} IN (SELECT ${notes.id} FROM ${notes} WHERE ${and(eq(notes.noteableType, type), sql`${notes.noteableId} = ${idList}`)}))`,
    );
}
