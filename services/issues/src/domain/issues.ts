import { conflict, validationFailed } from "@collab/core";
import { NEXT_IID, nextIidCte, trackIid, type Db } from "@collab/db";
import { and, eq, sql } from "drizzle-orm";
import { addSystemNote, recordStateEvent, removeConversation } from "@collab/notes";
import { issueAssignees, issueLabels, issues, noteTables, subscriptions, type IssueRow } from "../db/schema";
import { IssueSystemNote, issueTarget } from "./system-notes";

/** Issue fields after names were resolved to ids and permissions applied. */
export interface IssueInput {
  title?: string;
  description?: string | null;
  confidential?: boolean;
  assigneeIds?: number[];
  milestoneId?: number | null;
  labelIds?: number[];
  dueDate?: string | null;
  discussionLocked?: boolean;
  issueType?: string;
  weight?: number | null;
  healthStatus?: string | null;
  epicId?: number | null;
  iterationId?: number | null;
  createdAt?: Date;
  updatedAt?: Date;
  iid?: number;
  stateEvent?: "close" | "reopen";
}

export interface Actor {
  id: number;
  username: string;
}

export const TITLE_MAX_LENGTH = 255;
export const DESCRIPTION_MAX_LENGTH = 1_048_576;

/** Characters as Ruby counts them (code points), not UTF-16 units. */
const charCount = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/**
 * The Issue model's validations, answered like GitLab's render_validation_error!
 * (400 {"message": {"title": ["can't be blank"]}}). Titles are stored stripped.
 */
export function checkIssueInput<T extends IssueInput>(input: T): T {
  const errors: Record<string, string[]> = {};
  const out = { ...input };
  if (out.title !== undefined) {
    out.title = out.title.trim();
    if (out.title === "") errors.title = ["can't be blank"];
    else if (charCount(out.title) > TITLE_MAX_LENGTH) errors.title = [`is too long (maximum is ${TITLE_MAX_LENGTH} characters)`];
  }
  const d = out.description;
  if (typeof d === "string" && d.length > DESCRIPTION_MAX_LENGTH && charCount(d) > DESCRIPTION_MAX_LENGTH)
    errors.description = [`is too long (maximum is ${DESCRIPTION_MAX_LENGTH} characters)`];
  if (Object.keys(errors).length) throw validationFailed(errors);
  return out;
}

/** Writes a new issue with its links and followers in the caller's transaction: two statements. */
export async function createIssue(tx: Db, projectId: number, actor: Actor, raw: IssueInput & { title: string }): Promise<IssueRow> {
  const input = checkIssueInput(raw);
  const now = input.createdAt ?? new Date();
  const row = {
    projectId,
    title: input.title,
    description: input.description ?? null,
    confidential: input.confidential ?? false,
    milestoneId: input.milestoneId ?? null,
    dueDate: input.dueDate ?? null,
    discussionLocked: input.discussionLocked ?? null,
    issueType: input.issueType ?? "issue",
    weight: input.weight ?? null,
    healthStatus: input.healthStatus ?? null,
    epicId: input.epicId ?? null,
    iterationId: input.iterationId ?? null,
    authorId: actor.id,
    // New issues go to the end of the board order.
    relativePosition: sql`(SELECT COALESCE(max(relative_position), 0) + 1024 FROM issues.issues WHERE project_id = ${projectId})`,
    createdAt: now,
    updatedAt: now,
  };
  let issue: IssueRow;
  if (input.iid !== undefined) {
    const [taken] = await tx.select({ id: issues.id }).from(issues).where(and(eq(issues.projectId, projectId), eq(issues.iid, input.iid)));
    if (taken) throw conflict("Duplicated issue");
    await trackIid(tx, noteTables.internalIds, projectId, "issues", input.iid);
    [issue] = await tx.insert(issues).values({ ...row, iid: input.iid }).returning();
  } else {
    // The iid is allocated in the insert's own statement.
    [issue] = await tx.with(nextIidCte(tx, noteTables.internalIds, projectId, "issues")).insert(issues).values({ ...row, iid: NEXT_IID }).returning();
  }
  // The author and assignees follow the issue.
  const followers = [...new Set([actor.id, ...(input.assigneeIds ?? [])])];
  await addLinksAndFollowers(tx, issue.id, input.assigneeIds ?? [], [...new Set(input.labelIds ?? [])], followers);
  return issue;
}

