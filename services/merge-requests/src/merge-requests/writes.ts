import { charCount, conflict, isBlank, unprocessable, validationFailed } from "@collab/core";
import { nextIid, type Db } from "@collab/db";
import { and, eq, ne, sql } from "drizzle-orm";
import { approvals } from "../db/approvals.schema";
import { removeConversation } from "@collab/notes";
import { closingIssueRefs, noteTables, mergeRequestAssignees, mergeRequestLabels, mergeRequestReviewers, mergeRequests, subscriptions, type MergeRequestRow } from "../db/schema";
import { addSystemNote, recordLabelEvents, recordMilestoneEvent, recordStateEvent } from "../domain/activity";
import { removeSubscriptions } from "@collab/work-items";
import { isDraftTitle } from "./draft";
import { SystemNote } from "./system-notes";

/** A resolved write: names turned into ids, what the caller may not set already dropped. */
export interface MergeRequestInput {
  title?: string;
  description?: string | null;
  targetBranch?: string;
  assigneeIds?: number[];
  reviewerIds?: number[];
  labelIds?: number[];
  milestoneId?: number | null;
  forceRemoveSourceBranch?: boolean;
  allowCollaboration?: boolean;
  squash?: boolean;
  mergeAfter?: Date | null;
  stateEvent?: "close" | "reopen";
  discussionLocked?: boolean;
  approvalsBeforeMerge?: number;
  /** Issues the description closes (set whenever the description is written). */
  /** The issues the description references; `closes`: with the closing pattern. */
  closingRefs?: { projectId: number; iid: number; closes: boolean }[];
}

export interface Actor {
  id: number;
}

const MAX_DESCRIPTION = 1_048_576;

/** Model validations GitLab answers with 400 {"message": {field: [...]}}. */
function validate(input: MergeRequestInput, creating: boolean) {
  const errors: Record<string, string[]> = {};
  if (input.title !== undefined || creating) {
    const title = input.title ?? "";
    if (isBlank(title)) errors.title = ["can't be blank"];
    else if (charCount(title) > 255) errors.title = ["is too long (maximum is 255 characters)"];
  }
  if (input.description && input.description.length > MAX_DESCRIPTION) errors.description = [`is too long (maximum is ${MAX_DESCRIPTION} characters)`];
  if (Object.keys(errors).length) throw validationFailed(errors);
}

