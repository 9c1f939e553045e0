import { charCount, conflict, isBlank, rubyStrip, validationFailed } from "@collab/core";
import { iidCte, iidOf, preparedQuery, type Db } from "@collab/db";
import { and, eq, getTableColumns, sql } from "drizzle-orm";
import { addSystemNote, recordIterationEvent, recordLabelEvents, recordMilestoneEvent, recordStateEvent, recordWeightEvent, removeConversation } from "@collab/notes";
import { issueAssignees, issueLabels, issues, noteTables, outbox, subscriptions, type EpicRow, type IssueRow } from "../db/schema";
import { checkEpicConfidentiality, setIssueEpic, type ProjectPlace } from "../epics/epic-issues";
import { Issues } from "@collab/issues-contract";
import { issuePayloadSql } from "./events";
import { IssueSystemNote, issueTarget } from "./system-notes";
import { setSubscription as setSubscriptionOf, subscriptionOf } from "@collab/work-items";

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
  /** The epic to be in (null: none), resolved and authorized by the action. */
  epic?: EpicRow | null;
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

/**
 * The Issue model's validations, answered like GitLab's render_validation_error!
 * (400 {"message": {"title": ["can't be blank"]}}). Titles are stored stripped.
 */
export function checkIssueInput<T extends IssueInput>(input: T): T {
  const errors: Record<string, string[]> = {};
  const out = { ...input };
  if (out.title !== undefined) {
    // As Ruby strips and Rails tests presence: a BOM or a zero-width space is kept, an NBSP-only title is blank.
    out.title = rubyStrip(out.title);
    if (isBlank(out.title)) errors.title = ["can't be blank"];
    else if (charCount(out.title) > TITLE_MAX_LENGTH) errors.title = [`is too long (maximum is ${TITLE_MAX_LENGTH} characters)`];
  }
  const d = out.description;
  if (typeof d === "string" && d.length > DESCRIPTION_MAX_LENGTH && charCount(d) > DESCRIPTION_MAX_LENGTH)
    errors.description = [`is too long (maximum is ${DESCRIPTION_MAX_LENGTH} characters)`];
  if (Object.keys(errors).length) throw validationFailed(errors);
  return out;
}

const column = (c: { name: string }) => sql.identifier(c.name);
const param = (name: string) => sql.placeholder(name);

/**
 * A new issue with everything that comes with it, in one prepared statement (atomic on its own,
 * built once per database): the iid (allocated from the project's sequence, or an owner's
 * explicit one, which moves the sequence past it), the row at the end of the board order, its
 * assignee and label links, its label, milestone, weight and iteration events, its followers'
 * subscriptions, and its `opened` event in the outbox
 * (issuePayloadSql: the payload issuePayload builds, from the inserted row).
 */