const column = (c: { name: string }) => sql.identifier(c.name);

/** A new issue's assignee and label links and its followers' subscriptions, in one statement. */
async function addLinksAndFollowers(tx: Db, issueId: number, assigneeIds: number[], labelIds: number[], followerIds: number[]) {
  await tx.execute(sql`WITH assigned AS (
      INSERT INTO ${issueAssignees} (${column(issueAssignees.issueId)}, ${column(issueAssignees.userId)}) SELECT ${issueId}, unnest(${sql.param(assigneeIds)}::int[])
    ), labelled AS (
      INSERT INTO ${issueLabels} (${column(issueLabels.issueId)}, ${column(issueLabels.labelId)}) SELECT ${issueId}, unnest(${sql.param(labelIds)}::int[])
    )
    INSERT INTO ${subscriptions} (${column(subscriptions.subscribableType)}, ${column(subscriptions.subscribableId)}, ${column(subscriptions.userId)}, ${column(subscriptions.subscribed)})
    SELECT 'Issue', ${issueId}, unnest(${sql.param(followerIds)}::int[]), true
    ON CONFLICT DO NOTHING`);
}

export interface UpdateContext {
  actor: Actor;
  /** Current assignees and labels, loaded before the transaction. */
  assigneeIds: number[];
  labelIds: number[];
  /** Usernames for the assignee system note. */
  usernames: Map<number, string>;
}

