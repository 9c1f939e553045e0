import { Accounts } from "@collab/accounts-contract";
import { pickFields, type PayloadOf } from "@collab/core";
import { consumersOf, on, type Subscriptions, type Db, type EventHandler, type EventMeta } from "@collab/db";
import { Issues } from "@collab/issues-contract";
import { MergeRequests } from "@collab/merge-requests-contract";
import { Namespaces } from "@collab/namespaces-contract";
import { Repositories } from "@collab/repositories-contract";
import { Snippets } from "@collab/snippets-contract";
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { ServiceBroker } from "moleculer";
import { events, type NewEvent, type PushData } from "../db/schema";
import { todoHandlers } from "../todos/todo.consumers";
import { removeTodosOfProject, removeTodosOfUser } from "../todos/todos.store";

const ZERO_SHA = "0".repeat(40);

/** One record per domain event; a redelivered event (same id) writes nothing. */
async function record(tx: Db, event: EventMeta, row: Omit<NewEvent, "sourceEventId" | "createdAt">) {
  await tx
    .insert(events)
    .values({ ...row, sourceEventId: event.id, createdAt: new Date(event.occurredAt) })
    .onConflictDoNothing({ target: events.sourceEventId });
}

/** Targets whose events (and their comments' events) are kept in step with them. */
type Target = "Issue" | "MergeRequest" | "Snippet" | "Epic";

/** Comments on this target. */
const commentsOn = (targetType: Target, targetId: number) =>
  and(eq(events.targetType, "Note"), sql`${events.note}->>'noteable_type' = ${targetType}`, sql`(${events.note}->>'noteable_id')::int = ${targetId}`);

/** A deleted issue, merge request, snippet or epic takes its events and its comments' events with it (GitLab: dependent delete). */
async function removeTargetEvents(tx: Db, targetType: Target, targetId: number) {
  await tx
    .delete(events)
    .where(
      or(and(eq(events.targetType, targetType), eq(events.targetId, targetId)), commentsOn(targetType, targetId)),
    );
}

/**
 * GitLab presents an event's target live: a renamed issue or epic shows its new title, and one
 * made confidential hides its past events (and its comments' events) from those who may not read it.
 */
async function followTarget(tx: Db, targetType: "Issue" | "Epic", p: { id: number; title: string; confidential: boolean }) {
  const live = { targetTitle: p.title, confidential: p.confidential };
  await tx.update(events).set(live).where(and(eq(events.targetType, targetType), eq(events.targetId, p.id)));
  await tx.update(events).set(live).where(commentsOn(targetType, p.id));
}

// Issues ------------------------------------------------------------------------------------------

/** What an issue's record reads of its events (Issues.events). */
const issueFields = pickFields("id", "iid", "project_id", "actor_id", "title", "confidential");
type IssueEvent = Pick<PayloadOf<typeof Issues.events.issueOpened>, "id" | "iid" | "project_id" | "actor_id" | "title" | "confidential">;

const issueRecord =
  (action: string): EventHandler<IssueEvent> =>
  (p, tx, event) =>
    record(tx, event, { projectId: p.project_id, authorId: p.actor_id, action, targetType: "Issue", targetId: p.id, targetIid: p.iid, targetTitle: p.title, confidential: p.confidential });

const issueUpdated: EventHandler<IssueEvent> = (p, tx) => followTarget(tx, "Issue", p);

// Epics -------------------------------------------------------------------------------------------

/** What an epic's record reads of its events: a group's, so no project (GitLab's events.group_id). */
const epicFields = pickFields("id", "iid", "group_id", "actor_id", "title", "confidential");
type EpicEvent = Pick<PayloadOf<typeof Issues.events.epicOpened>, "id" | "iid" | "group_id" | "actor_id" | "title" | "confidential">;

/** EE EventCreateService records an epic's creation, closing and reopening (and comments), not its edits. */
const epicRecord =
  (action: string): EventHandler<EpicEvent> =>
  (p, tx, event) =>
    record(tx, event, { projectId: null, groupId: p.group_id, authorId: p.actor_id, action, targetType: "Epic", targetId: p.id, targetIid: p.iid, targetTitle: p.title, confidential: p.confidential });

// Merge requests ----------------------------------------------------------------------------------