const createStatement = preparedQuery((db: Db) => {
  const explicitIid = sql`${param("iid")}::int`;
  const nextIid = iidCte(db, noteTables.internalIds, param("projectId"), "issues", explicitIid);
  const created = db.$with("created").as(
    db
      .insert(issues)
      .values({
        projectId: param("projectId"),
        iid: iidOf(explicitIid),
        title: param("title"),
        description: param("description"),
        confidential: param("confidential"),
        milestoneId: param("milestoneId"),
        dueDate: param("dueDate"),
        discussionLocked: param("discussionLocked"),
        issueType: param("issueType"),
        weight: param("weight"),
        healthStatus: param("healthStatus"),
        iterationId: param("iterationId"),
        authorId: param("authorId"),
        relativePosition: sql`(SELECT COALESCE(max(relative_position), 0) + 1024 FROM ${issues} WHERE ${issues.projectId} = ${param("projectId")})`,
        createdAt: param("createdAt"),
        updatedAt: param("createdAt"),
      })
      .returning(),
  );
  const written = { n: sql<number>`n` };
  const assigned = db.$with("assigned", written).as(
    sql`INSERT INTO ${issueAssignees} (${column(issueAssignees.issueId)}, ${column(issueAssignees.userId)})
      SELECT c.id, unnest(${param("assigneeIds")}::int[]) FROM created c RETURNING 1 AS n`,
  );
  const labelled = db.$with("labelled", written).as(
    sql`INSERT INTO ${issueLabels} (${column(issueLabels.issueId)}, ${column(issueLabels.labelId)})
      SELECT c.id, unnest(${param("labelIds")}::int[]) FROM created c RETURNING 1 AS n`,
  );
  // The creation's resource events, as GitLab's CommonSystemNotesService records them on create: each label added, the milestone, weight and iteration set.
  const { resourceLabelEvents: rle, resourceMilestoneEvents: rme, resourceWeightEvents: rwe, resourceIterationEvents: rie } = noteTables;
  const labelEvents = db.$with("label_events", written).as(
    sql`INSERT INTO ${rle} (${column(rle.userId)}, ${column(rle.issueId)}, ${column(rle.labelId)}, ${column(rle.action)}, ${column(rle.createdAt)})
      SELECT c.author_id, c.id, unnest(${param("labelIds")}::int[]), 'add', c.created_at FROM created c RETURNING 1 AS n`,
  );
  const milestoneEvents = db.$with("milestone_events", written).as(
    sql`INSERT INTO ${rme} (${column(rme.userId)}, ${column(rme.issueId)}, ${column(rme.milestoneId)}, ${column(rme.action)}, ${column(rme.state)}, ${column(rme.createdAt)})
      SELECT c.author_id, c.id, c.milestone_id, 'add', c.state, c.created_at FROM created c WHERE c.milestone_id IS NOT NULL RETURNING 1 AS n`,
  );
  const weightEvents = db.$with("weight_events", written).as(
    sql`INSERT INTO ${rwe} (${column(rwe.userId)}, ${column(rwe.issueId)}, ${column(rwe.weight)}, ${column(rwe.createdAt)})
      SELECT c.author_id, c.id, c.weight, c.created_at FROM created c WHERE c.weight IS NOT NULL RETURNING 1 AS n`,
  );
  const iterationEvents = db.$with("iteration_events", written).as(
    sql`INSERT INTO ${rie} (${column(rie.userId)}, ${column(rie.issueId)}, ${column(rie.iterationId)}, ${column(rie.action)}, ${column(rie.createdAt)})
      SELECT c.author_id, c.id, c.iteration_id, 'add', c.created_at FROM created c WHERE c.iteration_id IS NOT NULL RETURNING 1 AS n`,
  );
  const followed = db.$with("followed", written).as(
    sql`INSERT INTO ${subscriptions} (${column(subscriptions.subscribableType)}, ${column(subscriptions.subscribableId)}, ${column(subscriptions.userId)}, ${column(subscriptions.subscribed)})
      SELECT 'Issue', c.id, unnest(${param("followerIds")}::int[]), true FROM created c ON CONFLICT DO NOTHING RETURNING 1 AS n`,
  );
  const announced = db.$with("announced", written).as(
    sql`INSERT INTO ${outbox} (${column(outbox.eventId)}, ${column(outbox.name)}, ${column(outbox.payload)})
      SELECT ${param("eventId")}::uuid, ${param("eventName")}::text,
        ${issuePayloadSql("c", sql`${param("authorId")}::int`)} || jsonb_build_object('assignee_ids', to_jsonb(${param("assigneeIds")}::int[]), 'description', c.description)
      FROM created c RETURNING 1 AS n`,
  );
  return db
    .with(nextIid, created, assigned, labelled, labelEvents, milestoneEvents, weightEvents, iterationEvents, followed, announced)
    .select()
    .from(created)
    .prepare("issues_create");
});

const isTakenIid = (err: unknown) => {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const pgError = e?.cause ?? e;
  return pgError?.code === "23505" && pgError?.constraint === "issues_project_iid_idx";
};

/**
 * Writes a new issue, its links and followers and its `opened` event (Issues.events.issueOpened,
 * `eventId` the outbox row's id) in one statement; answers the row. A taken explicit iid is 409
 * Duplicated issue.
 */