/** Applies an edit in the caller's transaction: row, links, system notes and the state event together. */
export async function updateIssue(tx: Db, issue: IssueRow, raw: IssueInput, c: UpdateContext): Promise<{ issue: IssueRow; changes: string[] }> {
  const input = checkIssueInput(raw);
  const set: Partial<typeof issues.$inferInsert> = {};
  const changes: string[] = [];
  const note = (body: string) => addSystemNote(tx, noteTables, issueTarget(issue), c.actor.id, body);

  if (input.title !== undefined && input.title !== issue.title) {
    set.title = input.title;
    changes.push("title");
    await note(IssueSystemNote.title(issue.title, input.title));
  }
  if (input.description !== undefined && input.description !== issue.description) {
    set.description = input.description;
    changes.push("description");
    await note(IssueSystemNote.description());
  }
  if (input.confidential !== undefined && input.confidential !== issue.confidential) {
    set.confidential = input.confidential;
    changes.push("confidential");
    await note(IssueSystemNote.confidential(input.confidential));
  }
  if (input.discussionLocked !== undefined && input.discussionLocked !== (issue.discussionLocked ?? false)) {
    set.discussionLocked = input.discussionLocked;
    changes.push("discussion_locked");
    await note(IssueSystemNote.locked(input.discussionLocked));
  }
  if (input.dueDate !== undefined && input.dueDate !== issue.dueDate) {
    set.dueDate = input.dueDate;
    changes.push("due_date");
    await note(IssueSystemNote.dueDate(input.dueDate));
  }
  if (input.issueType !== undefined && input.issueType !== issue.issueType) {
    set.issueType = input.issueType;
    changes.push("issue_type");
    await note(IssueSystemNote.issueType(issue.issueType, input.issueType));
  }
  if (input.milestoneId !== undefined && input.milestoneId !== issue.milestoneId) {
    set.milestoneId = input.milestoneId;
    changes.push("milestone");
  }
  for (const [key, column] of [["weight", "weight"], ["healthStatus", "healthStatus"], ["epicId", "epicId"], ["iterationId", "iterationId"]] as const) {
    if (input[key] !== undefined && input[key] !== issue[column]) {
      (set as Record<string, unknown>)[column] = input[key];
      changes.push(key);
    }
  }
  if (input.createdAt !== undefined) set.createdAt = input.createdAt;

  if (input.stateEvent === "close" && issue.state === "opened") {
    Object.assign(set, { state: "closed", closedAt: new Date(), closedById: c.actor.id });
    await recordStateEvent(tx, noteTables, { userId: c.actor.id, issueId: issue.id, state: "closed" });
    changes.push("state");
  } else if (input.stateEvent === "reopen" && issue.state === "closed") {
    Object.assign(set, { state: "opened", closedAt: null, closedById: null });
    await recordStateEvent(tx, noteTables, { userId: c.actor.id, issueId: issue.id, state: "reopened" });
    changes.push("state");
  }

  if (input.assigneeIds !== undefined) {
    const next = [...new Set(input.assigneeIds)];
    const added = next.filter((id) => !c.assigneeIds.includes(id));
    const removed = c.assigneeIds.filter((id) => !next.includes(id));
    if (added.length || removed.length) {
      await tx.delete(issueAssignees).where(eq(issueAssignees.issueId, issue.id));
      if (next.length) await tx.insert(issueAssignees).values(next.map((userId) => ({ issueId: issue.id, userId })));
      if (added.length)
        await tx
          .insert(subscriptions)
          .values(added.map((userId) => ({ subscribableType: "Issue", subscribableId: issue.id, userId, subscribed: true })))
          .onConflictDoNothing();
      const name = (id: number) => c.usernames.get(id) ?? String(id);
      await note(IssueSystemNote.assignees(added.map(name), removed.map(name)));
      changes.push("assignees");
    }
  }
  if (input.labelIds !== undefined) {
    const next = [...new Set(input.labelIds)];
    const same = next.length === c.labelIds.length && next.every((id) => c.labelIds.includes(id));
    if (!same) {
      await tx.delete(issueLabels).where(eq(issueLabels.issueId, issue.id));
      if (next.length) await tx.insert(issueLabels).values(next.map((labelId) => ({ issueId: issue.id, labelId })));
      changes.push("labels");
    }
  }

  if (changes.length === 0 && input.updatedAt === undefined && input.createdAt === undefined) return { issue, changes };
  set.updatedAt = input.updatedAt ?? new Date();
  set.updatedById = c.actor.id;
  const [row] = await tx.update(issues).set(set).where(eq(issues.id, issue.id)).returning();
  return { issue: row, changes };
}

export async function deleteIssue(db: Db, issue: IssueRow): Promise<void> {
  await db.transaction(async (tx) => {
    await removeConversation(tx, noteTables, "Issue", [issue.id]);
    await tx.delete(subscriptions).where(and(eq(subscriptions.subscribableType, "Issue"), eq(subscriptions.subscribableId, issue.id)));
    await tx.delete(issues).where(eq(issues.id, issue.id));
  });
}

/** Subscribes or unsubscribes; false when the caller was already in that state (GitLab's 304). */
export async function setSubscription(db: Db, issue: IssueRow, userId: number, subscribed: boolean): Promise<boolean> {
  const current = await isSubscribed(db, issue.id, userId);
  if (current === subscribed) return false;
  await db
    .insert(subscriptions)
    .values({ subscribableType: "Issue", subscribableId: issue.id, userId, subscribed })
    .onConflictDoUpdate({ target: [subscriptions.subscribableType, subscriptions.subscribableId, subscriptions.userId], set: { subscribed } });
  return true;
}

export async function isSubscribed(db: Db, issueId: number, userId: number | undefined): Promise<boolean> {
  if (userId === undefined) return false;
  const [row] = await db
    .select({ subscribed: subscriptions.subscribed })
    .from(subscriptions)
    .where(and(eq(subscriptions.subscribableType, "Issue"), eq(subscriptions.subscribableId, issueId), eq(subscriptions.userId, userId)));
  return row?.subscribed ?? false;
}

export async function labelIdsOf(db: Db, issueId: number): Promise<number[]> {
  return (await db.select({ id: issueLabels.labelId }).from(issueLabels).where(eq(issueLabels.issueId, issueId))).map((r) => r.id);
}

