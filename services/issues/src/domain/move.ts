import { nextIid, type Db } from "@collab/db";
import { addSystemNote, copyNotes, copyResourceEvents, recordStateEvent } from "@collab/notes";
import { eq, sql } from "drizzle-orm";
import { epicIssues, issueAssignees, issueLabels, issues, noteTables, subscriptions, type EpicRow, type IssueRow } from "../db/schema";
import { setIssueEpic, type ProjectPlace } from "../epics/epic-issues";
import { moveIssueLinks } from "../issue-links/issue-links";
import { IssueSystemNote, issueTarget } from "./system-notes";
import type { Actor } from "./issues";

export interface CopyPlan {
  targetProjectId: number;
  /** Labels and milestone of the target with the same names, resolved beforehand. */
  labelIds: number[];
  milestoneId: number | null;
  assigneeIds: number[];
  sourceRef: string;
  targetRefFor: (iid: number) => string;
  withNotes: boolean;
}

/** Copies an issue (and optionally its notes, keeping each thread together, and its resource events) into another project. */
async function copyIssue(tx: Db, source: IssueRow, actor: Actor, plan: CopyPlan): Promise<IssueRow> {
  const iid = await nextIid(tx, noteTables.internalIds, plan.targetProjectId, "issues");
  const [copy] = await tx
    .insert(issues)
    .values({
      projectId: plan.targetProjectId,
      iid,
      title: source.title,
      description: source.description,
      confidential: source.confidential,
      issueType: source.issueType,
      dueDate: source.dueDate,
      weight: source.weight,
      healthStatus: source.healthStatus,
      timeEstimate: source.timeEstimate,
      discussionLocked: source.discussionLocked,
      milestoneId: plan.milestoneId,
      authorId: source.authorId,
      relativePosition: sql`(SELECT COALESCE(max(relative_position), 0) + 1024 FROM issues.issues WHERE project_id = ${plan.targetProjectId})`,
    })
    .returning();
  if (plan.assigneeIds.length) await tx.insert(issueAssignees).values(plan.assigneeIds.map((userId) => ({ issueId: copy.id, userId })));
  if (plan.labelIds.length) await tx.insert(issueLabels).values([...new Set(plan.labelIds)].map((labelId) => ({ issueId: copy.id, labelId })));
  await tx.insert(subscriptions).values({ subscribableType: "Issue", subscribableId: copy.id, userId: actor.id, subscribed: true }).onConflictDoNothing();
  if (plan.withNotes) {
    // The history comes along with the notes (GitLab's CopyResourceEventsService); a milestone event only where the target has that milestone.
    const sameProject = plan.targetProjectId === source.projectId;
    const milestoneFor = (id: number) => (sameProject ? id : id === source.milestoneId ? plan.milestoneId : null);
    await copyResourceEvents(tx, noteTables, source.id, copy.id, milestoneFor);
    const userNotes = await copyNotes(tx, noteTables, { type: "Issue", id: source.id }, issueTarget(copy));
    if (userNotes) return (await tx.update(issues).set({ userNotesCount: userNotes }).where(eq(issues.id, copy.id)).returning())[0];
  }
  return copy;
}

/**
 * Move: the copy carries the notes and the original's issue links (and, with `keepsEpic`, the original's place in its epic, as
 * GitLab's rewrite_epic_issue); the original is closed and points at it.
 */
export function moveIssue(db: Db, source: IssueRow, actor: Actor, plan: Omit<CopyPlan, "withNotes"> & { keepsEpic?: boolean }): Promise<IssueRow> {
  return db.transaction(async (tx) => {
    const copy = await copyIssue(tx, source, actor, { ...plan, withNotes: true });
    if (plan.keepsEpic) await tx.update(epicIssues).set({ issueId: copy.id }).where(eq(epicIssues.issueId, source.id));
    await moveIssueLinks(tx, source.id, copy.id);
    await addSystemNote(tx, noteTables, issueTarget(copy), actor.id, IssueSystemNote.movedFrom(plan.sourceRef));
    await addSystemNote(tx, noteTables, issueTarget(source), actor.id, IssueSystemNote.movedTo(plan.targetRefFor(copy.iid)));
    const closing = source.state === "opened";
    await tx
      .update(issues)
      .set({
        movedToId: copy.id,
        updatedAt: new Date(),
        ...(closing ? { state: "closed", closedAt: new Date(), closedById: actor.id } : {}),
      })
      .where(eq(issues.id, source.id));
    if (closing) await recordStateEvent(tx, noteTables, { userId: actor.id, issueId: source.id, state: "closed" });
    return copy;
  });
}

/**
 * Clone: the original stays as it is; notes come along only when asked, and with `epic` the copy
 * joins the original's epic (GitLab's add_epic, with its system note on the copy).
 */
export function cloneIssue(db: Db, source: IssueRow, actor: Actor, plan: CopyPlan & { epic?: { epic: EpicRow; target: ProjectPlace } }): Promise<IssueRow> {
  return db.transaction(async (tx) => {
    const copy = await copyIssue(tx, source, actor, plan);
    if (plan.epic) await setIssueEpic(tx, copy, plan.epic.epic, actor.id, plan.epic.target);
    await addSystemNote(tx, noteTables, issueTarget(copy), actor.id, IssueSystemNote.clonedFrom(plan.sourceRef));
    await addSystemNote(tx, noteTables, issueTarget(source), actor.id, IssueSystemNote.clonedTo(plan.targetRefFor(copy.iid)));
    return copy;
  });
}