export async function createIssue(db: Db, projectId: number, actor: Actor, raw: IssueInput & { title: string }, eventId: string): Promise<IssueRow> {
  const input = checkIssueInput(raw);
  const createdAt = input.createdAt ?? new Date();
  try {
    const [issue] = await createStatement(db, {
      projectId,
      iid: input.iid ?? null,
      title: input.title,
      description: input.description ?? null,
      confidential: input.confidential ?? false,
      milestoneId: input.milestoneId ?? null,
      dueDate: input.dueDate ?? null,
      discussionLocked: input.discussionLocked ?? null,
      issueType: input.issueType ?? "issue",
      weight: input.weight ?? null,
      healthStatus: input.healthStatus ?? null,
      iterationId: input.iterationId ?? null,
      authorId: actor.id,
      createdAt,
      assigneeIds: input.assigneeIds ?? [],
      labelIds: [...new Set(input.labelIds ?? [])],
      // The author and assignees follow the issue.
      followerIds: [...new Set([actor.id, ...(input.assigneeIds ?? [])])],
      eventId,
      eventName: Issues.events.issueOpened.name,
    });
    return issue as IssueRow;
  } catch (err) {
    if (isTakenIid(err)) throw conflict("Duplicated issue");
    throw err;
  }
}

export interface UpdateContext {
  actor: Actor;
  /** Current assignees and labels, loaded before the transaction. */
  assigneeIds: number[];
  labelIds: number[];
  /** Usernames for the assignee system note. */
  usernames: Map<number, string>;
  /** The issue's project, for the epic's reference in its system note. */
  project: ProjectPlace;
}

/** Applies an edit in the caller's transaction: row, links, system notes and the state, label, milestone, weight and iteration events together. */
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
  for (const [key, column] of [["weight", "weight"], ["healthStatus", "healthStatus"], ["iterationId", "iterationId"]] as const) {
    if (input[key] !== undefined && input[key] !== issue[column]) {
      (set as Record<string, unknown>)[column] = input[key];
      changes.push(key);
    }
  }
  // Weight and iteration changes are resource events, not system notes (the milestone's is recorded below, with the state it leaves).
  const on = { issueId: issue.id };
  if (set.weight !== undefined) await recordWeightEvent(tx, noteTables, issue.id, c.actor.id, { before: issue.weight, after: set.weight });
  if (set.iterationId !== undefined) await recordIterationEvent(tx, noteTables, issue.id, c.actor.id, { before: issue.iterationId, after: set.iterationId });
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
  if (set.milestoneId !== undefined)
    await recordMilestoneEvent(tx, noteTables, on, c.actor.id, { before: issue.milestoneId, after: set.milestoneId, state: set.state ?? issue.state });

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
      await recordLabelEvents(tx, noteTables, on, c.actor.id, { before: c.labelIds, after: next });
      changes.push("labels");
    }
  }

  if (input.epic !== undefined) {
    // After the confidentiality change of the same edit: a confidential epic takes confidential issues.
    if (input.epic) checkEpicConfidentiality(input.epic, { iid: issue.iid, confidential: set.confidential ?? issue.confidential });
    if ((await setIssueEpic(tx, issue, input.epic, c.actor.id, c.project)).changed) changes.push("epic");
  }

  if (changes.length === 0 && input.updatedAt === undefined && input.createdAt === undefined) return { issue, changes };
  set.updatedAt = input.updatedAt ?? new Date();
  set.updatedById = c.actor.id;
  const [row] = await tx.update(issues).set(set).where(eq(issues.id, issue.id)).returning();
  return { issue: row, changes };
}

/**
 * A close or reopen and nothing else (the commonest edit) in one prepared statement, atomic on its
 * own: the row's new state, its resource state event, its closed/reopened event in the outbox
 * (issuePayloadSql), and whether `subscriberId` follows the issue, for the answer. The update
 * only applies while the issue is still in the state it was loaded in; otherwise (a concurrent
 * edit) it answers null and nothing was written.
 */
