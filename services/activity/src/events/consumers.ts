import { consumer, type Consumers, type Db, type EventMeta } from "@collab/db";
import { and, eq, or, sql } from "drizzle-orm";
import { z } from "zod";
import { events, type NewEvent, type PushData } from "../db/schema";

const id = z.number().int().positive();
const ZERO_SHA = "0".repeat(40);

/** One record per domain event; a redelivered event (same id) writes nothing. */
async function record(tx: Db, event: EventMeta, row: Omit<NewEvent, "sourceEventId" | "createdAt">) {
  await tx
    .insert(events)
    .values({ ...row, sourceEventId: event.id, createdAt: new Date(event.occurredAt) })
    .onConflictDoNothing({ target: events.sourceEventId });
}

/** A deleted issue or merge request takes its events and its comments' events with it (GitLab: dependent delete). */
async function removeTargetEvents(tx: Db, targetType: "Issue" | "MergeRequest", targetId: number) {
  await tx
    .delete(events)
    .where(
      or(
        and(eq(events.targetType, targetType), eq(events.targetId, targetId)),
        and(eq(events.targetType, "Note"), sql`${events.note}->>'noteable_type' = ${targetType}`, sql`(${events.note}->>'noteable_id')::int = ${targetId}`),
      ),
    );
}

// Issues ------------------------------------------------------------------------------------------

const IssueEvent = z.object({ id, iid: id, project_id: id, actor_id: id, title: z.string(), confidential: z.boolean().default(false) });
type IssueEvent = z.infer<typeof IssueEvent>;

const issueRecord = (action: string) =>
  consumer(IssueEvent, (p: IssueEvent, tx, event) =>
    record(tx, event, { projectId: p.project_id, authorId: p.actor_id, action, targetType: "Issue", targetId: p.id, targetIid: p.iid, targetTitle: p.title, confidential: p.confidential }),
  );

/**
 * GitLab presents an event's target live: a renamed issue shows its new title, and an issue made
 * confidential hides its past events (and its comments' events) from those who may not read it.
 */
const IssueUpdated = IssueEvent.extend({ changes: z.array(z.string()).default([]) });
const issueUpdated = consumer(IssueUpdated, async (p, tx) => {
  await tx.update(events).set({ targetTitle: p.title, confidential: p.confidential }).where(and(eq(events.targetType, "Issue"), eq(events.targetId, p.id)));
  await tx
    .update(events)
    .set({ targetTitle: p.title, confidential: p.confidential })
    .where(and(eq(events.targetType, "Note"), sql`${events.note}->>'noteable_type' = 'Issue'`, sql`(${events.note}->>'noteable_id')::int = ${p.id}`));
});

// Merge requests ----------------------------------------------------------------------------------

/** approved/unapproved carry no title in today's emitters: the title stays null then. */
const MergeRequestEvent = z.object({ id, iid: id, project_id: id, actor_id: id, title: z.string().nullish() });
type MergeRequestEvent = z.infer<typeof MergeRequestEvent>;

const mergeRequestRecord = (action: string) =>
  consumer(MergeRequestEvent, (p: MergeRequestEvent, tx, event) =>
    record(tx, event, { projectId: p.project_id, authorId: p.actor_id, action, targetType: "MergeRequest", targetId: p.id, targetIid: p.iid, targetTitle: p.title ?? null }),
  );

const TargetDeleted = z.object({ id });

// Notes -------------------------------------------------------------------------------------------

const NoteEvent = z.object({
  id,
  noteable_type: z.enum(["Issue", "MergeRequest"]),
  noteable_id: id,
  noteable_iid: id,
  noteable_title: z.string().nullish(),
  noteable_confidential: z.boolean().default(false),
  project_id: id,
  actor_id: id,
  author_id: id.optional(),
  body: z.string().default(""),
  internal: z.boolean().default(false),
  system: z.boolean().default(false),
  created_at: z.string().optional(),
});
type NoteEvent = z.infer<typeof NoteEvent>;

/** Comments only: system notes record no event (GitLab's EventCreateService#leave_note is for user notes). */
const noteCreated = consumer(NoteEvent, async (p: NoteEvent, tx, event) => {
  if (p.system) return;
  const authorId = p.author_id ?? p.actor_id;
  await record(tx, event, {
    projectId: p.project_id,
    authorId,
    action: "commented",
    targetType: "Note",
    targetId: p.id,
    targetIid: p.id,
    targetTitle: p.noteable_title ?? null,
    confidential: p.noteable_confidential,
    internal: p.internal,
    note: {
      id: p.id,
      body: p.body,
      system: false,
      noteable_id: p.noteable_id,
      noteable_type: p.noteable_type,
      noteable_iid: p.noteable_iid,
      author_id: authorId,
      created_at: p.created_at ?? event.occurredAt,
    },
  });
});

/** An edited comment shows its new body (GitLab presents the live note). */
const noteUpdated = consumer(NoteEvent, async (p: NoteEvent, tx) => {
  await tx
    .update(events)
    .set({ note: sql`jsonb_set(${events.note}, '{body}', to_jsonb(${p.body}::text))`, internal: p.internal })
    .where(and(eq(events.targetType, "Note"), eq(events.targetId, p.id)));
});

const noteDeleted = consumer(z.object({ id }), async (p, tx) => {
  await tx.delete(events).where(and(eq(events.targetType, "Note"), eq(events.targetId, p.id)));
});