/** What a merge request's record reads of its events (MergeRequests.events), approvals' included. */
const mrFields = pickFields("id", "iid", "project_id", "actor_id", "title");
type MergeRequestEvent = Pick<PayloadOf<typeof MergeRequests.events.mergeRequestApproved>, "id" | "iid" | "project_id" | "actor_id" | "title">;

const mergeRequestRecord =
  (action: string): EventHandler<MergeRequestEvent> =>
  (p, tx, event) =>
    record(tx, event, { projectId: p.project_id, authorId: p.actor_id, action, targetType: "MergeRequest", targetId: p.id, targetIid: p.iid, targetTitle: p.title });

// Snippets ----------------------------------------------------------------------------------------

const SE = Snippets.events;

/**
 * A project snippet's creation. Only public snippets are shown to everybody who reads the project:
 * the others are recorded as confidential, so their title reaches Reporters and up (and the author)
 * only, a little stricter than GitLab's read_snippet for internal and Guest-visible ones.
 * A personal snippet's creation records nothing, as in GitLab: Snippets::CreateService creates no
 * event and EventCreateService has no snippet action (project snippets' records predate this).
 */
const snippetCreated = on(SE.snippetCreated, async (p, tx, event) => {
  if (p.project_id === null) return;
  await record(tx, event, { projectId: p.project_id, authorId: p.actor_id, action: "created", targetType: "Snippet", targetId: p.id, targetIid: null, targetTitle: p.title, confidential: p.visibility !== "public" });
});

/** A deleted target's payload: only its id is read. */
const idOnly = pickFields("id");

// Notes -------------------------------------------------------------------------------------------

type NoteEvent = PayloadOf<typeof Issues.events.noteCreated>;

/**
 * Comments only: system notes record no event (GitLab's EventCreateService#leave_note is for user
 * notes). A project's noteable records its project, a group's (an epic) its group. A note with
 * neither would be a personal snippet's, which no service announces (snippets' notes are project
 * snippets' only); it is not recorded rather than shown without knowing who may read the snippet.
 */
const noteCreated: EventHandler<NoteEvent> = async (p, tx, event) => {
  if (p.system) return;
  const groupId = p.project_id === null ? (p.group_id ?? null) : null;
  if (p.project_id === null && groupId === null) return;
  const authorId = p.author_id;
  await record(tx, event, {
    projectId: p.project_id,
    groupId,
    authorId,
    action: "commented",
    targetType: "Note",
    targetId: p.id,
    targetIid: p.id,
    targetTitle: p.noteable_title,
    confidential: p.noteable_confidential,
    internal: p.internal,
    note: {
      id: p.id,
      body: p.body,
      system: false,
      noteable_id: p.noteable_id,
      noteable_type: p.noteable_type,
      noteable_iid: p.noteable_iid,
      ...(p.commit_id !== undefined ? { commit_id: p.commit_id } : {}),
      author_id: authorId,
      created_at: p.created_at,
    },
  });
};

/** A comment's event: note ids count per service (issues' and epics' notes, merge requests', snippets'), so its noteable type tells two apart. */
const commentEvent = (p: Pick<NoteEvent, "id" | "noteable_type">) =>
  and(eq(events.targetType, "Note"), eq(events.targetId, p.id), sql`${events.note}->>'noteable_type' = ${p.noteable_type}`);

/** An edited comment shows its new body (GitLab presents the live note). */
const noteUpdated: EventHandler<NoteEvent> = async (p, tx) => {
  await tx
    .update(events)
    .set({ note: sql`jsonb_set(${events.note}, '{body}', to_jsonb(${p.body}::text))`, internal: p.internal })
    .where(commentEvent(p));
};

const noteDeleted: EventHandler<Pick<NoteEvent, "id" | "noteable_type">> = async (p, tx) => {
  await tx.delete(events).where(commentEvent(p));
};

/** What a deleted comment's record reads of its event. */
const noteRef = pickFields("id", "noteable_type");

// Projects, milestones, members -------------------------------------------------------------------

const NE = Namespaces.events;

