import type { Announcement } from "@collab/db";

/**
 * What other services learn from namespaces: durable events written in the transaction of the
 * change (kit.events.transact), applied once by each consuming service:
 *   namespaces.label.deleted      { labelIds: number[], projectId: number | null, groupId: number | null }
 *   namespaces.milestone.deleted  { milestoneIds: number[], projectId: number | null, groupId: number | null, userId: number }
 * Ids are never reused, so a late or repeated event can only touch links to what is gone. The
 * issues service drops the label links and unsets the milestone of the issues that carried them
 * (a group's label or milestone may be on issues of any project below it: the ids cover them all).
 */
export const NAMESPACES_EVENTS = {
  projectDeleted: "namespaces.project.deleted",
  /** `{ groupIds }`: a deleted group and all its subgroups (their projects each had projectDeleted). */
  groupDeleted: "namespaces.group.deleted",
  membersChanged: "namespaces.members.changed",
  labelDeleted: "namespaces.label.deleted",
  milestoneDeleted: "namespaces.milestone.deleted",
  /** `{ projectId, branch, before, after, userId, commitCount, commitTitle }`: a branch head moved, was created (before all zeros) or removed (after all zeros). */
  branchPushed: "namespaces.branch.pushed",
  /** `{ projectId, tag, before, after, userId, commitTitle }`: a tag created or removed (same zeros). */
  tagPushed: "namespaces.tag.pushed",
  /** `{ projectId, userId, name, namespaceId }` */
  projectCreated: "namespaces.project.created",
  /** `{ id, iid, title, projectId, groupId, userId }` */
  milestoneCreated: "namespaces.milestone.created",
  milestoneClosed: "namespaces.milestone.closed",
  milestoneReopened: "namespaces.milestone.reopened",
  /** `{ sourceType: "Project" | "Namespace", sourceId, projectId, groupId, userId, accessLevel, actorId }` */
  memberAdded: "namespaces.member.added",
  memberRemoved: "namespaces.member.removed",
} as const;

export interface LabelDeletedEvent {
  labelIds: number[];
  projectId: number | null;
  groupId: number | null;
}

export interface MilestoneDeletedEvent {
  milestoneIds: number[];
  projectId: number | null;
  groupId: number | null;
  /** Who deleted it: the issues that lose the milestone are updated by them, as in GitLab. */
  userId: number;
}

/** A project removed for good and the groups (with subgroups) removed with it. */
export const removalEvents = (r: { projectIds: number[]; namespaceIds: number[] }): Announcement[] => [
  ...r.projectIds.map((projectId): Announcement => [NAMESPACES_EVENTS.projectDeleted, { projectId }]),
  ...(r.namespaceIds.length ? [[NAMESPACES_EVENTS.groupDeleted, { groupIds: r.namespaceIds }] as const] : []),
];

export const ZERO_SHA = "0".repeat(40);
const titleOf = (message: string) => message.split("\n")[0] ?? "";

/** A branch push as other services read it; `before` null (a branch's first commit) reads as all zeros. */
export const branchPushed = (projectId: number, push: { branch: string; before: string | null; after: string }, userId: number, commitCount: number, message: string): Announcement => [
  NAMESPACES_EVENTS.branchPushed,
  { projectId, branch: push.branch, before: push.before ?? ZERO_SHA, after: push.after, userId, commitCount, commitTitle: titleOf(message) },
];

/** A tag or branch created or removed through the refs API, as a push of that ref. */
export const refPushed = (projectId: number, ref: { kind: string; name: string; sha: string }, userId: number, change: "created" | "removed", message: string): Announcement =>
  ref.kind === "tag"
    ? [NAMESPACES_EVENTS.tagPushed, { projectId, tag: ref.name, before: change === "created" ? ZERO_SHA : ref.sha, after: change === "created" ? ref.sha : ZERO_SHA, userId, commitTitle: titleOf(message) }]
    : [NAMESPACES_EVENTS.branchPushed, { projectId, branch: ref.name, before: change === "created" ? ZERO_SHA : ref.sha, after: change === "created" ? ref.sha : ZERO_SHA, userId, commitCount: 0, commitTitle: titleOf(message) }];

export const milestoneEvent = (name: string, m: { id: number; iid: number; title: string; projectId: number | null; groupId: number | null }, userId: number): Announcement => [
  name,
  { id: m.id, iid: m.iid, title: m.title, projectId: m.projectId, groupId: m.groupId, userId },
];

/** A membership of a project or group (Namespace) created or removed. */
export const memberEvent = (name: string, source: { type: "Namespace" | "Project"; id: number }, userId: number, accessLevel: number | null, actorId: number): Announcement => [
  name,
  { sourceType: source.type, sourceId: source.id, projectId: source.type === "Project" ? source.id : null, groupId: source.type === "Namespace" ? source.id : null, userId, accessLevel, actorId },
];