/** GitLab's validate_branches: same branch 422, another open merge request for the branches 409. */
async function checkBranches(db: Db, projectId: number, source: string, target: string, exceptId?: number) {
  if (source === target) throw unprocessable(["You can't use same project/branch for source and target"]);
  const [other] = await db
    .select({ iid: mergeRequests.iid })
    .from(mergeRequests)
    .where(
      and(
        eq(mergeRequests.projectId, projectId),
        eq(mergeRequests.sourceProjectId, projectId),
        eq(mergeRequests.sourceBranch, source),
        eq(mergeRequests.targetBranch, target),
        eq(mergeRequests.state, "opened"),
        exceptId !== undefined ? ne(mergeRequests.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (other) throw conflict([`Another open merge request already exists for this source branch: !${other.iid}`]);
}

async function replaceLinks(tx: Db, id: number, input: MergeRequestInput) {
  if (input.assigneeIds !== undefined) {
    await tx.delete(mergeRequestAssignees).where(eq(mergeRequestAssignees.mergeRequestId, id));
    if (input.assigneeIds.length) await tx.insert(mergeRequestAssignees).values([...new Set(input.assigneeIds)].map((userId) => ({ mergeRequestId: id, userId })));
  }
  if (input.labelIds !== undefined) {
    await tx.delete(mergeRequestLabels).where(eq(mergeRequestLabels.mergeRequestId, id));
    if (input.labelIds.length) await tx.insert(mergeRequestLabels).values([...new Set(input.labelIds)].map((labelId) => ({ mergeRequestId: id, labelId })));
  }
  if (input.closingRefs !== undefined) {
    await tx.delete(closingIssueRefs).where(eq(closingIssueRefs.mergeRequestId, id));
    if (input.closingRefs.length)
      await tx
        .insert(closingIssueRefs)
        .values(input.closingRefs.map((r) => ({ mergeRequestId: id, issueProjectId: r.projectId, issueIid: r.iid, closes: r.closes })))
        .onConflictDoNothing();
  }
}

/** Reviewers keep the time they were asked: only the difference is written. */
async function setReviewers(tx: Db, id: number, current: number[], next: number[]) {
  const wanted = [...new Set(next)];
  const removed = current.filter((u) => !wanted.includes(u));
  const added = wanted.filter((u) => !current.includes(u));
  if (removed.length) await tx.delete(mergeRequestReviewers).where(and(eq(mergeRequestReviewers.mergeRequestId, id), sql`${mergeRequestReviewers.userId} = ANY(${sql.param(removed)}::int[])`));
  if (added.length) await tx.insert(mergeRequestReviewers).values(added.map((userId) => ({ mergeRequestId: id, userId }))).onConflictDoNothing();
  return { added, removed };
}

export async function createMergeRequest(
  db: Db,
  projectId: number,
  actor: Actor,
  o: { sourceBranch: string; targetBranch: string; git: GitColumns; input: MergeRequestInput },
): Promise<MergeRequestRow> {
  validate(o.input, true);
  return db.transaction(async (tx) => {
    await checkBranches(tx, projectId, o.sourceBranch, o.targetBranch);
    const iid = await nextIid(tx, noteTables.internalIds, projectId, "merge_requests");
    const title = o.input.title!;
    const [mr] = await tx
      .insert(mergeRequests)
      .values({
        projectId,
        sourceProjectId: projectId,
        iid,
        title,
        description: o.input.description ?? null,
        draft: isDraftTitle(title),
        authorId: actor.id,
        sourceBranch: o.sourceBranch,
        targetBranch: o.targetBranch,
        ...o.git,
        milestoneId: o.input.milestoneId ?? null,
        squash: o.input.squash ?? false,
        forceRemoveSourceBranch: o.input.forceRemoveSourceBranch ?? false,
        allowCollaboration: o.input.allowCollaboration ?? false,
        mergeAfter: o.input.mergeAfter ?? null,
        approvalsBeforeMerge: o.input.approvalsBeforeMerge ?? null,
      })
      .returning();
    await replaceLinks(tx, mr.id, o.input);
    await recordLabelEvents(tx, mr.id, actor.id, [], o.input.labelIds ?? []);
    await recordMilestoneEvent(tx, mr.id, actor.id, { before: null, after: mr.milestoneId, state: mr.state });
    if (o.input.reviewerIds?.length) await setReviewers(tx, mr.id, [], o.input.reviewerIds);
    return mr;
  });
}

/** The git state columns of a row (sha, diff refs, merge status), from gitStateColumns. */
export type GitColumns = Partial<typeof mergeRequests.$inferInsert>;

export interface UpdateContext {
  actor: Actor;
  /** The git state read for a new target branch, stored with it. */
  git?: GitColumns;
  assigneeIds: number[];
  reviewerIds: number[];
  labelIds: number[];
  usernames: Map<number, string>;
}

/**
 * Applies an edit in one transaction: the row, its links, the system notes and the state event.
 * Answers the row and what changed (for the domain events).
 */
export async function updateMergeRequest(db: Db, mr: MergeRequestRow, input: MergeRequestInput, c: UpdateContext): Promise<{ mergeRequest: MergeRequestRow; changes: string[] }> {
  validate(input, false);
  return db.transaction(async (tx) => {
    const set: Partial<typeof mergeRequests.$inferInsert> = {};
    const changes: string[] = [];
    const note = (body: string) => addSystemNote(tx, mr, c.actor.id, body);
    const name = (id: number) => c.usernames.get(id) ?? String(id);

    if (input.title !== undefined && input.title !== mr.title) {
      set.title = input.title;
      set.draft = isDraftTitle(input.title);
      changes.push("title");
      if (set.draft !== mr.draft) await note(SystemNote.draft(set.draft));
      else await note(SystemNote.title(mr.title, input.title));
    }
    if (input.description !== undefined && input.description !== mr.description) {
      set.description = input.description;
      changes.push("description");
      await note(SystemNote.description());
    }
    const targetBranch = input.targetBranch ?? mr.targetBranch;
    const reopening = input.stateEvent === "reopen" && mr.state === "closed";
    if ((targetBranch !== mr.targetBranch && mr.state === "opened") || reopening) await checkBranches(tx, mr.projectId, mr.sourceBranch, targetBranch, mr.id);
    if (targetBranch !== mr.targetBranch) {
      set.targetBranch = targetBranch;
      Object.assign(set, c.git ?? {});
      changes.push("target_branch");
      await note(SystemNote.targetBranch(mr.targetBranch, targetBranch));
    }
    if (input.discussionLocked !== undefined && input.discussionLocked !== (mr.discussionLocked ?? false)) {
      set.discussionLocked = input.discussionLocked;
      changes.push("discussion_locked");
      await note(SystemNote.locked(input.discussionLocked));
    }
    // A milestone change is a resource milestone event (recorded below, with the state it leaves), not a system note.
    if (input.milestoneId !== undefined && input.milestoneId !== mr.milestoneId) {
      set.milestoneId = input.milestoneId;
      changes.push("milestone");
    }
    for (const [key, column] of [
      ["forceRemoveSourceBranch", "forceRemoveSourceBranch"],
      ["allowCollaboration", "allowCollaboration"],
      ["squash", "squash"],
      ["mergeAfter", "mergeAfter"],
      ["approvalsBeforeMerge", "approvalsBeforeMerge"],
    ] as const) {
      const value = input[key];
      const same = value instanceof Date && mr[column] instanceof Date ? value.getTime() === (mr[column] as Date).getTime() : value === mr[column];
      if (value !== undefined && !same) {
        (set as Record<string, unknown>)[column] = value;
        changes.push(key);
      }
    }
    if (input.stateEvent === "close" && mr.state === "opened") {
      Object.assign(set, { state: "closed", closedAt: new Date(), closedById: c.actor.id });
      await recordStateEvent(tx, mr.id, c.actor.id, "closed");
      changes.push("state");
    } else if (reopening) {
      Object.assign(set, { state: "opened", closedAt: null, closedById: null });
      await recordStateEvent(tx, mr.id, c.actor.id, "reopened");
      changes.push("state");
    }
    if (set.milestoneId !== undefined) await recordMilestoneEvent(tx, mr.id, c.actor.id, { before: mr.milestoneId, after: set.milestoneId, state: set.state ?? mr.state });
    if (input.assigneeIds !== undefined) {
      const next = [...new Set(input.assigneeIds)];
      const added = next.filter((id) => !c.assigneeIds.includes(id));
      const removed = c.assigneeIds.filter((id) => !next.includes(id));
      if (added.length || removed.length) {
        await replaceLinks(tx, mr.id, { assigneeIds: next });
        await note(SystemNote.assignees(added.map(name), removed.map(name)));
        changes.push("assignees");
      }
    }
    if (input.reviewerIds !== undefined) {
      const { added, removed } = await setReviewers(tx, mr.id, c.reviewerIds, input.reviewerIds);
      if (added.length || removed.length) {
        await note(SystemNote.reviewers(added.map(name), removed.map(name)));
        changes.push("reviewers");
      }
    }
    if (input.labelIds !== undefined) {
      const next = [...new Set(input.labelIds)];
      if (next.length !== c.labelIds.length || !next.every((id) => c.labelIds.includes(id))) {
        await replaceLinks(tx, mr.id, { labelIds: next });
        await recordLabelEvents(tx, mr.id, c.actor.id, c.labelIds, next);
        changes.push("labels");
      }
    }
    if (input.closingRefs !== undefined && changes.includes("description")) await replaceLinks(tx, mr.id, { closingRefs: input.closingRefs });

    if (changes.length === 0) return { mergeRequest: mr, changes };
    set.updatedAt = new Date();
    set.updatedById = c.actor.id;
    const [row] = await tx.update(mergeRequests).set(set).where(eq(mergeRequests.id, mr.id)).returning();
    return { mergeRequest: row, changes };
  });
}

/** Removes a merge request with everything hung on it (links cascade). */
export async function deleteMergeRequest(db: Db, mr: MergeRequestRow): Promise<void> {
  await db.transaction(async (tx) => {
    await removeConversation(tx, noteTables, "MergeRequest", [mr.id]);
    await tx.delete(approvals).where(eq(approvals.mergeRequestId, mr.id));
    await removeSubscriptions(tx, subscriptions, "MergeRequest", [mr.id]);
    await tx.delete(mergeRequests).where(eq(mergeRequests.id, mr.id));
  });
}

/** The merge request side of a merge, in one transaction: the row and its `merged` state event. */
export async function recordMerge(
  db: Db,
  mr: MergeRequestRow,
  actor: Actor,
  r: { mergeCommitSha: string | null; squashCommitSha: string | null; sourceSha: string; squash: boolean; shouldRemoveSourceBranch: boolean; git: GitColumns },
): Promise<MergeRequestRow | null> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const [row] = await tx
      .update(mergeRequests)
      .set({
        ...r.git,
        state: "merged",
        mergedAt: now,
        mergeUserId: actor.id,
        mergeCommitSha: r.mergeCommitSha,
        squashCommitSha: r.squashCommitSha,
        sha: r.sourceSha,
        mergeError: null,
        squash: r.squash,
        shouldRemoveSourceBranch: r.shouldRemoveSourceBranch,
        updatedAt: now,
        updatedById: actor.id,
      })
      // A concurrent merge or close wins: this one changes nothing then.
      .where(and(eq(mergeRequests.id, mr.id), eq(mergeRequests.state, "opened")))
      .returning();
    if (!row) return null;
    await recordStateEvent(tx, mr.id, actor.id, "merged", now);
    return row;
  });
}