// Projects, milestones, members -------------------------------------------------------------------

const projectCreated = consumer(z.object({ projectId: id, userId: id }), (p, tx, event) =>
  record(tx, event, { projectId: p.projectId, authorId: p.userId, action: "created" }),
);

const projectDeleted = consumer(z.object({ projectId: id }), async (p, tx) => {
  await tx.delete(events).where(eq(events.projectId, p.projectId));
});

const MilestoneEvent = z.object({ id, iid: id, title: z.string(), projectId: id.nullable(), userId: id });
type MilestoneEvent = z.infer<typeof MilestoneEvent>;

/** Project milestones only: group milestones' events belong to no project (not recorded here). */
const milestoneRecord = (action: string) =>
  consumer(MilestoneEvent, async (p: MilestoneEvent, tx, event) => {
    if (p.projectId === null) return;
    await record(tx, event, { projectId: p.projectId, authorId: p.userId, action, targetType: "Milestone", targetId: p.id, targetIid: p.iid, targetTitle: p.title });
  });

const MilestoneDeleted = z.object({
  milestoneIds: z.array(id),
  projectId: id.nullable(),
  userId: id,
  milestones: z.array(z.object({ id, iid: id, title: z.string() })).optional(),
});

/** One "destroyed" record per milestone; the event id is suffixed per milestone to stay idempotent. */
const milestoneDeleted = consumer(MilestoneDeleted, async (p, tx, event) => {
  if (p.projectId === null) return;
  const projectId = p.projectId;
  const known = new Map((p.milestones ?? []).map((m) => [m.id, m]));
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

const MemberEvent = z.object({ sourceType: z.enum(["Project", "Namespace"]), projectId: id.nullable(), userId: id });

/** GitLab records joined/left for project members only (ProjectMember hooks), not group members. */
const memberRecord = (action: "joined" | "left") =>
  consumer(MemberEvent, async (p: z.infer<typeof MemberEvent>, tx, event) => {
    if (p.sourceType !== "Project" || p.projectId === null) return;
    await record(tx, event, { projectId: p.projectId, authorId: p.userId, action });
  });

// Pushes ------------------------------------------------------------------------------------------

const RefPushed = z.object({
  projectId: id,
  branch: z.string().optional(),
  tag: z.string().optional(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  userId: id,
  commitCount: z.number().int().min(0).optional(),
  commitTitle: z.string().nullish(),
});
type RefPushed = z.infer<typeof RefPushed>;

/** Entities::PushEventPayload from a push: all-zero before creates the ref, all-zero after removes it. */
export function pushData(p: RefPushed, refType: "branch" | "tag"): PushData {
  const created = !p.before || p.before === ZERO_SHA;
  const removed = !p.after || p.after === ZERO_SHA;
  return {
    commit_count: removed ? 0 : (p.commitCount ?? 1),
    action: created ? "created" : removed ? "removed" : "pushed",
    ref_type: refType,
    commit_from: created ? null : p.before,
    commit_to: removed ? null : p.after,
    ref: (refType === "branch" ? p.branch : p.tag) ?? "",
    commit_title: removed ? null : (p.commitTitle ?? null),
  };
}

const refPushed = (refType: "branch" | "tag") =>
  consumer(RefPushed, (p: RefPushed, tx, event) => record(tx, event, { projectId: p.projectId, authorId: p.userId, action: "pushed", pushData: pushData(p, refType) }));

// The catalog ------------------------------------------------------------------------------------

/** Domain event name → how it lands in the events table. */
export const consumers: Consumers = {
  "issues.issue.opened": issueRecord("created"),
  "issues.issue.closed": issueRecord("closed"),
  "issues.issue.reopened": issueRecord("reopened"),
  // A move closes the original (Issues::MoveService closes it); the copy arrives as opened.
  "issues.issue.moved": issueRecord("closed"),
  "issues.issue.updated": issueUpdated,
  "issues.issue.deleted": consumer(TargetDeleted, (p, tx) => removeTargetEvents(tx, "Issue", p.id)),
  "merge-requests.merge_request.opened": mergeRequestRecord("created"),
  "merge-requests.merge_request.closed": mergeRequestRecord("closed"),
  "merge-requests.merge_request.reopened": mergeRequestRecord("reopened"),
  "merge-requests.merge_request.merged": mergeRequestRecord("merged"),
  "merge-requests.merge_request.approved": mergeRequestRecord("approved"),
  "merge-requests.merge_request.deleted": consumer(TargetDeleted, (p, tx) => removeTargetEvents(tx, "MergeRequest", p.id)),
  "issues.note.created": noteCreated,
  "issues.note.updated": noteUpdated,
  "issues.note.deleted": noteDeleted,
  "merge-requests.note.created": noteCreated,
  "merge-requests.note.updated": noteUpdated,
  "merge-requests.note.deleted": noteDeleted,
  "namespaces.project.created": projectCreated,
  "namespaces.project.deleted": projectDeleted,
  "namespaces.milestone.created": milestoneRecord("created"),
  "namespaces.milestone.closed": milestoneRecord("closed"),
  "namespaces.milestone.reopened": milestoneRecord("reopened"),
  "namespaces.milestone.deleted": milestoneDeleted,
  "namespaces.member.added": memberRecord("joined"),
  "namespaces.member.removed": memberRecord("left"),
  "namespaces.branch.pushed": refPushed("branch"),
  "namespaces.tag.pushed": refPushed("tag"),
};
