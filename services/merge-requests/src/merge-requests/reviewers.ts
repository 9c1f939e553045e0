import type { Db } from "@collab/db";
import { and, asc, eq } from "drizzle-orm";
import { mergeRequestReviewers, type ReviewerState } from "../db/schema";

/** A merge request's reviewers, in the order they were asked. */
export const findReviewers = (db: Db, mergeRequestId: number) =>
  db.select().from(mergeRequestReviewers).where(eq(mergeRequestReviewers.mergeRequestId, mergeRequestId)).orderBy(asc(mergeRequestReviewers.createdAt), asc(mergeRequestReviewers.userId));

/**
 * A reviewer's state after what they did (GitLab's MergeRequests::UpdateReviewerStateService):
 * approving makes it approved, withdrawing the approval unapproved. Someone who is not a
 * reviewer of it changes nothing.
 */
export async function setReviewerState(tx: Db, mergeRequestId: number, userId: number, state: ReviewerState) {
  await tx.update(mergeRequestReviewers).set({ state }).where(and(eq(mergeRequestReviewers.mergeRequestId, mergeRequestId), eq(mergeRequestReviewers.userId, userId)));
}