/** Project milestones only: group milestones' events belong to no project (not recorded here). */
const milestoneRecord = (action: string) => (entry: typeof NE.milestoneCreated | typeof NE.milestoneClosed | typeof NE.milestoneReopened) =>
  on(entry, pickFields("id", "iid", "title", "projectId", "userId"), async (p, tx, event) => {
    if (p.projectId === null) return;
    await record(tx, event, { projectId: p.projectId, authorId: p.userId, action, targetType: "Milestone", targetId: p.id, targetIid: p.iid, targetTitle: p.title });
  });

/** One "destroyed" record per milestone; the event id is suffixed per milestone to stay idempotent. */
const milestoneDeleted = on(NE.milestoneDeleted, pickFields("milestoneIds", "projectId", "userId", "milestones"), async (p, tx, event) => {
  if (p.projectId === null) return;
  const projectId = p.projectId;
  const known = new Map(p.milestones.map((m) => [m.id, m]));
  const rows = p.milestoneIds.map((milestoneId, i) => ({
    sourceEventId: i === 0 ? event.id : derivedId(event.id, i),
    projectId,
    authorId: p.userId,
    action: "destroyed",
    targetType: "Milestone",
    targetId: milestoneId,
    targetIid: known.get(milestoneId)?.iid ?? null,
    targetTitle: known.get(milestoneId)?.title ?? null,
    createdAt: new Date(event.occurredAt),
  }));
  if (rows.length) await tx.insert(events).values(rows).onConflictDoNothing({ target: events.sourceEventId });
});

/** A stable uuid for the i-th record of one event (the last 8 hex digits replaced by i). */
export const derivedId = (uuid: string, i: number) => uuid.slice(0, 28) + i.toString(16).padStart(8, "0");

/** GitLab records joined/left for project members only (ProjectMember hooks), not group members. */
const memberRecord = (action: "joined" | "left", entry: typeof NE.memberAdded | typeof NE.memberRemoved) =>
  on(entry, pickFields("sourceType", "projectId", "userId"), async (p, tx, event) => {
    if (p.sourceType !== "Project" || p.projectId === null) return;
    await record(tx, event, { projectId: p.projectId, authorId: p.userId, action });
  });

// Pushes ------------------------------------------------------------------------------------------

/** A push of a branch or tag as the repositories announce it (branch.pushed, tag.pushed). */
interface RefPushed {
  projectId: number;
  branch?: string;
  tag?: string;
  before: string;
  after: string;
  userId: number;
  totalCommitsCount: number;
  commitTitle: string;
}

/** Entities::PushEventPayload from a push: all-zero before creates the ref, all-zero after removes it. */
export function pushData(p: RefPushed, refType: "branch" | "tag"): PushData {
  const created = p.before === ZERO_SHA;
  const removed = p.after === ZERO_SHA;
  return {
    commit_count: removed ? 0 : p.totalCommitsCount,
    action: created ? "created" : removed ? "removed" : "pushed",
    ref_type: refType,
    commit_from: created ? null : p.before,
    commit_to: removed ? null : p.after,
    ref: (refType === "branch" ? p.branch : p.tag) ?? "",
    // GitLab keeps the newest commit's title, cut at 70 characters (PushEventPayloadService).
    commit_title: removed || !p.commitTitle ? null : truncateTitle(p.commitTitle),
    // Set by GitLab for a push of many refs at once, which it records as one event; each ref is an event here.
    ref_count: null,
  };
}

const truncateTitle = (title: string) => (title.length > 70 ? `${title.slice(0, 67)}...` : title);

const refPushed =
  (refType: "branch" | "tag"): EventHandler<RefPushed> =>
  (p, tx, event) =>
    record(tx, event, { projectId: p.projectId, authorId: p.userId, action: "pushed", pushData: pushData(p, refType) });

// The catalog ------------------------------------------------------------------------------------

const IE = Issues.events;
const ME = MergeRequests.events;
const RE = Repositories.events;

/** Several handlers of one event, in its one transaction, in order. */
const both =
  <P>(...handlers: EventHandler<P>[]): EventHandler<P> =>
  async (p, tx, event, afterCommit) => {
    for (const handle of handlers) await handle(p, tx, event, afterCommit);
  };