const transitionStatement = preparedQuery((db: Db) => {
  const value = (name: string, type: string) => sql`${param(name)}::${sql.raw(type)}`;
  const followed = sql<boolean | null>`(SELECT ${subscriptions.subscribed} FROM ${subscriptions}
    WHERE ${subscriptions.subscribableType} = 'Issue' AND ${subscriptions.subscribableId} = ${issues.id} AND ${subscriptions.userId} = ${value("subscriberId", "int")})`;
  const moved = db.$with("moved").as(
    db
      .update(issues)
      .set({
        state: value("state", "text"),
        closedAt: value("closedAt", "timestamptz"),
        closedById: value("closedById", "int"),
        updatedAt: value("updatedAt", "timestamptz"),
        updatedById: value("actorId", "int"),
      })
      .where(and(eq(issues.id, value("issueId", "int")), eq(issues.state, value("fromState", "text"))))
      .returning({ ...getTableColumns(issues), subscribed: followed.as("subscribed") }),
  );
  const written = { n: sql<number>`n` };
  const { resourceStateEvents: rse } = noteTables;
  const recorded = db.$with("recorded", written).as(
    sql`INSERT INTO ${rse} (${column(rse.userId)}, ${column(rse.issueId)}, ${column(rse.state)}, ${column(rse.createdAt)})
      SELECT ${value("actorId", "int")}, m.id, ${value("recordedState", "text")}, ${value("updatedAt", "timestamptz")} FROM moved m RETURNING 1 AS n`,
  );
  const announced = db.$with("announced", written).as(
    sql`INSERT INTO ${outbox} (${column(outbox.eventId)}, ${column(outbox.name)}, ${column(outbox.payload)})
      SELECT ${value("eventId", "uuid")}, ${value("eventName", "text")}, ${issuePayloadSql("m", value("actorId", "int"))}
      FROM moved m RETURNING 1 AS n`,
  );
  return db.with(moved, recorded, announced).select().from(moved).prepare("issues_transition");
});

/** Whether an edit is a state change alone that `transitionIssue` can write (see updateIssue for the rest). */
export function isTransitionOnly(issue: IssueRow, input: IssueInput): input is IssueInput & { stateEvent: "close" | "reopen" } {
  const fields = Object.entries(input).filter(([, v]) => v !== undefined);
  if (fields.length !== 1 || fields[0][0] !== "stateEvent") return false;
  return (input.stateEvent === "close" && issue.state === "opened") || (input.stateEvent === "reopen" && issue.state === "closed");
}

/**
 * Closes or reopens `issue` (isTransitionOnly) with its state event and its Issues.events
 * closed/reopened event (`eventId`), as updateIssue and the outbox would in a transaction. Answers
 * the row and whether `subscriberId` follows it, or null when the issue's state changed meanwhile.
 */
export async function transitionIssue(
  db: Db,
  issue: IssueRow,
  stateEvent: "close" | "reopen",
  actorId: number,
  eventId: string,
): Promise<{ issue: IssueRow; subscribed: boolean } | null> {
  const closing = stateEvent === "close";
  const now = new Date();
  const [row] = await transitionStatement(db, {
    issueId: issue.id,
    fromState: issue.state,
    state: closing ? "closed" : "opened",
    closedAt: closing ? now : null,
    closedById: closing ? actorId : null,
    updatedAt: now,
    actorId,
    recordedState: closing ? "closed" : "reopened",
    eventId,
    eventName: (closing ? Issues.events.issueClosed : Issues.events.issueReopened).name,
    subscriberId: actorId,
  });
  if (!row) return null;
  const { subscribed, ...moved } = row;
  return { issue: moved as IssueRow, subscribed: subscribed ?? false };
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
  const target = { type: "Issue", id: issue.id };
  return setSubscriptionOf(db, subscriptions, target, userId, subscribed, (await subscriptionOf(db, subscriptions, target, userId)) ?? false);
}

/** Whether the user follows the issue (or, with `type` "Epic", the epic): its author and assignees follow it from the start (rows written then). */
export async function isSubscribed(db: Db, id: number, userId: number | undefined, type: "Issue" | "Epic" = "Issue"): Promise<boolean> {
  return (await subscriptionOf(db, subscriptions, { type, id }, userId)) ?? false;
}