/** Domain event → how it lands in the events table, and the to-dos it makes or resolves (todos/todo.consumers.ts). */
export const consumers = (broker: () => ServiceBroker): Subscriptions => {
  const T = todoHandlers(broker);
  return consumersOf("activity", [
  on(IE.issueOpened, both(issueRecord("created"), T.issueOpened)),
  on(IE.issueClosed, issueFields, both(issueRecord("closed"), T.issueClosed)),
  on(IE.issueReopened, issueFields, issueRecord("reopened")),
  // A move closes the original (Issues::MoveService closes it); the copy arrives as opened.
  on(IE.issueMoved, issueFields, both(issueRecord("closed"), T.issueClosed)),
  on(IE.issueUpdated, both(issueUpdated, T.issueUpdated)),
  on(IE.issueDeleted, pickFields("id", "actor_id"), both((p, tx) => removeTargetEvents(tx, "Issue", p.id), T.issueDeleted)),
  on(ME.mergeRequestOpened, both(mergeRequestRecord("created"), T.mergeRequestOpened)),
  on(ME.mergeRequestUpdated, T.mergeRequestUpdated),
  on(ME.mergeRequestClosed, mrFields, both(mergeRequestRecord("closed"), T.mergeRequestResolved)),
  on(ME.mergeRequestReopened, mrFields, mergeRequestRecord("reopened")),
  on(ME.mergeRequestMerged, mrFields, both(mergeRequestRecord("merged"), T.mergeRequestResolved)),
  on(ME.mergeRequestApproved, mrFields, both(mergeRequestRecord("approved"), T.mergeRequestResolved)),
  on(ME.mergeRequestDeleted, pickFields("id", "actor_id"), both((p, tx) => removeTargetEvents(tx, "MergeRequest", p.id), T.mergeRequestDeleted)),
  on(IE.noteCreated, both(noteCreated, T.noteCreated)),
  on(IE.noteUpdated, noteUpdated),
  on(IE.noteDeleted, noteRef, noteDeleted),
  on(IE.epicOpened, epicFields, epicRecord("created")),
  on(IE.epicClosed, epicFields, epicRecord("closed")),
  on(IE.epicReopened, epicFields, epicRecord("reopened")),
  on(IE.epicUpdated, epicFields, (p, tx) => followTarget(tx, "Epic", p)),
  on(IE.epicDeleted, idOnly, (p, tx) => removeTargetEvents(tx, "Epic", p.id)),
  on(IE.epicNoteCreated, noteCreated),
  on(IE.epicNoteUpdated, noteUpdated),
  on(IE.epicNoteDeleted, noteRef, noteDeleted),
  on(ME.noteCreated, both(noteCreated, T.noteCreated)),
  on(ME.noteUpdated, noteUpdated),
  on(ME.noteDeleted, noteRef, noteDeleted),
  snippetCreated,
  on(SE.snippetDeleted, idOnly, (p, tx) => removeTargetEvents(tx, "Snippet", p.id)),
  on(SE.noteCreated, noteCreated),
  on(SE.noteUpdated, noteUpdated),
  on(SE.noteDeleted, noteRef, noteDeleted),
  on(NE.projectCreated, pickFields("projectId", "userId"), (p, tx, event) => record(tx, event, { projectId: p.projectId, authorId: p.userId, action: "created" })),
  on(NE.projectDeleted, async (p, tx) => {
    await tx.delete(events).where(eq(events.projectId, p.projectId));
    await removeTodosOfProject(tx, p.projectId);
  }),
  // A deleted group's epics go with it, unannounced one by one: their events go by group.
  on(NE.groupDeleted, async (p, tx) => {
    if (p.groupIds.length) await tx.delete(events).where(inArray(events.groupId, p.groupIds));
  }),
  milestoneRecord("created")(NE.milestoneCreated),
  milestoneRecord("closed")(NE.milestoneClosed),
  milestoneRecord("reopened")(NE.milestoneReopened),
  milestoneDeleted,
  memberRecord("joined", NE.memberAdded),
  memberRecord("left", NE.memberRemoved),
  // A deleted user's to-dos go with them (GitLab: dependent destroy).
  on(Accounts.events.userDeleted, (p, tx) => removeTodosOfUser(tx, p.userId)),
  on(RE.branchPushed, pickFields("projectId", "branch", "before", "after", "userId", "totalCommitsCount", "commitTitle"), refPushed("branch")),
  on(RE.tagPushed, pickFields("projectId", "tag", "before", "after", "userId", "totalCommitsCount", "commitTitle"), refPushed("tag")),
  ]);
};
